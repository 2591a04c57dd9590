package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The committed-offset wait of {@code bench} against a broker that does not answer (a real admin client on a port
 * nobody listens on): every read times out, and it is asked again until the stage timeout, then the stage fails
 * with the reads that failed and the last failure, rather than at the first read a busy broker answered late.
 */
class BenchClientsTest {

    /**
     * One admin call's timeout here; the stage timeout allows about twenty, so that at least two happen even when a
     * loaded machine makes each call take seconds.
     */
    private static final Duration CALL_TIMEOUT = Duration.ofMillis(300);
    private static final Duration STAGE_TIMEOUT = Duration.ofSeconds(6);

    @Test
    void shouldAskForTheCommittedOffsetsAgainUntilTheStageTimeoutWithTheLastFailureInTheError() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        AtomicInteger healthChecks = new AtomicInteger();
        long start = System.nanoTime();
        IllegalStateException failure;
        try (BenchClients clients = new BenchClients("127.0.0.1:" + port, CALL_TIMEOUT)) {
            failure = assertThrows(IllegalStateException.class, () -> clients.awaitCommitted(Stage.TRAINING,
                    "bench-unanswered-training", healthChecks::incrementAndGet, "labelled", new long[] {10, 10},
                    STAGE_TIMEOUT));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        String message = failure.getMessage();
        assertTrue(seconds >= STAGE_TIMEOUT.toSeconds(), "asked again until the stage timeout: " + seconds + " s");
        assertTrue(message.startsWith("training: timed out after 6 s waiting for the committed offsets of "
                + "bench-unanswered-training to reach the end of labelled (last read: none succeeded); "), message);
        assertTrue(message.contains("got no answer within 300 ms or a retriable error, the last: ")
                && message.contains("TimeoutException"), message);
        int reads = Integer.parseInt(message.replaceFirst(".*none succeeded\\); (\\d+) read\\(s\\).*", "$1"));
        // One read per call timeout at most, so about stage timeout / call timeout of them; at least two.
        assertTrue(reads >= 2 && reads <= STAGE_TIMEOUT.toMillis() / CALL_TIMEOUT.toMillis() + 1, message);
        assertEquals(reads, healthChecks.get(), "the application is checked between reads");
    }
}
