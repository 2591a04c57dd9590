package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.settings.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --set KEY=VALUE}: any key, above the file and the environment, validated like them. */
class ConfigOptionsTest {

    @TempDir
    Path dir;

    private ConfigOptions options(Path file, String... settings) {
        ConfigOptions options = new ConfigOptions();
        options.configFile = file;
        options.settings = List.of(settings);
        return options;
    }

    private Path file(String text) throws IOException {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void shouldSetApplicationAndKafkaKeysAboveTheFileAndTheEnvironment() throws IOException {
        Path file = file("gda.publish.interval.ms=5000\ngda.model.id=from-file\ncommit.interval.ms=1000\n");
        Map<String, String> env = Map.of("GDA_MODEL_ID", "from-env");

        AppConfig config = options(file, "gda.publish.interval.ms=250", "gda.model.id=from-cli",
                "commit.interval.ms=50").load(env);

        assertEquals(Duration.ofMillis(250), config.publishInterval());
        assertEquals("from-cli", config.modelId());
        assertEquals("50", config.kafkaProperties().getProperty("commit.interval.ms"));
    }

    /** produce and consume reach `broker`'s default address unless a file, the environment or an option says. */
    @Test
    void shouldGiveProduceAndConsumeTheBrokersDefaultAddressWhenNothingSetsOne() throws IOException {
        Path empty = file("");
        assertEquals("127.0.0.1:9092", ConfigOptions.consoleBootstrapServers(options(empty).load(Map.of())));
        assertEquals("127.0.0.1:9092", ConfigOptions.consoleBootstrapServers(options(null).load(Map.of())));
        assertEquals("env:1", ConfigOptions.consoleBootstrapServers(options(empty).load(
                Map.of("KAFKA_STREAMS_BOOTSTRAP_SERVERS", "env:1"))));
        assertEquals("file:2", ConfigOptions.consoleBootstrapServers(options(file("bootstrap.servers=file:2\n"))
                .load(Map.of())));
        ConfigOptions given = options(empty);
        given.bootstrapServers = "option:3";
        assertEquals("option:3", ConfigOptions.consoleBootstrapServers(given.load(Map.of())));
    }

    @Test
    void shouldRefuseAnUnknownApplicationKeyAnInvalidValueAndAMissingEqualsSign() throws IOException {
        Path file = file("");
        ConfigException unknown = assertThrows(ConfigException.class,
                () -> options(file, "gda.no.such.key=1").load(Map.of()));
        assertTrue(unknown.getMessage().startsWith("unknown key gda.no.such.key in --set"), unknown.getMessage());
        ConfigException invalid = assertThrows(ConfigException.class,
                () -> options(file, "gda.partitions=many").load(Map.of()));
        assertTrue(invalid.getMessage().startsWith("gda.partitions = 'many' (--set)"), invalid.getMessage());
        UserError noValue = assertThrows(UserError.class, () -> options(file, "gda.partitions").load(Map.of()));
        assertEquals("--set gda.partitions: expected KEY=VALUE", noValue.getMessage());
    }
}
