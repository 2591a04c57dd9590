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
import java.util.Collections;
import java.util.Comparator;
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

    static final String UNKNOWN_FEATURES = "unknown feature(s): ";
    private static final int MAX_NAMES_SHOWN = 10;
    private static final int MAX_NAME_CHARS = 64;
    /**
     * An exclusion reason is the scorer's own short text (at most about 110 characters today); abbreviated beyond
     * this so that the size bound of a prediction ({@link ScoringSettings#MAX_OUTPUT_TOP_K}) does not hang on it.
     */
    static final int MAX_EXCLUSION_REASON_CHARS = 160;

    private final String modelId;
    private final long version;
    private final Map<String, Integer> featureIndex;
    private final Discriminant discriminant;
    private final List<String> labels;
    /** Why nothing can be scored, or null when at least one class takes part. */
    private final String unscorableReason;
    /**
     * Classes left out under the scorer's fit options, label → reason: the first {@code listed} by label, in
     * label order; stamped on every output, with the number of the others in {@link #otherExcluded}.
     */
    private final Map<String, String> excluded;
    /** How many excluded classes {@link #excluded} does not list; null when it lists them all. */
    private final Integer otherExcluded;
    /** Most classes a prediction lists ({@link ScoringSettings#listedClasses()}). */
    private final int listed;

    private CompiledModel(String modelId, long version, Map<String, Integer> featureIndex,
                          Discriminant discriminant, String unscorableReason, Map<String, String> excluded,
                          Integer otherExcluded, int listed) {
        this.modelId = modelId;
        this.version = version;
        this.featureIndex = featureIndex;
        this.discriminant = discriminant;
        this.labels = List.copyOf(discriminant.labels());
        this.unscorableReason = unscorableReason;
        this.excluded = excluded;
        this.otherExcluded = otherExcluded;
        this.listed = listed;
    }

    /**
     * Fits and compiles {@code model} (not modified); its predictions list at most {@code listed} (≥ 1) classes.
     * Throws IllegalArgumentException when the model is malformed.
     */
    static CompiledModel compile(ModelParameters model, FitOptions options, int listed) {
        if (listed < 1) {
            throw new IllegalArgumentException("listed must be >= 1, got " + listed);
        }
        GaussianModel fitted = GaussianModel.fit(ModelConversion.classSummaries(model), options);
        Discriminant discriminant = Discriminant.compile(fitted);
        Map<String, Integer> index = new HashMap<>();
        List<String> features = model.features();
        for (int i = 0; i < features.size(); i++) {
            index.put(features.get(i), i);
        }
        List<Exclusion> byLabel = fitted.excluded().stream()
                .map(e -> new Exclusion(e.label(), abbreviate(e.reason(), MAX_EXCLUSION_REASON_CHARS)))
                .sorted(Comparator.comparing(Exclusion::label)).toList();
        String unscorable = null;
        if (discriminant.labels().isEmpty()) {
            unscorable = "no scorable class in model version " + model.version() + ": "
                    + byLabel.stream().limit(MAX_NAMES_SHOWN).map(CompiledModel::describe)
                            .collect(Collectors.joining("; "))
                    + (byLabel.size() > MAX_NAMES_SHOWN ? "; and " + (byLabel.size() - MAX_NAMES_SHOWN) + " more"
                            : "");
        }
        Map<String, String> excluded = new LinkedHashMap<>();
        byLabel.stream().limit(listed).forEach(e -> excluded.put(e.label(), e.reason()));
        Integer otherExcluded = byLabel.size() > listed ? byLabel.size() - listed : null;
        return new CompiledModel(model.modelId(), model.version(), Map.copyOf(index), discriminant, unscorable,
                Collections.unmodifiableMap(excluded), otherExcluded, listed);
    }

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }

    /**
     * True when {@code prediction} is unscored because the event does not fit the model's schema (a feature the
     * model does not know): bad input, which the scorer also dead-letters, unlike "no model yet".
     */
    static boolean isMisfit(Prediction prediction) {
        return prediction.status() == Prediction.Status.UNSCORED && prediction.reason().startsWith(UNKNOWN_FEATURES);
    }

    /** The first few names, then how many more: a hostile event may carry thousands of long names. */
    private static String names(List<String> unknown) {
        String shown = unknown.stream().limit(MAX_NAMES_SHOWN)
                .map(n -> n.length() <= MAX_NAME_CHARS ? n : n.substring(0, MAX_NAME_CHARS - 3) + "...")
                .collect(Collectors.joining(", "));
        return unknown.size() <= MAX_NAMES_SHOWN ? shown
                : shown + " and " + (unknown.size() - MAX_NAMES_SHOWN) + " more";
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
            return Prediction.unscored(id, unscorableReason, modelId, version, excluded, otherExcluded);
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
            return Prediction.unscored(id, UNKNOWN_FEATURES + names(unknown), modelId, version);
        }
        Posterior posterior = discriminant.score(x);
        if (!Double.isFinite(posterior.logDensity())) {
            return Prediction.unscored(id, "non-finite log density " + posterior.logDensity(), modelId, version);
        }
        TopClasses top = TopClasses.of(labels, posterior.probabilities(), listed);
        Boolean outlier = outlierThreshold.isPresent() ? posterior.logDensity() < outlierThreshold.getAsDouble()
                : null;
        return Prediction.scored(id, labels.get(posterior.predicted()), top.probabilities(), top.otherProbability(),
                top.otherClasses(), posterior.logDensity(), modelId, version, outlier, excluded, otherExcluded);
    }
}
