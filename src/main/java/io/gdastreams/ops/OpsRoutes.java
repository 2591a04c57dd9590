package io.gdastreams.ops;

import io.gdastreams.config.Role;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.LiveScoring;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The routes of the endpoint: health, metrics, the model, and (scorer) one event scored. Each takes an
 * {@link OpsServer.Request} and gives an {@link OpsServer.Reply}; {@link #installOperational} and
 * {@link #installApi} put them on a server.
 */
final class OpsRoutes {

    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String MODELS = "/models/";

    private final Health health;
    private final OpsMetrics metrics;
    private final String modelId;
    private final Supplier<Optional<ModelParameters>> model;
    private final FitOptions fitOptions;
    /** The scorer's decision rule ({@code gda.decision.*}): the dashboard's regions are drawn by it. */
    private final DecisionRule decisionRule;
    /** The scorer's; null in a trainer (no POST /score). */
    private final LiveScoring scoring;
    private final DashboardHistory history;
    /**
     * {@code /health/*} and {@code /metrics} need the token too (they are open by default, for probes and scrapers).
     */
    private final boolean protectMetrics;
    /** What the model routes serve of the model in force, made once per model ({@link PerModel}). */
    private final PerModel<byte[]> published = new PerModel<>(ModelDocument::published);
    private final PerModel<Optional<byte[]>> tiedForm;
    private final PerModel<DecisionRegions.Fitted> regionsFit;

    OpsRoutes(Health health, OpsMetrics metrics, String modelId, Supplier<Optional<ModelParameters>> model,
              FitOptions fitOptions, DecisionRule decisionRule, LiveScoring scoring, boolean protectMetrics) {
        this.protectMetrics = protectMetrics;
        this.health = health;
        this.metrics = metrics;
        this.modelId = modelId;
        this.model = model;
        this.fitOptions = fitOptions;
        this.decisionRule = decisionRule;
        this.scoring = scoring;
        this.tiedForm = new PerModel<>(m -> ModelDocument.withTiedForm(m, fitOptions));
        this.regionsFit = new PerModel<>(m -> DecisionRegions.fit(m, fitOptions));
        this.history = new DashboardHistory(() -> DashboardSummary.sample(role(), modelId, metrics,
                System.currentTimeMillis()));
    }

    private Role role() {
        return scoring != null ? Role.SCORING : Role.TRAINING;
    }

    /** Stops the dashboard's sampling (the server is closed by its owner). */
    void close() {
        history.close();
    }

    /**
     * Health and metrics (on the endpoint, or alone on the management listener: {@code gda.http.management-port}):
     * open for probes and scrapers unless {@code protectMetrics}, then they need the token.
     */
    OpsServer installOperational(OpsServer server) {
        operational(server, "/health/live", get(r -> health(health.live())));
        operational(server, "/health/ready", get(r -> health(health.ready())));
        operational(server, "/metrics", get(r -> new OpsServer.Reply(200, PROMETHEUS_TEXT,
                OpsServer.utf8(metrics.scrape()))));
        return server;
    }

    /**
     * Everything but health and metrics: the model, {@code /score} (scorer) and the dashboard. With a token, the model,
     * {@code /score} and the dashboard's data ({@code /api/*}) need it; the page and its script stay open (static, no
     * data: the page asks for the token and sends it with each data request).
     */
    OpsServer installApi(OpsServer server) {
        server.guarded(MODELS, get(this::model));
        if (scoring != null) {
            server.guarded("/score", this::score);
        }
        server.root(get(r -> DashboardPage.HTML))
                .route("/dashboard.js", get(r -> DashboardPage.SCRIPT))
                .guarded("/api/summary", get(r -> OpsServer.Reply.json(200, DashboardSummary.of(role(), modelId,
                        metrics, System.currentTimeMillis(), health.ready().reason()))))
                .guarded("/api/history", get(r -> OpsServer.Reply.json(200, history.samples())))
                .guarded("/api/regions", get(this::regions));
        history.start();
        return server;
    }

    private void operational(OpsServer server, String path, OpsServer.Route route) {
        if (protectMetrics) {
            server.guarded(path, route);
        } else {
            server.route(path, route);
        }
    }

    private static OpsServer.Route get(OpsServer.Route route) {
        return request -> request.method().equals("GET") || request.method().equals("HEAD") ? route.handle(request)
                : OpsServer.Reply.error(405, "use GET").withHeader("Allow", "GET, HEAD");
    }

    private static OpsServer.Reply health(Health.Answer answer) {
        return OpsServer.Reply.json(answer.status(), answer.body());
    }

    /** {@code GET /models/{modelId}[?covariance=tied]}. */
    OpsServer.Reply model(OpsServer.Request request) {
        String requested = request.path().substring(MODELS.length()); // the path is decoded once, by the server
        String covariance;
        try {
            covariance = queryParameter(request.query(), "covariance");
        } catch (IllegalArgumentException e) {
            return OpsServer.Reply.error(400, "malformed query");
        }
        if (!modelId.equals(requested)) {
            return OpsServer.Reply.error(404, "this process serves model '" + modelId + "' only");
        }
        Optional<ModelParameters> current = model.get();
        if (current.isEmpty()) {
            return OpsServer.Reply.error(404, "no model '" + modelId + "' yet");
        }
        if (covariance == null) {
            return new OpsServer.Reply(200, OpsServer.JSON, published.of(current.get()));
        }
        if (!covariance.equals("tied")) {
            return OpsServer.Reply.error(400, "covariance=tied is the scorer form served (linear discriminants)");
        }
        return tiedForm.of(current.get())
                .map(bytes -> new OpsServer.Reply(200, OpsServer.JSON, bytes))
                .orElseGet(() -> OpsServer.Reply.error(409, "no class of the model can be scored under the fit"
                        + " options (gda.min.count, estimator)"));
    }

    /**
     * {@code POST /score}: one event (the input topic's JSON) in, its prediction out, as the predictions topic
     * would carry it: 200 answered, 400 the event is at fault (the unscored record says why), 503 no model that can
     * score yet (none in force, or none of its classes scorable: the topology holds such events).
     */
    OpsServer.Reply score(OpsServer.Request request) {
        if (!request.method().equals("POST")) {
            return OpsServer.Reply.error(405, "use POST with one event as JSON").withHeader("Allow", "POST");
        }
        LiveScoring.Answer answer = scoring.score(request.body());
        return switch (answer.verdict()) {
            case ANSWERED -> new OpsServer.Reply(200, OpsServer.JSON, answer.bytes());
            case REFUSED -> new OpsServer.Reply(400, OpsServer.JSON, answer.bytes());
            case FAILED -> new OpsServer.Reply(500, OpsServer.JSON, answer.bytes());
            case NO_MODEL -> {
                Map<String, Object> body = new LinkedHashMap<>();
                // None in force, or the one in force has no scorable class: the reason says which.
                body.put("error", "no model to score with");
                body.put("reason", answer.reason());
                yield OpsServer.Reply.json(503, body);
            }
        };
    }

    /** {@code GET /api/regions?x=…&y=…[&cells=…]}: the dashboard's decision-region grid ({@link DecisionRegions}). */
    OpsServer.Reply regions(OpsServer.Request request) {
        String x;
        String y;
        int cells;
        try {
            x = queryParameter(request.query(), "x");
            y = queryParameter(request.query(), "y");
            String c = queryParameter(request.query(), "cells");
            cells = c == null ? DecisionRegions.DEFAULT_CELLS : Integer.parseInt(c);
        } catch (IllegalArgumentException e) {
            return OpsServer.Reply.error(400, "malformed query");
        }
        Optional<ModelParameters> current = model.get();
        if (current.isEmpty()) {
            return OpsServer.Reply.error(404, "no model '" + modelId + "' yet");
        }
        try {
            return OpsServer.Reply.json(200, DecisionRegions.of(current.get(), regionsFit.of(current.get()),
                    decisionRule, x, y, cells));
        } catch (IllegalArgumentException e) {
            return OpsServer.Reply.error(400, e.getMessage());
        } catch (IllegalStateException e) {
            return OpsServer.Reply.error(409, e.getMessage());
        }
    }

    /** The first value of {@code name} in a raw query string, decoded; null when absent. */
    static String queryParameter(String query, String name) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (key.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
