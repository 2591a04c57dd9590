package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where {@code gda.model.signing.key} may come from, and that no configuration error quotes it. */
class SigningConfigTest {

    private static final String SECRET = "s3cret-signing-material-xyz";
    private static final String KEYS = "k1:" + SECRET;

    @TempDir
    Path dir;

    private static Properties file(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }

    @Test
    void keyInThePropertiesFileIsRefusedWithoutQuotingIt() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigSources.resolve(
                file(ConfigKey.MODEL_SIGNING_KEY.key(), KEYS), "file app.properties", Map.of()));
        assertTrue(e.getMessage().contains("GDA_MODEL_SIGNING_KEY"), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }

    @Test
    void keyOnTheCommandLineIsRefusedWithoutQuotingIt() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.defaults().set(ConfigKey.MODEL_SIGNING_KEY.key(), KEYS, "--set"));
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }

    @Test
    void keyFromTheEnvironmentSignsAndVerifies() {
        AppConfig config = ConfigSources.resolve(new Properties(), "file app.properties",
                Map.of("GDA_MODEL_SIGNING_KEY", KEYS));
        assertEquals("k1", config.trainingSettings().signing().signingKeyId());
        assertTrue(config.scoringSettings().signing().enabled());
        assertFalse(config.trainingSettings().signing().toString().contains(SECRET));
    }

    @Test
    void keyFromAFileNamedInThePropertiesFile() throws IOException {
        Path keyFile = Files.writeString(dir.resolve("signing.key"), KEYS + "\n");
        AppConfig config = ConfigSources.resolve(file(ConfigKey.MODEL_SIGNING_KEY_FILE.key(), keyFile.toString()),
                "file app.properties", Map.of());
        assertEquals("k1", config.scoringSettings().signing().signingKeyId());
    }

    @Test
    void badKeysUnreadableFilesAndBothSourcesAreConfigErrorsWithoutTheSecret() {
        ConfigException tooShort = assertThrows(ConfigException.class, () -> ConfigSources.resolve(new Properties(),
                "file app.properties", Map.of("GDA_MODEL_SIGNING_KEY", "k1:short-one")));
        assertFalse(tooShort.getMessage().contains("short-one"), tooShort.getMessage());
        ConfigException missing = assertThrows(ConfigException.class, () -> ConfigSources.resolve(
                file(ConfigKey.MODEL_SIGNING_KEY_FILE.key(), dir.resolve("absent").toString()), "file app.properties",
                Map.of()));
        assertTrue(missing.getMessage().contains("absent"), missing.getMessage());
        ConfigException both = assertThrows(ConfigException.class, () -> ConfigSources.resolve(
                file(ConfigKey.MODEL_SIGNING_KEY_FILE.key(), dir.resolve("absent").toString()), "file app.properties",
                Map.of("GDA_MODEL_SIGNING_KEY", KEYS)));
        assertFalse(both.getMessage().contains(SECRET), both.getMessage());
    }
}
