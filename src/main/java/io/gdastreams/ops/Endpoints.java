package io.gdastreams.ops;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.settings.HttpSecurity;
import java.io.IOException;
import java.io.PrintWriter;
import java.security.GeneralSecurityException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The process's HTTP listeners: the endpoint on {@code gda.http.port} (the model, {@code /score}, the dashboard, and
 * health and metrics unless there is a management listener) and the management listener on
 * {@code gda.http.management-port} (health and metrics only, on workers of its own: the endpoint's clients, however
 * slow, cannot hold up a probe there), on {@code gda.http.management-host} when set. Either, both or neither; one
 * opened and the other refused closes the first.
 */
final class Endpoints implements AutoCloseable {

    private final OpsRoutes routes;
    /** Null: no {@code gda.http.port}. */
    private final OpsServer api;
    /** Null: no {@code gda.http.management-port}. */
    private final OpsServer management;

    private Endpoints(OpsRoutes routes, OpsServer api, OpsServer management) {
        this.routes = routes;
        this.api = api;
        this.management = management;
    }

    /** Binds the configured ports (none configured: nothing bound); {@code routes} is closed with the listeners. */
    static Endpoints open(AppConfig config, OpsRoutes routes) {
        OpsServer api = null;
        OpsServer management = null;
        try {
            OptionalInt port = config.httpPort();
            if (port.isPresent()) {
                api = open(config, ConfigKey.HTTP_PORT, port.getAsInt());
            }
            OptionalInt managementPort = config.httpManagementPort();
            if (managementPort.isPresent()) {
                management = open(config, ConfigKey.HTTP_MANAGEMENT_PORT, managementPort.getAsInt());
            }
            return new Endpoints(routes, api, management);
        } catch (RuntimeException e) {
            if (api != null) {
                api.close();
            }
            throw e;
        }
    }

    /** Whether a listener is open (a scorer's or trainer's metrics then bind to its Kafka Streams client). */
    boolean serving() {
        return api != null || management != null;
    }

    /** Puts the routes on the listeners, starts them and says where they are (with a warning for an open one). */
    void start(Role role, String modelId, boolean scoring, PrintWriter out) {
        String operational = "/health/live, /health/ready, /metrics";
        if (api != null) {
            routes.installApi(management == null ? routes.installOperational(api) : api).start();
            out.printf("%s: HTTP endpoint on %s (/ dashboard, %s/models/%s%s)%s%n", role, api.url(),
                    management == null ? operational + ", " : "", modelId, scoring ? ", POST /score" : "",
                    api.hasToken() ? "; bearer token required" : "");
            api.exposure().ifPresent(warning -> out.printf("%s: WARNING: %s%n", role, warning));
        }
        if (management != null) {
            routes.installOperational(management).start();
            out.printf("%s: management endpoint on %s (%s)%n", role, management.url(), operational);
        }
        out.flush();
    }

    @Override
    public void close() {
        routes.close();
        if (api != null) {
            api.close();
        }
        if (management != null) {
            management.close();
        }
    }

    /** Whether {@code e} says the port is taken (not "Cannot assign requested address": a host that is not ours). */
    private static boolean inUse(Exception e) {
        return e instanceof java.net.BindException && e.getMessage() != null && e.getMessage().contains("in use");
    }

    /** The listener of {@code key} (gda.http.port or gda.http.management-port) on {@code port}. */
    private static OpsServer open(AppConfig config, ConfigKey key, int port) {
        HttpSecurity security = config.httpSecurity();
        boolean api = key == ConfigKey.HTTP_PORT;
        Optional<String> own = api ? Optional.empty() : config.httpManagementHost();
        String host = own.orElse(config.httpHost());
        ConfigKey hostKey = own.isPresent() ? ConfigKey.HTTP_MANAGEMENT_HOST : ConfigKey.HTTP_HOST;
        try {
            return api ? EndpointSocket.open(host, port, config.httpMaxRequestBytes(), security)
                    : EndpointSocket.openManagement(host, port, security);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            // The message of a keystore error names the file or the algorithm, never the password.
            throw new UserError("cannot serve HTTP" + (security.tls().isPresent() ? "S" : "") + " on "
                    + host + ":" + port + " (" + hostKey.key() + ", " + key.key()
                    + ", gda.http.tls.*): "
                    + (e instanceof IOException io ? FileProblem.reason(io) + (io instanceof
                    java.nio.file.FileSystemException f ? " (" + f.getFile() + ")" : "") : e.getMessage())
                    + (inUse(e) && port != 0 ? "; stop what listens there, or choose another port (" + key.key()
                    + "=0: any free one)" : ""), e);
        }
    }
}
