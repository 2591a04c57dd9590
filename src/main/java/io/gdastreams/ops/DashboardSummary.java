package io.gdastreams.ops;

import io.gdastreams.config.Role;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.topology.DeadLetterCategory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's figures ({@code GET /api/summary}): the model the process stands for (classes, counts, version,
 * age) and the current values of its counters and gauges, all read from {@link OpsMetrics} (the registry
 * {@code /metrics} writes), never counted a second time. The counters are cumulative: the page keeps the last
 * minutes of samples and draws their rates itself.
 */
final class DashboardSummary {

    private DashboardSummary() {
    }

    /**
     * The whole summary: the model with its classes, the figures, and {@code notReady}: why the process is not ready
     * (as {@code /health/ready} says; null when it is).
     */
    static Map<String, Object> of(Role role, String modelId, OpsMetrics metrics, long nowMillis, String notReady) {
        Map<String, Object> body = of(role, modelId, metrics, nowMillis, true);
        body.put("notReady", notReady);
        return body;
    }

    /**
     * One sample of {@link DashboardHistory}: the same figures, the model reduced to its version and age (the
     * charts need no more, and 150 samples of a model with many classes would not be small).
     */
    static Map<String, Object> sample(Role role, String modelId, OpsMetrics metrics, long nowMillis) {
        return of(role, modelId, metrics, nowMillis, false);
    }

    private static Map<String, Object> of(Role role, String modelId, OpsMetrics metrics, long nowMillis,
                                          boolean classes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("role", role.toString());
        body.put("modelId", modelId);
        body.put("time", nowMillis);
        Optional<ModelParameters> current = metrics.currentModel();
        body.put("model", current.map(m -> model(m, metrics.modelAgeSeconds(), classes)).orElse(null));

        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("eventsApplied", metrics.eventsApplied());
        Map<String, Long> deadLetters = new LinkedHashMap<>();
        for (DeadLetterCategory category : DeadLetterCategory.values()) {
            deadLetters.put(category.label(), metrics.deadLetters(category));
        }
        figures.put("deadLetters", deadLetters);
        Map<String, Long> predictions = new LinkedHashMap<>();
        for (Prediction.Status status : Prediction.Status.values()) {
            predictions.put(status.name().toLowerCase(Locale.ROOT), metrics.predictions(status));
        }
        figures.put("predictions", predictions);
        figures.put("pendingEvents", metrics.pendingEvents());
        figures.put("latencyCount", metrics.latencyCount());
        figures.put("latencySumSeconds", metrics.latencySumSeconds());
        body.put("metrics", figures);
        return body;
    }

    private static Map<String, Object> model(ModelParameters model, double ageSeconds, boolean withClasses) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", model.version());
        if (!withClasses) {
            m.put("ageSeconds", Double.isNaN(ageSeconds) ? null : ageSeconds);
            return m;
        }
        m.put("updatedAt", model.updatedAt());
        m.put("ageSeconds", Double.isNaN(ageSeconds) ? null : ageSeconds);
        m.put("totalCount", model.totalCount());
        m.put("features", model.features());
        List<Map<String, Object>> classes = new ArrayList<>();
        for (ClassParameters c : model.classes()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("label", c.label());
            entry.put("count", c.count());
            entry.put("prior", c.prior());
            classes.add(entry);
        }
        m.put("classes", classes);
        return m;
    }
}
