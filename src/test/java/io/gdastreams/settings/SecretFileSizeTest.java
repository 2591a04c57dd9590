package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A secret file of up to {@link Secrets#MAX_SECRET_FILE_BYTES} is read; one byte more is refused, unread. */
class SecretFileSizeTest {

    @TempDir
    Path dir;

    private AppConfig tokenFile(int bytes) throws IOException {
        Path file = dir.resolve("token-" + bytes);
        Files.writeString(file, "t".repeat(bytes), StandardCharsets.UTF_8);
        return AppConfig.load(null, Map.of("GDA_HTTP_TOKEN_FILE", file.toString()));
    }

    @Test
    void shouldReadASecretFileOfExactlyTheLimit() throws IOException {
        AppConfig config = tokenFile(Secrets.MAX_SECRET_FILE_BYTES);
        assertEquals(Secrets.MAX_SECRET_FILE_BYTES, Secrets.read(config, ConfigKey.HTTP_TOKEN,
                ConfigKey.HTTP_TOKEN_FILE).orElseThrow().length());
    }

    @Test
    void shouldRefuseASecretFileOneByteLarger() throws IOException {
        AppConfig config = tokenFile(Secrets.MAX_SECRET_FILE_BYTES + 1);
        ConfigException e = assertThrows(ConfigException.class, () -> Secrets.read(config, ConfigKey.HTTP_TOKEN,
                ConfigKey.HTTP_TOKEN_FILE));
        assertTrue(e.getMessage().contains("is larger than 4096 bytes"), e.getMessage());
    }
}
