package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Each service-level accessor reads its own key, as its type: the documented default without a file, and a file's
 * value (set to something else than the default, so that a swapped key or a constant shows).
 */
class TypedAccessorsTest {

    @Test
    void shouldReadTheDocumentedDefaults() {
        AppConfig config = AppConfig.defaults();
        assertEquals(1000, config.maxClasses());
        assertEquals(-1, config.replicationFactor());
        assertTrue(config.createTopics());
        assertEquals("127.0.0.1", config.httpHost());
        assertEquals(1_048_576, config.httpMaxRequestBytes());
        assertEquals(Duration.ofSeconds(15), config.brokerTimeout());
        assertEquals(Duration.ofMinutes(5), config.restorePatience());
        assertTrue(config.abortHangingTransactions());
        assertEquals(Duration.ofSeconds(30), config.progressInterval());
    }

    @Test
    void shouldReadEachKeyFromTheFile() {
        Properties file = new Properties();
        file.setProperty("gda.max.classes", "7");
        file.setProperty("gda.replication.factor", "3");
        file.setProperty("gda.create.topics", "false");
        file.setProperty("gda.http.host", "0.0.0.0");
        file.setProperty("gda.http.max-request-bytes", "4096");
        file.setProperty("gda.broker.timeout.ms", "2500");
        file.setProperty("gda.restore.patience.ms", "60000");
        file.setProperty("gda.restore.abort-hanging", "false");
        file.setProperty("gda.progress.interval.ms", "1500");
        AppConfig config = ConfigSources.resolve(file, "test file", Map.of());
        assertEquals(7, config.maxClasses());
        assertEquals(3, config.replicationFactor());
        assertFalse(config.createTopics());
        assertEquals("0.0.0.0", config.httpHost());
        assertEquals(4096, config.httpMaxRequestBytes());
        assertEquals(Duration.ofMillis(2500), config.brokerTimeout());
        assertEquals(Duration.ofMinutes(1), config.restorePatience());
        assertFalse(config.abortHangingTransactions());
        assertEquals(Duration.ofMillis(1500), config.progressInterval());
    }
}
