package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.topology.Topics;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code score} against a bootstrap address where nothing listens: it fails within {@code gda.broker.timeout.ms}
 * (plus the JVM's start) with exit 1 and a message that names the address and the key, instead of retrying
 * without end, and without a screenful of Kafka client warnings before it. Needs no broker: that is the point.
 */
class UnreachableBrokerIT {

    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(3);
    /** The JVM's start and the shutdown on top of the timeout. */
    private static final Duration EXIT_WITHIN = BROKER_TIMEOUT.plusSeconds(20);

    @TempDir
    Path dir;

    @Test
    void shouldFailWithinTheTimeoutNamingTheAddress() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        String bootstrap = "127.0.0.1:" + port;
        Map<String, String> config = ProductProcess.testConfig(bootstrap, Topics.defaults(), "m", "unreachable",
                dir.resolve("state"), 1);
        config.put("gda.broker.timeout.ms", Long.toString(BROKER_TIMEOUT.toMillis()));
        try (ProductProcess scorer = new ProductProcess(ProductProcess.Command.SCORE, config, dir, "scorer")) {
            long started = System.nanoTime();
            scorer.start();
            int status = scorer.awaitOwnExit(EXIT_WITHIN);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertEquals(ExitCodes.FAILURE, status, scorer.log());
            assertTrue(scorer.log().contains("cannot reach the Kafka cluster at " + bootstrap + " within "
                    + BROKER_TIMEOUT.toMillis() + " ms (gda.broker.timeout.ms)"), scorer.log());
            assertTrue(scorer.log().contains("no broker accepted a connection (" + bootstrap + ": Connection refused)"),
                    scorer.log());
            // The probe connects without a Kafka client, whose network client logged a WARN per refused attempt.
            assertFalse(scorer.log().contains("[WARN] NetworkClient"), scorer.log());
            assertTrue(took.compareTo(BROKER_TIMEOUT) >= 0, "waited the timeout: " + took);
            System.out.printf("UnreachableBrokerIT: exit %d after %d ms (timeout %d ms)%n", status, took.toMillis(),
                    BROKER_TIMEOUT.toMillis());
        }
    }
}
