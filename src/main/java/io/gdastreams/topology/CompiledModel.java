package io.gdastreams.topology;

import io.gdastreams.math.CategoricalLikelihood;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.Exclusion;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.Posterior;
import io.gdastreams.model.CategoricalTable;
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

/**
 * One model version made ready for scoring: fitted and factorised once, with the feature-name → coordinate
 * map. Per event only the feature lookup and the discriminant's triangular solves remain. Immutable and safe to
 * share between stream threads.
 */
final class CompiledModel {

    /**
     * An exclusion reason is the scorer's own short text (at most about 110 characters today); abbreviated beyond
     * this so that the size bound of a prediction ({@link ScoringSettings#MAX_OUTPUT_TOP_K}) does not hang on it.
     */
    static final int MAX_EXCLUSION_REASON_CHARS = 160;

    /**
     * Most unseen categorical values a prediction names. A value and a categorical feature name of the model each
     * have at most 256 characters (the label's rules, checked by {@link ModelConversion}), so 16 of them add at most
     * about 50 kB and keep a prediction within its size bound ({@link ScoringSettings#MAX_OUTPUT_TOP_K}).
     */
    static final int MAX_UNSEEN_LISTED = 16;

    private final String modelId;
    private final long version;
    private final Map<String, Integer> featureIndex;
    /** Categorical feature name → its index in {@link #categorical}; empty for a Gaussian model. */
    private final Map<String, Integer> categoricalIndex;
    /** The categorical part over the scored classes (in {@link #labels} order), or null for a Gaussian model. */
    private final CategoricalLikelihood categorical;
    private final Discriminant discriminant;
    private final List<String> labels;
    /** Why nothing can be scored, or null when at least one class takes part. */
    private final UnscoredReason.NoScorableClass unscorable;
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
                          Map<String, Integer> categoricalIndex, CategoricalLikelihood categorical,
                          Discriminant discriminant, UnscoredReason.NoScorableClass unscorable,
                          Map<String, String> excluded, Integer otherExcluded, int listed) {
        this.modelId = modelId;
        this.version = version;
        this.featureIndex = featureIndex;
        this.categoricalIndex = categoricalIndex;
        this.categorical = categorical;
        this.discriminant = discriminant;
        this.labels = List.copyOf(discriminant.labels());
        this.unscorable = unscorable;
        this.excluded = excluded;
        this.otherExcluded = otherExcluded;
        this.listed = listed;
    }

    /**
     * Fits and compiles {@code model} (not modified); its predictions list at most {@code listed} (≥ 1) classes.
     * Throws IllegalArgumentException when the model is malformed.
     */
    static CompiledModel compile(ModelParameters model, FitOptions options, int listed) {
        return compile(model, options, listed, CategoricalSettings.NONE.alpha());
    }

    /**
     * As {@link #compile(ModelParameters, FitOptions, int)}, smoothing the model's category tables (if any) with
     * {@code alpha} ({@code gda.categorical.alpha}).
     */
    static CompiledModel compile(ModelParameters model, FitOptions options, int listed, double alpha) {
        if (listed < 1) {
            throw new IllegalArgumentException("listed must be >= 1, got " + listed);
        }
        GaussianModel fitted = GaussianModel.fit(ModelConversion.classSummaries(model), options);
        List<CategoricalTable> tables = ModelConversion.categoricalTables(model);
        Discriminant discriminant = Discriminant.compile(fitted);
        Map<String, Integer> categoricalIndex = new HashMap<>();
        CategoricalLikelihood categorical = null;
        if (!tables.isEmpty()) {
            categorical = categoricalLikelihood(model, tables, discriminant.labels(), alpha);
            for (int j = 0; j < tables.size(); j++) {
                categoricalIndex.put(tables.get(j).feature(), j);
            }
        }
        Map<String, Integer> index = new HashMap<>();
        List<String> features = model.features();
        for (int i = 0; i < features.size(); i++) {
            index.put(features.get(i), i);
        }
        List<Exclusion> byLabel = fitted.excluded().stream()
                .map(e -> new Exclusion(e.label(), abbreviate(e.reason(), MAX_EXCLUSION_REASON_CHARS)))
                .sorted(Comparator.comparing(Exclusion::label)).toList();
        UnscoredReason.NoScorableClass unscorable = discriminant.labels().isEmpty()
                ? new UnscoredReason.NoScorableClass(model.version(), byLabel) : null;
        Map<String, String> excluded = new LinkedHashMap<>();
        byLabel.stream().limit(listed).forEach(e -> excluded.put(e.label(), e.reason()));
        Integer otherExcluded = byLabel.size() > listed ? byLabel.size() - listed : null;
        return new CompiledModel(model.modelId(), model.version(), Map.copyOf(index), Map.copyOf(categoricalIndex),
                categorical, discriminant, unscorable, Collections.unmodifiableMap(excluded), otherExcluded, listed);
    }

    /**
     * The categorical part for the scored classes {@code labels}, in their order. V_j is the size of the model's
     * vocabulary of feature j, which counts the values of every class, scored or not ("any class").
     */
    private static CategoricalLikelihood categoricalLikelihood(ModelParameters model, List<CategoricalTable> tables,
                                                               List<String> labels, double alpha) {
        Map<String, Integer> classIndex = new HashMap<>();
        for (int k = 0; k < model.classes().size(); k++) {
            classIndex.put(model.classes().get(k).label(), k);
        }
        long[][][] counts = new long[labels.size()][tables.size()][];
        for (int k = 0; k < labels.size(); k++) {
            int modelClass = classIndex.get(labels.get(k));
            for (int j = 0; j < tables.size(); j++) {
                counts[k][j] = tables.get(j).counts().get(modelClass);
            }
        }
        return CategoricalLikelihood.of(tables.stream().map(CategoricalTable::feature).toList(),
                tables.stream().map(CategoricalTable::values).toList(), counts, alpha);
    }

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }

    String modelId() {
        return modelId;
    }

    long version() {
        return version;
    }

    /**
     * Scores one event: features absent from the event are marginalised out; a feature the model does not know
     * makes the event unscored (it is more likely a schema mismatch than something safe to ignore). Scored answers
     * and the "no scorable class" answer list the excluded classes; the other unscored answers name the model by
     * id and version only.
     */
    ScoringOutcome.Answer score(String id, Map<String, Double> features, OptionalDouble outlierThreshold) {
        return score(id, features, Map.of(), outlierThreshold);
    }

    /**
     * As {@link #score(String, Map, OptionalDouble)} with the event's categorical values: each adds
     * log θ_kj(value) to class k's log-likelihood; a value the model never saw is treated as missing and named in
     * the prediction's {@code unseenValues}. A categorical value for a feature the model has as continuous, or a
     * number for one it has as categorical, makes the event invalid (the scorer's and the trainer's
     * {@code gda.categorical.features} disagree).
     */
    ScoringOutcome.Answer score(String id, Map<String, Double> features, Map<String, String> categories,
                                OptionalDouble outlierThreshold) {
        if (unscorable != null) {
            return new ScoringOutcome.Unscored(id, unscorable,
                    new ScoringOutcome.ModelStamp(modelId, version, excluded, otherExcluded));
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
        double[] added = null;
        Map<String, String> unseen = null;
        if (!categories.isEmpty() || categorical != null) {
            for (Map.Entry<String, Double> feature : features.entrySet()) {
                if (categoricalIndex.containsKey(feature.getKey())) {
                    return typeMismatch(id, feature.getKey(), "categorical in the model but the event gives a number");
                }
            }
            int[] values = new int[categoricalIndex.size()];
            Arrays.fill(values, -1);
            for (Map.Entry<String, String> value : categories.entrySet()) {
                Integer j = categoricalIndex.get(value.getKey());
                if (j == null) {
                    if (featureIndex.containsKey(value.getKey())) {
                        return typeMismatch(id, value.getKey(), "continuous in the model but the event gives a"
                                + " category (gda.categorical.features)");
                    }
                    if (unknown == null) {
                        unknown = new ArrayList<>();
                    }
                    unknown.add(value.getKey());
                    continue;
                }
                values[j] = categorical.valueIndex(j, value.getValue());
                if (values[j] < 0) {
                    if (unseen == null) {
                        unseen = new LinkedHashMap<>();
                    }
                    if (unseen.size() < MAX_UNSEEN_LISTED) {
                        unseen.put(value.getKey(), value.getValue());
                    }
                }
            }
            if (categorical != null) {
                added = new double[labels.size()];
                categorical.addTo(values, added);
            }
        }
        if (unknown != null) {
            return new ScoringOutcome.Unscored(id, new UnscoredReason.UnknownFeatures(unknown),
                    ScoringOutcome.ModelStamp.of(this));
        }
        Posterior posterior = discriminant.score(x, added);
        if (!Double.isFinite(posterior.logDensity())) {
            return new ScoringOutcome.Unscored(id, new UnscoredReason.NonFiniteDensity(posterior.logDensity()),
                    ScoringOutcome.ModelStamp.of(this));
        }
        TopClasses top = TopClasses.of(labels, posterior.probabilities(), listed);
        Boolean outlier = outlierThreshold.isPresent() ? posterior.logDensity() < outlierThreshold.getAsDouble()
                : null;
        return new ScoringOutcome.Scored(Prediction.scored(id, labels.get(posterior.predicted()), top.probabilities(),
                top.otherProbability(), top.otherClasses(), posterior.logDensity(), modelId, version, outlier,
                excluded, otherExcluded, unseen));
    }

    private ScoringOutcome.Answer typeMismatch(String id, String feature, String what) {
        return new ScoringOutcome.Unscored(id, new UnscoredReason.InvalidEvent("feature '"
                + (feature.length() <= UnscoredReason.MAX_NAME_CHARS ? feature
                        : feature.substring(0, UnscoredReason.MAX_NAME_CHARS - 3) + "...")
                + "' is " + what), ScoringOutcome.ModelStamp.of(this));
    }
}
