package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.Role;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.settings.ConfigException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The endpoint and the management listener ({@code gda.http.management-port}) on real (in-process) JDK servers:
 * which routes each serves, that slow clients of the endpoint cannot hold up a probe on the management listener, and
 * the configurations refused.
 */
class EndpointsTest {

    private static final String MODEL_ID = "m";
    /** Far below the 30 s a probe waits behind slow clients that hold every worker, far above an answer's ms. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern API = Pattern.compile("training: HTTP endpoint on (http://\\S+) \\(([^)]*)\\)");
    private static final Pattern MANAGEMENT = Pattern.compile(
            "training: management endpoint on (http://\\S+) \\(([^)]*)\\)");

    private static OpsRoutes routes() {
        return new OpsRoutes(new Health(Role.TRAINING, Optional::empty, Optional::empty),
                new OpsMetrics(null, java.time.Clock.systemUTC()), MODEL_ID, Optional::empty, FitOptions.defaults(),
                new DecisionRule.MostProbable(), null, false);
    }

    private static AppConfig config(Map<String, String> keys) {
        AppConfig config = AppConfig.defaults();
        for (Map.Entry<String, String> key : keys.entrySet()) {
            config = config.set(key.getKey(), key.getValue(), "--set");
        }
        return config;
    }

    private static int status(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(PROBE_TIMEOUT).GET()
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static Matcher line(Pattern pattern, String out) {
        Matcher m = pattern.matcher(out);
        assertTrue(m.find(), out);
        return m;
    }

    @Test
    void shouldServeHealthAndMetricsOnlyOnTheManagementListenerAndTheRestOnlyOnTheEndpoint() throws Exception {
        StringWriter text = new StringWriter();
        AppConfig config = config(Map.of("gda.http.port", "0", "gda.http.management-port", "0"));
        try (Endpoints endpoints = Endpoints.open(config, routes())) {
            assertTrue(endpoints.serving());
            endpoints.start(Role.TRAINING, MODEL_ID, false, new PrintWriter(text));
            Matcher api = line(API, text.toString());
            Matcher management = line(MANAGEMENT, text.toString());
            assertEquals("/ dashboard, /models/m", api.group(2));
            assertEquals("/health/live, /health/ready, /metrics", management.group(2));
            for (String path : List.of("/health/live", "/health/ready", "/metrics")) {
                assertEquals(404, status(api.group(1) + path), path);
            }
            assertEquals(200, status(api.group(1) + "/"));
            assertEquals(404, status(api.group(1) + "/models/m"), "no model yet: the route answers, 404");
            assertEquals(200, status(management.group(1) + "/health/live"));
            assertEquals(503, status(management.group(1) + "/health/ready"), "no Kafka Streams client yet");
            assertEquals(200, status(management.group(1) + "/metrics"));
            for (String path : List.of("/", "/models/m", "/api/summary", "/dashboard.js")) {
                assertEquals(404, status(management.group(1) + path), path);
            }
        }
    }

    /**
     * The endpoint's sixteen workers held by clients that never end their headers (twenty of them): a probe on the
     * endpoint would wait the server's 30 s; the management listener's own workers answer it at once.
     */
    @Test
    void shouldAnswerAProbeOnTheManagementListenerWhileSlowClientsHoldEveryWorkerOfTheEndpoint() throws Exception {
        StringWriter text = new StringWriter();
        AppConfig config = config(Map.of("gda.http.port", "0", "gda.http.management-port", "0"));
        try (Endpoints endpoints = Endpoints.open(config, routes())) {
            endpoints.start(Role.TRAINING, MODEL_ID, false, new PrintWriter(text));
            URI api = URI.create(line(API, text.toString()).group(1));
            String management = line(MANAGEMENT, text.toString()).group(1);
            try (SlowClients slow = SlowClients.hold(api.getHost(), api.getPort(), OpsServer.THREADS + 4)) {
                Thread.sleep(200); // the endpoint has taken them to its workers
                HttpResponse<String> held = null;
                try {
                    held = HttpClient.newHttpClient().send(HttpRequest.newBuilder(api.resolve("/"))
                            .timeout(Duration.ofMillis(500)).GET().build(), HttpResponse.BodyHandlers.ofString());
                } catch (java.net.http.HttpTimeoutException expected) {
                    // the endpoint's workers are all held: what a probe there would meet
                }
                assertEquals(null, held, "the endpoint answered although every worker was held: the test proves"
                        + " nothing");
                assertEquals(200, status(management + "/health/live"));
            }
        }
    }

    @Test
    void shouldServeOnlyHealthAndMetricsWithAManagementPortAlone() throws Exception {
        StringWriter text = new StringWriter();
        try (Endpoints endpoints = Endpoints.open(config(Map.of("gda.http.management-port", "0")), routes())) {
            endpoints.start(Role.TRAINING, MODEL_ID, false, new PrintWriter(text));
            assertFalse(API.matcher(text.toString()).find(), text.toString());
            String management = line(MANAGEMENT, text.toString()).group(1);
            assertEquals(200, status(management + "/metrics"));
            assertEquals(404, status(management + "/"));
        }
        try (Endpoints none = Endpoints.open(AppConfig.defaults(), routes())) {
            assertFalse(none.serving());
        }
    }

    /** 127.0.0.2 is loopback too on Linux (all of 127/8), so the two listeners can be told apart by address. */
    @Test
    void shouldBindTheManagementListenerOnItsOwnHostAndTheEndpointOnTheOther() throws Exception {
        StringWriter text = new StringWriter();
        AppConfig config = config(Map.of("gda.http.port", "0", "gda.http.management-port", "0",
                "gda.http.management-host", "127.0.0.2"));
        try (Endpoints endpoints = Endpoints.open(config, routes())) {
            endpoints.start(Role.TRAINING, MODEL_ID, false, new PrintWriter(text));
            URI api = URI.create(line(API, text.toString()).group(1));
            URI management = URI.create(line(MANAGEMENT, text.toString()).group(1));
            assertEquals("127.0.0.1", api.getHost(), "gda.http.host, the default");
            assertEquals("127.0.0.2", management.getHost());
            assertEquals(200, status(management + "/health/live"));
            assertEquals(200, status(api + "/"));
        }
    }

    @Test
    void shouldNameTheManagementHostWhenItsListenerCannotBind() {
        // 192.0.2.1 (TEST-NET-1, RFC 5737) is no address of this host: binding it fails.
        AppConfig config = config(Map.of("gda.http.port", "0", "gda.http.management-port", "0",
                "gda.http.management-host", "192.0.2.1"));
        io.gdastreams.lifecycle.UserError e = assertThrows(io.gdastreams.lifecycle.UserError.class,
                () -> Endpoints.open(config, routes()).close());
        assertTrue(e.getMessage().startsWith("cannot serve HTTP on 192.0.2.1:0 (gda.http.management-host,"
                + " gda.http.management-port, gda.http.tls.*): "), e.getMessage());
    }

    @Test
    void shouldSayWhatToDoWhenThePortIsTaken() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            AppConfig config = config(Map.of("gda.http.port", Integer.toString(taken.getLocalPort())));
            io.gdastreams.lifecycle.UserError e = assertThrows(io.gdastreams.lifecycle.UserError.class,
                    () -> Endpoints.open(config, routes()).close());
            assertTrue(e.getMessage().startsWith("cannot serve HTTP on 127.0.0.1:" + taken.getLocalPort()
                    + " (gda.http.host, gda.http.port, gda.http.tls.*): "), e.getMessage());
            assertTrue(e.getMessage().endsWith("; stop what listens there, or choose another port (gda.http.port=0:"
                    + " any free one)"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseTheSamePortForBothListenersButNotTwoFreePorts() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> config(Map.of("gda.http.port", "8081", "gda.http.management-port", "8081")));
        assertEquals("gda.http.management-port (--set) and gda.http.port (--set) are both 8081: the management"
                + " listener needs a port of its own (or leave gda.http.management-port unset to serve health and"
                + " metrics on gda.http.port)", e.getMessage());
        assertEquals(0, config(Map.of("gda.http.port", "0", "gda.http.management-port", "0")).httpManagementPort()
                .getAsInt());
    }
}
