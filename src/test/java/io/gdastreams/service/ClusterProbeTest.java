package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.RunFailure;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

/**
 * The start-up probe's wait for a listener, without a broker: nothing listening is a RunFailure naming the address
 * and why, at the deadline; what Kafka's client refuses as a setting (a port out of range, a name that does not
 * resolve) reaches the client, which refuses it at once as before, instead of an unexpected error or a wait.
 */
class ClusterProbeTest {

    private static final Duration TIMEOUT = Duration.ofMillis(600);

    @Test
    void shouldNameTheAddressWhenNothingListensThereByTheDeadline() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String bootstrap = "127.0.0.1:" + port;
        long started = System.nanoTime();
        RunFailure e = assertThrows(RunFailure.class,
                () -> ClusterProbe.awaitReachable(bootstrap, new Properties(), TIMEOUT, "the timeout"));
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(e.getMessage().startsWith("cannot reach the Kafka cluster at " + bootstrap + " within 600 ms (the"
                + " timeout): no broker accepted a connection (" + bootstrap + ": Connection refused)"),
                e.getMessage());
        assertTrue(tookMs >= TIMEOUT.toMillis(), "gave up after " + tookMs + " ms");
    }

    @Test
    void shouldLeaveWhatKafkaRefusesAsASettingToKafka() {
        for (String bootstrap : new String[] {"127.0.0.1:99999", "no-such-host.invalid:9092"}) {
            long started = System.nanoTime();
            assertThrows(KafkaException.class,
                    () -> ClusterProbe.awaitReachable(bootstrap, new Properties(), Duration.ofSeconds(30), "t"),
                    bootstrap);
            assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), bootstrap + ": at once");
        }
    }
}
