package io.gdastreams.settings;

import io.gdastreams.config.ConfigKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The secrets of a configuration — the HTTP bearer token, the TLS keystore password and the model signing keys —
 * and the one way each is given: from the environment ({@code GDA_…}) or from a file named by its {@code .file}
 * key, never in clear from the properties file or the command line (a properties file is committed and printed, a
 * command line shows in {@code ps}). No message here quotes a secret, only the key, the file and where it was set.
 */
final class Secrets {

    /** A secret file larger than this is not a token, a password or a key list: refused rather than read. */
    static final int MAX_SECRET_FILE_BYTES = 4096;

    /** The keys that hold a secret; each has a {@code .file} twin. */
    static final List<ConfigKey> SECRET_KEYS = List.of(ConfigKey.HTTP_TOKEN, ConfigKey.HTTP_TLS_KEYSTORE_PASSWORD,
            ConfigKey.MODEL_SIGNING_KEY);

    private Secrets() {
    }

    /** Part of validating every configuration: a secret set anywhere but in the environment is refused. */
    static void refuseInClear(Map<ConfigKey, String> values, Map<ConfigKey, String> origins) {
        for (ConfigKey key : SECRET_KEYS) {
            String origin = origins.get(key);
            if (!values.get(key).isEmpty() && !origin.equals("default") && !origin.startsWith("environment ")) {
                throw new ConfigException(key.key() + " is a secret and is refused in clear (" + origin + "): set "
                        + key.environmentVariable() + " in the environment, or put it in a file readable only by"
                        + " the service and name that file with " + key.key() + ".file");
            }
        }
    }

    /** The secret from the environment or from its file (trailing white space dropped); empty when neither. */
    static Optional<String> read(AppConfig config, ConfigKey key, ConfigKey fileKey) {
        String inClear = config.raw(key);
        String file = config.raw(fileKey);
        if (!inClear.isEmpty() && !file.isEmpty()) {
            throw new ConfigException(key.key() + " (" + config.origin(key) + ") and " + fileKey.key() + " ("
                    + config.origin(fileKey) + ") are both set: keep one of them");
        }
        if (!inClear.isEmpty()) {
            return Optional.of(inClear);
        }
        if (file.isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(file);
        String secret;
        try {
            if (Files.size(path) > MAX_SECRET_FILE_BYTES) {
                throw new ConfigException(fileKey.key() + ": " + file + " is larger than " + MAX_SECRET_FILE_BYTES
                        + " bytes, not a " + key.key());
            }
            secret = new String(Files.readAllBytes(path), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ConfigException(fileKey.key() + ": cannot read " + file + " (" + e.getClass().getSimpleName()
                    + ")");
        }
        if (secret.isEmpty()) {
            throw new ConfigException(fileKey.key() + ": " + file + " is empty");
        }
        return Optional.of(secret);
    }
}
