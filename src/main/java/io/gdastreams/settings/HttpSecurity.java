package io.gdastreams.settings;

import io.gdastreams.config.ConfigKey;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP endpoint's access settings: the bearer token, whether health and metrics need it too, and the TLS
 * keystore. The two secrets (token, keystore password) come from the environment or from a file named by a
 * {@code .file} key, never in clear from the properties file or the command line (a properties file is committed
 * and printed, a command line shows in {@code ps}): {@link Secrets#refuseInClear} is part of validating every
 * configuration ({@link Secrets}). No message here quotes a secret, only the key and where it was set.
 *
 * @param token          the bearer token; empty: no token asked
 * @param protectMetrics {@code /health/*} and {@code /metrics} need the token too
 * @param tls            the keystore to serve HTTPS with; empty: plain HTTP
 */
public record HttpSecurity(Optional<String> token, boolean protectMetrics, Optional<Tls> tls) {

    /** @param password the keystore's password (also used for its key) */
    public record Tls(Path keystore, String type, char[] password) {
    }

    /**
     * The {@code gda.http.*} keys set to other than their default while neither {@code gda.http.port} nor
     * {@code gda.http.management-port} is set: without a port there is no endpoint, so they do nothing (and a secret
     * file they name is not read); empty otherwise.
     */
    public static List<String> keysWithoutEndpoint(AppConfig config) {
        if (config.httpPort().isPresent() || config.httpManagementPort().isPresent()) {
            return List.of();
        }
        return Arrays.stream(ConfigKey.values())
                .filter(key -> key.key().startsWith("gda.http.") && !config.raw(key).equals(key.defaultValue()))
                .map(ConfigKey::key).toList();
    }

    /**
     * Whether {@code gda.http.management-host} is set while {@code gda.http.port} is and
     * {@code gda.http.management-port} is not: there is an endpoint but no management listener for it to place (with
     * neither port, {@link #keysWithoutEndpoint} names it).
     */
    public static boolean managementHostWithoutListener(AppConfig config) {
        return config.httpPort().isPresent() && config.httpManagementPort().isEmpty()
                && config.httpManagementHost().isPresent();
    }

    static HttpSecurity of(AppConfig config) {
        Optional<String> token = Secrets.read(config, ConfigKey.HTTP_TOKEN, ConfigKey.HTTP_TOKEN_FILE);
        String keystore = config.raw(ConfigKey.HTTP_TLS_KEYSTORE);
        Optional<Tls> tls = Optional.empty();
        if (!keystore.isEmpty()) {
            char[] password = Secrets.read(config, ConfigKey.HTTP_TLS_KEYSTORE_PASSWORD,
                    ConfigKey.HTTP_TLS_KEYSTORE_PASSWORD_FILE).orElse("").toCharArray();
            tls = Optional.of(new Tls(Path.of(keystore), config.raw(ConfigKey.HTTP_TLS_KEYSTORE_TYPE), password));
        }
        boolean protectMetrics = config.booleanValue(ConfigKey.HTTP_PROTECT_METRICS);
        if (protectMetrics && token.isEmpty()) {
            // Asked to guard health and metrics with a token there is none of: served open, it was ignored unsaid.
            throw new ConfigException(ConfigKey.HTTP_PROTECT_METRICS.key() + "=true guards /health/* and /metrics"
                    + " with the bearer token, but none is set: set GDA_HTTP_TOKEN or "
                    + ConfigKey.HTTP_TOKEN_FILE.key() + " (README, 'Operating: the HTTP endpoint')");
        }
        return new HttpSecurity(token, protectMetrics, tls);
    }

}
