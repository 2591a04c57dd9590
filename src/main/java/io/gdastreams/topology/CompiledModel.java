package io.gdastreams.topology;

import io.gdastreams.math.Discriminant;
import io.gdastreams.math.Exclusion;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.Posterior;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * One model version made ready for scoring: fitted and factorised once, with the feature-name → coordinate
 * map. Per event only the feature lookup and the discriminant's triangular solves remain. Immutable and safe to
 * share between stream threads.
 */
final class CompiledModel {

    private final String modelId;
    private final long version;
    private final Map<String, Integer> featureIndex;
    private final Discriminant discriminant;
    private final List<String> labels;
    /** Why nothing can be scored, or null when at least one class takes part. */
    private final String unscorableReason;

    private CompiledModel(String modelId, long version, Map<String, Integer> featureIndex,
                          Discriminant discriminant, String unscorableReason) {
        this.modelId = modelId;
        this.version = version;
        this.featureIndex = featureIndex;
        this.discriminant = discriminant;
        this.labels = List.copyOf(discriminant.labels());
        this.unscorableReason = unscorableReason;
    }

    /** Fits and compiles {@code model} (not modified). Throws IllegalArgumentException when it is malformed. */
    static CompiledModel compile(ModelParameters model, FitOptions options) {
        GaussianModel fitted = GaussianModel.fit(ModelConversion.classSummaries(model), options);
        Discriminant discriminant = Discriminant.compile(fitted);
        Map<String, Integer> index = new HashMap<>();
        List<String> features = model.features();
        for (int i = 0; i < features.size(); i++) {
            index.put(features.get(i), i);
        }
        String unscorable = null;
        if (discriminant.labels().isEmpty()) {
            unscorable = "no scorable class in model version " + model.version() + ": "
                    + fitted.excluded().stream().map(CompiledModel::describe).collect(Collectors.joining("; "));
        }
        return new CompiledModel(model.modelId(), model.version(), Map.copyOf(index), discriminant, unscorable);
    }

    private static String describe(Exclusion e) {
        return e.label() + " (" + e.reason() + ")";
    }

    String modelId() {
        return modelId;
    }

    long version() {
        return version;
    }

    /**
     * Scores one event: features absent from the event are marginalised out; a feature the model does not know
     * makes the event unscored (it is more likely a schema mismatch than something safe to ignore).
     */
    Prediction score(String id, Map<String, Double> features, OptionalDouble outlierThreshold) {
        if (unscorableReason != null) {
            return Prediction.unscored(id, unscorableReason, modelId, version);
        }
        double[] x = new double[featureIndex.size()];
        Arrays.fill(x, Double.NaN);
        List<String> unknown = null;
        for (Map.Entry<String, Double> feature : features.entrySet()) {
            Integer i = featureIndex.get(feature.getKey());
            if (i == null) {
                if (unknown == null) {
                    unknown = new ArrayList<>();
                }
                unknown.add(feature.getKey());
            } else {
                x[i] = feature.getValue();
            }
        }
        if (unknown != null) {
            return Prediction.unscored(id, "unknown feature(s): " + String.join(", ", unknown), modelId, version);
        }
        Posterior posterior = discriminant.score(x);
        if (!Double.isFinite(posterior.logDensity())) {
            return Prediction.unscored(id, "non-finite log density " + posterior.logDensity(), modelId, version);
        }
        double[] p = posterior.probabilities();
        Map<String, Double> probabilities = new LinkedHashMap<>();
        for (int k = 0; k < p.length; k++) {
            probabilities.put(labels.get(k), p[k]);
        }
        Boolean outlier = outlierThreshold.isPresent() ? posterior.logDensity() < outlierThreshold.getAsDouble()
                : null;
        return Prediction.scored(id, labels.get(posterior.predicted()), probabilities, posterior.logDensity(),
                modelId, version, outlier);
    }
}
