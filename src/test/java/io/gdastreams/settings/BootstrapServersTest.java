package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every service needs the bootstrap servers and none has a default: unset or blank, the user is told the three ways
 * to set them instead of Kafka failing later; set, the value reaches the clients as given.
 */
class BootstrapServersTest {

    @Test
    void shouldReturnTheConfiguredServersFromTheEnvironment() {
        AppConfig config = AppConfig.load(null, Map.of("KAFKA_STREAMS_BOOTSTRAP_SERVERS", "b1:9092,b2:9092"));
        assertEquals("b1:9092,b2:9092", config.bootstrapServers());
    }

    @Test
    void shouldRefuseUnsetOrBlankServersSayingHowToSetThem() {
        ConfigException unset = assertThrows(ConfigException.class, () -> AppConfig.defaults().bootstrapServers());
        assertTrue(unset.getMessage().startsWith("bootstrap.servers is not set"), unset.getMessage());
        assertTrue(unset.getMessage().contains("--bootstrap-servers"), unset.getMessage());
        // A blank value (an empty --set, a variable set to spaces) is as unset: Kafka would not reach a cluster.
        AppConfig blank = AppConfig.load(null, Map.of(), List.of(new AppConfig.Setting("bootstrap.servers", "  ",
                "--set")));
        assertThrows(ConfigException.class, blank::bootstrapServers);
    }
}
