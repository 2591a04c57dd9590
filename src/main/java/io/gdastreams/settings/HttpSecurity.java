package io.gdastreams.settings;

import io.gdastreams.config.ConfigKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP endpoint's access settings: the bearer token, whether health and metrics need it too, and the TLS
 * keystore. The two secrets (token, keystore password) come from the environment or from a file named by a
 * {@code .file} key, never in clear from the properties file or the command line (a properties file is committed
 * and printed, a command line shows in {@code ps}): {@link #refuseSecretsInClear} is part of validating every
 * configuration. No message here quotes a secret, only the key and where it was set.
 *
 * @param token          the bearer token; empty: no token asked
 * @param protectMetrics {@code /health/*} and {@code /metrics} need the token too
 * @param tls            the keystore to serve HTTPS with; empty: plain HTTP
 */
public record HttpSecurity(Optional<String> token, boolean protectMetrics, Optional<Tls> tls) {

    /** A secret file larger than this is not a token or a password: refused rather than read. */
    static final int MAX_SECRET_FILE_BYTES = 4096;

    /** @param password the keystore's password (also used for its key) */
    public record Tls(Path keystore, String type, char[] password) {
    }

    static HttpSecurity of(AppConfig config) {
        Optional<String> token = secret(config, ConfigKey.HTTP_TOKEN, ConfigKey.HTTP_TOKEN_FILE);
        String keystore = config.raw(ConfigKey.HTTP_TLS_KEYSTORE);
        Optional<Tls> tls = Optional.empty();
        if (!keystore.isEmpty()) {
            char[] password = secret(config, ConfigKey.HTTP_TLS_KEYSTORE_PASSWORD,
                    ConfigKey.HTTP_TLS_KEYSTORE_PASSWORD_FILE).orElse("").toCharArray();
            tls = Optional.of(new Tls(Path.of(keystore), config.raw(ConfigKey.HTTP_TLS_KEYSTORE_TYPE), password));
        }
        return new HttpSecurity(token, config.booleanValue(ConfigKey.HTTP_PROTECT_METRICS), tls);
    }

    /** A secret set anywhere but the environment (or left at its empty default) is a configuration error. */
    static void refuseSecretsInClear(Map<ConfigKey, String> values, Map<ConfigKey, String> origins) {
        for (ConfigKey key : new ConfigKey[] {ConfigKey.HTTP_TOKEN, ConfigKey.HTTP_TLS_KEYSTORE_PASSWORD}) {
            String origin = origins.get(key);
            if (!values.get(key).isEmpty() && !origin.equals("default") && !origin.startsWith("environment ")) {
                throw new ConfigException(key.key() + " is a secret and is refused in clear (" + origin + "): set "
                        + key.environmentVariable() + " in the environment, or put it in a file readable only by"
                        + " the service and name that file with " + key.key() + ".file");
            }
        }
    }

    /** The secret from the environment or from its file (trailing white space dropped); empty when neither. */
    private static Optional<String> secret(AppConfig config, ConfigKey key, ConfigKey fileKey) {
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
