package io.gdastreams.topology;

import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.Evidence;
import io.gdastreams.math.Exclusion;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.Posterior;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.PosteriorWriter;
import io.gdastreams.serde.UnicodeText;
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

    private final String modelId;
    private final long version;
    private final Map<String, Integer> featureIndex;
    /** The categorical part; {@link CompiledCategories#NONE} for a Gaussian model. */
    private final CompiledCategories categories;
    /** The model's feature names, in model order (the names of the imputed map). */
    private final List<String> featureNames;
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
    /** The scorer's decision rule, bound to this model's scored classes. */
    private final DecisionRule.Bound decision;
    /**
     * The encoded constants of this version's common scored predictions ({@link ScoringOutcome.ScoredPosterior});
     * null when its predictions never take that shape (no scorable class, fewer classes listed than scored, or a
     * decision rule other than the argmax, which a prediction states).
     */
    private final PosteriorWriter.Template template;
    /** The model by id and version, as unscored answers name it (one per version rather than one per event). */
    private final ScoringOutcome.ModelStamp stamp;

    private CompiledModel(String modelId, long version, Map<String, Integer> featureIndex,
                          List<String> featureNames, CompiledCategories categories, Discriminant discriminant,
                          UnscoredReason.NoScorableClass unscorable, Map<String, String> excluded,
                          Integer otherExcluded, int listed, DecisionRule.Bound decision) {
        this.modelId = modelId;
        this.version = version;
        this.featureIndex = featureIndex;
        this.featureNames = featureNames;
        this.categories = categories;
        this.discriminant = discriminant;
        this.labels = List.copyOf(discriminant.labels());
        this.unscorable = unscorable;
        this.excluded = excluded;
        this.otherExcluded = otherExcluded;
        this.listed = listed;
        this.decision = decision;
        this.template = labels.isEmpty() || listed < labels.size() || decision.rule() != null ? null
                : new PosteriorWriter.Template(labels, modelId, version, excluded, otherExcluded);
        this.stamp = new ScoringOutcome.ModelStamp(modelId, version, null, null);
    }

    /**
     * Fits and compiles {@code model} (not modified); its predictions list at most {@code listed} (≥ 1) classes and
     * choose their label by {@code rule}; its category tables (if any) are smoothed with {@code alpha}
     * ({@code gda.categorical.alpha}). Throws IllegalArgumentException when the model is malformed.
     */
    static CompiledModel compile(ModelParameters model, FitOptions options, int listed, DecisionRule rule,
                                 double alpha) {
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
        UnscoredReason.NoScorableClass unscorable = discriminant.labels().isEmpty()
                ? new UnscoredReason.NoScorableClass(model.version(), byLabel) : null;
        Map<String, String> excluded = new LinkedHashMap<>();
        byLabel.stream().limit(listed).forEach(e -> excluded.put(e.label(), e.reason()));
        Integer otherExcluded = byLabel.size() > listed ? byLabel.size() - listed : null;
        return new CompiledModel(model.modelId(), model.version(), Map.copyOf(index), List.copyOf(features),
                CompiledCategories.of(model, discriminant.labels(), alpha), discriminant, unscorable,
                Collections.unmodifiableMap(excluded), otherExcluded, listed, rule.bind(discriminant.labels()));
    }

    private static String abbreviate(String text, int max) {
        return UnicodeText.cut(text, max);
    }

    String modelId() {
        return modelId;
    }

    long version() {
        return version;
    }

    /** This model by id and version ({@link ScoringOutcome.ModelStamp#of(CompiledModel)}). */
    ScoringOutcome.ModelStamp stamp() {
        return stamp;
    }

    /**
     * Why this model scores no event (every class is excluded under the scorer's fit options), or null when it
     * scores.
     */
    UnscoredReason.NoScorableClass unscorable() {
        return unscorable;
    }

    /** Whether this model scores events: a class at least is not excluded. */
    boolean canScore() {
        return unscorable == null;
    }

    /**
     * This model by id and version with its excluded classes: the stamp of answers that say why it did not score.
     */
    ScoringOutcome.ModelStamp stampWithExclusions() {
        return new ScoringOutcome.ModelStamp(modelId, version, excluded, otherExcluded);
    }

    /** The scored classes, in the order of {@link #posterior}'s probabilities. */
    List<String> labels() {
        return labels;
    }

    /** The index of the label the scorer's decision rule chooses from the posterior {@code p}. */
    int decide(double[] p) {
        return decision.choose(p);
    }

    /**
     * The full posterior over {@link #labels()} of one event, as {@link #score} computes it (missing features
     * marginalised, categorical factors added), for test-then-train evaluation; null when {@link #score} would
     * not score it (no scorable class, an unknown feature or categorical mismatch, a non-finite density).
     */
    double[] posterior(Map<String, Double> features, Map<String, String> categories) {
        if (unscorable != null) {
            return null;
        }
        double[] x = new double[featureIndex.size()];
        Arrays.fill(x, Double.NaN);
        for (Map.Entry<String, Double> feature : features.entrySet()) {
            Integer i = featureIndex.get(feature.getKey());
            if (i == null) {
                return null;
            }
            x[i] = feature.getValue();
        }
        CompiledCategories.Resolution resolved = this.categories.resolve(features.keySet(), categories,
                featureIndex.keySet(), labels.size());
        if (resolved.mismatch() != null || resolved.unknown() != null) {
            return null;
        }
        double[] p = new double[labels.size()];
        return Double.isFinite(discriminant.score(x, resolved.added(), p)) ? p : null;
    }

    /**
     * As {@link #posterior(Map, Map)} for an event already read into {@code x} in {@link #features()} order, every
     * feature observed and no categorical value, under a model without a categorical part: the same numbers (the
     * map form builds this very {@code x} and adds no categorical factor), for the trainer's test-then-train fast
     * path, which resolves the feature order once per model. Writes the posterior into {@code p} (length
     * {@code labels().size()}) and returns it, or returns null where the map form does. {@code x} is read, not kept.
     */
    double[] posterior(double[] x, double[] p) {
        if (hasCategories() || x.length != featureNames.size()) {
            throw new IllegalArgumentException("a point of " + featureNames.size() + " features, for a model without"
                    + " categorical features");
        }
        if (unscorable != null) {
            return null;
        }
        return Double.isFinite(discriminant.score(x, null, p)) ? p : null;
    }

    /**
     * Scores one event: features absent from the event are marginalised out; a feature the model does not know
     * makes the event unscored (it is more likely a schema mismatch than something safe to ignore). Scored answers
     * and the "no scorable class" answer list the excluded classes; the other unscored answers name the model by
     * id and version only. {@code categories}: the event's categorical values; each adds log θ_kj(value) to class
     * k's log-likelihood, a value the model never saw is treated as missing and named in {@code unseenValues}, and
     * a feature given as the wrong kind makes the event invalid (the scorer's and the trainer's
     * {@code gda.categorical.features} disagree). {@code extras}: what a scored answer carries beyond the posterior
     * (imputed values, explanation, tail probability); the outlier flag is {@link PredictionDetails#outlier}.
     */
    ScoringOutcome.Answer score(String id, Map<String, Double> features, Map<String, String> categories,
                                OptionalDouble outlierThreshold, PredictionExtras extras) {
        if (unscorable != null) {
            return new ScoringOutcome.Unscored(id, unscorable, stampWithExclusions());
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
        CompiledCategories.Resolution resolved = this.categories.resolve(features.keySet(), categories,
                featureIndex.keySet(), labels.size());
        if (resolved.mismatch() != null) {
            String feature = resolved.mismatch()[0];
            return new ScoringOutcome.Unscored(id, new UnscoredReason.InvalidEvent("feature '"
                    + UnicodeText.cut(feature, UnscoredReason.MAX_NAME_CHARS)
                    + "' is " + resolved.mismatch()[1]), ScoringOutcome.ModelStamp.of(this));
        }
        if (resolved.unknown() != null) {
            unknown = unknown == null ? new ArrayList<>() : unknown;
            unknown.addAll(resolved.unknown());
        }
        if (unknown != null) {
            return new ScoringOutcome.Unscored(id, new UnscoredReason.UnknownFeatures(unknown),
                    ScoringOutcome.ModelStamp.of(this));
        }
        return scoreResolved(id, x, features.size(), resolved, outlierThreshold, extras);
    }

    /** The continuous feature names in model order: the layout {@link #score(String, double[], int,
     * OptionalDouble, PredictionExtras)} takes its point in. */
    List<String> features() {
        return featureNames;
    }

    /** Whether the model has a categorical part (then only the map form of {@link #score} applies). */
    boolean hasCategories() {
        return categories != CompiledCategories.NONE;
    }

    /**
     * As {@link #score(String, Map, Map, OptionalDouble, PredictionExtras)} for an event already read into
     * {@code x}, in {@link #features()} order (NaN: missing; {@code observed} values are not), with no categorical
     * value, under a model without a categorical part: the scorer's fast path, which resolves feature names once per
     * model rather than per event. {@code x} is read, not kept.
     */
    ScoringOutcome.Answer score(String id, double[] x, int observed, OptionalDouble outlierThreshold,
                                PredictionExtras extras) {
        if (hasCategories() || x.length != featureNames.size()) {
            throw new IllegalArgumentException("a point of " + featureNames.size() + " features, for a model without"
                    + " categorical features");
        }
        if (unscorable != null) {
            return new ScoringOutcome.Unscored(id, unscorable, stampWithExclusions());
        }
        if (template != null && !extras.needsDistances() && !(extras.imputed() && observed < x.length)) {
            // The common shape: the posterior goes out as computed, the same numbers as scoreResolved's.
            double[] p = new double[labels.size()];
            double logDensity = discriminant.score(x, null, p);
            if (!Double.isFinite(logDensity)) {
                return new ScoringOutcome.Unscored(id, new UnscoredReason.NonFiniteDensity(logDensity),
                        ScoringOutcome.ModelStamp.of(this));
            }
            return new ScoringOutcome.ScoredPosterior(id, template, decision.choose(p), p, logDensity,
                    PredictionDetails.outlier(logDensity, outlierThreshold, null, extras.outlierP()));
        }
        return scoreResolved(id, x, observed, NO_CATEGORIES, outlierThreshold, extras);
    }

    /** What {@link CompiledCategories#resolve} says of an event without categorical values under a Gaussian model. */
    private static final CompiledCategories.Resolution NO_CATEGORIES =
            new CompiledCategories.Resolution(null, null, null, null, null);

    /** Scores {@code x} ({@code observed} values not NaN) with its categorical part {@code resolved}. */
    private ScoringOutcome.Answer scoreResolved(String id, double[] x, int observed,
                                                CompiledCategories.Resolution resolved,
                                                OptionalDouble outlierThreshold, PredictionExtras extras) {
        double[] added = resolved.added();
        Evidence evidence = extras.needsDistances() ? discriminant.explain(x, added) : null;
        Posterior posterior = evidence != null ? evidence.posterior() : discriminant.score(x, added);
        if (!Double.isFinite(posterior.logDensity())) {
            return new ScoringOutcome.Unscored(id, new UnscoredReason.NonFiniteDensity(posterior.logDensity()),
                    ScoringOutcome.ModelStamp.of(this));
        }
        double[] p = posterior.probabilities();
        int chosen = decision.choose(p);
        TopClasses top = TopClasses.of(labels, p, listed, chosen);
        Double tail = evidence != null ? evidence.tailProbability() : null;
        Boolean outlier = PredictionDetails.outlier(posterior.logDensity(), outlierThreshold, tail, extras.outlierP());
        Prediction prediction = Prediction.scored(id, labels.get(chosen), top.probabilities(),
                top.otherProbability(), top.otherClasses(), posterior.logDensity(), modelId, version, outlier,
                excluded, otherExcluded).withDecision(decision.rule(), decision.expectedCost(p, chosen))
                .withUnseenValues(resolved.unseen());
        // Every feature of the event is known here (and null ones were dropped): fewer than d means some are missing.
        if (extras.imputed() && observed < x.length) {
            prediction = PredictionDetails.withImputed(prediction, featureNames, x,
                    discriminant.impute(x, posterior));
        }
        // A categorical feature absent from the event, or of a value the model never saw (both marginalised above),
        // gets its most probable value under the same posterior, which holds every observed value of either kind.
        if (extras.imputed() && resolved.anyMissing()) {
            CompiledCategories.Imputed imputed = this.categories.impute(resolved.values(), p);
            prediction = prediction.withImputedCategories(imputed.values(), imputed.others());
        }
        if (tail != null) {
            prediction = prediction.withTailProbability(tail);
        }
        if (extras.explain()) {
            // The explained classes are the most probable of the listed ones: the same ranking, cut shorter, the
            // predicted class first among them as among the listed (a decision rule may pick one outside the top).
            int explained = Math.min(listed, PredictionDetails.MAX_EXPLAINED_CLASSES);
            prediction = prediction.withExplanation(PredictionDetails.explanation(labels, evidence,
                    TopClasses.of(labels, posterior.probabilities(), explained, chosen).probabilities().keySet()));
        }
        return new ScoringOutcome.Scored(prediction);
    }
}
