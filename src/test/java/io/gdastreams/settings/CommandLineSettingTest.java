package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.UserError;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --set KEY=VALUE}: split at the first '=' (a value may contain '=', e.g. a SASL JAAS line), the key
 * trimmed, no key refused; {@link AppConfig#set} routes gda. keys to the application and the rest to Kafka, and
 * {@link AppConfig#withKafka} refuses an application key.
 */
class CommandLineSettingTest {

    @Test
    void shouldSplitAtTheFirstEqualsSign() {
        Map.Entry<String, String> entry = AppConfig.keyValue(" sasl.jaas.config =a=b", "--set");
        assertEquals("sasl.jaas.config", entry.getKey());
        assertEquals("a=b", entry.getValue());
        assertEquals(Map.entry("k", ""), AppConfig.keyValue("k=", "--set"));
    }

    @Test
    void shouldRefuseASettingWithoutKey() {
        for (String bad : new String[] {"=value", "novalue"}) {
            UserError e = assertThrows(UserError.class, () -> AppConfig.keyValue(bad, "--set"));
            assertEquals("--set " + bad + ": expected KEY=VALUE", e.getMessage());
        }
    }

    @Test
    void shouldSetApplicationAndKafkaKeysFromTheCommandLine() {
        AppConfig config = AppConfig.defaults().set("gda.model.id", "iris", "--set gda.model.id")
                .set("linger.ms", "5", "--set linger.ms").withKafka("client.id", "c1");
        assertEquals("iris", config.modelId());
        assertEquals("--set gda.model.id", config.origin(ConfigKey.MODEL_ID));
        assertEquals("5", config.kafkaProperties().getProperty("linger.ms"));
        assertEquals("c1", config.kafkaProperties().getProperty("client.id"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AppConfig.defaults().withKafka("gda.model.id", "x"));
        assertTrue(e.getMessage().contains("application key"), e.getMessage());
    }
}
