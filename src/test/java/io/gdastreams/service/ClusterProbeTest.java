package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

/**
 * The start-up probe's wait for a listener, without a broker: nothing listening is a RunFailure naming the address
 * and why, at the deadline; host names that do not resolve are refused at once, named, when none does, and skipped
 * when others do; what else Kafka's client refuses as a setting (a port out of range) reaches the client, which
 * refuses it at once as before, instead of an unexpected error or a wait.
 */
class ClusterProbeTest {

    private static final Duration TIMEOUT = Duration.ofMillis(600);

    @Test
    void shouldNameTheAddressWhenNothingListensThereByTheDeadline() throws IOException {
        int port = closedPort();
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
        long started = System.nanoTime();
        assertThrows(KafkaException.class,
                () -> ClusterProbe.awaitReachable("127.0.0.1:99999", new Properties(), Duration.ofSeconds(30), "t"));
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), "at once");
    }

    @Test
    void shouldRefuseAtOnceWhenNoHostResolvesNamingThem() {
        long started = System.nanoTime();
        UserError e = assertThrows(UserError.class, () -> ClusterProbe.awaitReachable(
                "no-such-host.invalid:9092, other.invalid:9093", new Properties(), Duration.ofSeconds(30), "t"));
        assertEquals("no host of bootstrap.servers resolves (no-such-host.invalid:9092, other.invalid:9093): check"
                + " the host names and that this machine can resolve them", e.getMessage());
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), "at once");
    }

    @Test
    void shouldTryTheServersThatResolveWhenSomeDoNot() throws IOException {
        int port = closedPort();
        String bootstrap = "no-such-host.invalid:9092,127.0.0.1:" + port;
        RunFailure e = assertThrows(RunFailure.class,
                () -> ClusterProbe.awaitReachable(bootstrap, new Properties(), TIMEOUT, "the timeout"));
        assertTrue(e.getMessage().contains("no broker accepted a connection (127.0.0.1:" + port
                + ": Connection refused)"), e.getMessage());
    }

    /** A port nothing listens on (one the system just handed out and that was closed again). */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
