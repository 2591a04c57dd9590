package io.gdastreams.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The one output per unlabelled event on the predictions topic (same key as the input). Two shapes, told apart
 * by {@code status}; fields that do not apply to a shape are left out of the JSON (never written as null). The JSON
 * mapping is the serde package's ({@code serde/PredictionJson}): this record knows nothing of Jackson. Adding a
 * field: docs/ARCHITECTURE.md, "Where to change what". This file is longer than most on purpose: its Javadoc is the
 * reference of the prediction format, one entry per field; the code is the record, its checks and its withers.
 *
 * <p>Scored:
 * <pre>{@code
 * {"status": "scored", "id": "row-17", "label": "virginica",
 *  "probabilities": {"setosa": 1.2e-30, "versicolor": 0.03, "virginica": 0.97},
 *  "logDensity": -3.21, "modelId": "iris", "modelVersion": 42, "outlier": false}
 * }</pre>
 * {@code probabilities} holds p(y=k | x) for the classes that took part in scoring (classes below the scorer's
 * minimum count are left out), in model order, at most the scorer's {@code gda.output.top-k} most probable ones
 * (every class up to 256 by default); when some are not listed, {@code otherProbability} is their total mass and
 * {@code otherClasses} their number (the listed probabilities plus {@code otherProbability} sum to 1), so that a
 * model of thousands of classes still yields a prediction well inside a broker record.
 * {@code logDensity} is log p(x) over the observed features;
 * {@code outlier} is present only when the scorer has an outlier threshold (then it is
 * {@code logDensity < threshold}), or a threshold in probability (below).
 *
 * <p>Unscored:
 * <pre>{@code
 * {"status": "unscored", "id": "row-18", "reason": "unknown feature(s): colour",
 *  "modelId": "iris", "modelVersion": 42}
 * }</pre>
 * <p>Both shapes carry {@code excluded} (label → reason) when the model in force has classes that this scorer
 * leaves out under its fit options (too few observations, a covariance that stays singular): the reader of a
 * prediction sees that "gamma" is missing from {@code probabilities} and why, e.g.
 * {@code "excluded": {"gamma": "count 1 below minimum 2"}}. Absent when every class takes part. It lists at most
 * as many classes as {@code probabilities} may (the first by label, in label order) and {@code otherExcluded}
 * counts the rest.
 *
 * <p>Imputation and explanations (scored only; README, "The math"): an event with missing features carries
 * {@code imputed}, feature → E[x_j | x_O], the mean of the fitted mixture given the observed features O:
 * Σ_k p(k | x_O) (μ_kj + Σ_k,jO Σ_k,OO⁻¹ (x_O − μ_k,O)) with the scorer's covariance type and regularisation (for
 * {@code diag} simply Σ_k p(k | x_O) μ_kj), unless {@code gda.output.imputed=false}. It lists the first missing
 * features in model order, at most 256 and 4096 characters of names in all; {@code otherImputed} counts the rest.
 * Categorical features are imputed apart, as text, in {@code imputedCategories}: feature → the value
 * argmax_v Σ_k p(k | x_O) θ_kv (θ the scorer's smoothed table; ties, within 2^-36 relative for the sums'
 * rounding, to the first value of the model's vocabulary, in String order), e.g.
 * {@code "imputed": {"income": 33516.9}, "imputedCategories": {"student": "No"}}; p(k | x_O) there, and in the
 * conditional means above, is the posterior of everything observed, continuous and categorical. A categorical
 * value the model never saw counts as missing: it is named in {@code unseenValues} and imputed. At most 8 are
 * listed (model order); {@code otherImputedCategories} counts the rest.
 * With {@code gda.output.explain=true}:
 * <pre>{@code
 * "tailProbability": 0.93,
 * "explanation": {"observedFeatures": 3, "classes": {
 *     "versicolor": {"logPrior": -1.0986, "logLikelihood": -4.10, "squaredMahalanobis": 1.2},
 *     "virginica":  {"logPrior": -1.0986, "logLikelihood": -0.92, "squaredMahalanobis": 0.4}}}
 * }</pre>
 * Every term is over the observed features O (|O| = {@code observedFeatures}): {@code logLikelihood} is
 * log p(x | k) = log N(x_O; μ_k,O, Σ_k,OO), {@code squaredMahalanobis} D²_k = (x_O − μ_k,O)ᵀ Σ_k,OO⁻¹ (x_O − μ_k,O),
 * {@code logPrior} log π_k; so log p(k | x) = logPrior + logLikelihood − logDensity. The classes are those listed in
 * {@code probabilities}, at most the 32 most probable of them. {@code tailProbability} is P(χ²_|O| ≥ min_k D²_k)
 * over every scored class: under the class the event came from D² ~ χ²(|O|), so it is below p for at most a
 * fraction p of the events the model describes. It is present with the explanation, and whenever
 * {@code gda.outlier.p} is set; {@code outlier} is then {@code tailProbability < p}, or-ed with
 * {@code logDensity < gda.outlier.threshold} when that is set too.
 *
 * {@code reason} says why (no model yet and no room to hold the event, unknown feature names, malformed input,
 * ...);
 * {@code modelId}/{@code modelVersion} are present when a model was in force. {@code id} is the event's id,
 * else the record key (UTF-8), and absent when there is neither (or the input could not be read).
 *
 * @param status        scored or unscored
 * @param id            event id, else the record key; may be null
 * @param label         most probable class (scored only)
 * @param probabilities posterior per listed class (scored only)
 * @param otherProbability total posterior of the scored classes not listed; null when every one is listed
 * @param otherClasses  how many scored classes are not listed; null when every one is listed
 * @param logDensity    log p(x) (scored only)
 * @param modelId       model in force, if any
 * @param modelVersion  version of the model in force, if any
 * @param outlier       logDensity below the configured threshold, or tailProbability below gda.outlier.p, or
 *                      either when both are set (scored and a threshold configured only)
 * @param reason        why the event was not scored (unscored only)
 * @param excluded      classes of the model left out of scoring, with the reason; null when there are none
 * @param otherExcluded how many more classes are left out than {@code excluded} lists; null when it lists all
 * @param imputed       missing feature → its conditional mean (scored, with missing features); null otherwise
 * @param otherImputed  how many missing features {@code imputed} does not list; null when it lists them all
 * @param tailProbability P(χ²_|O| ≥ min_k D²_k) (scored, with explanations or {@code gda.outlier.p}); else null
 * @param explanation   the per-class terms of the posterior (scored, with explanations); else null
 * @param decision      the decision rule that chose {@code label} when it is not the plain argmax
 *                      ({@code gda.decision.threshold}: "threshold Yes:0.2"; {@code gda.decision.costs}: "minimum
 *                      expected cost"); absent under the default (scored only)
 * @param expectedCost  Σ_k p(k | x)·C(k → label) of the chosen label under {@code gda.decision.costs} (scored only)
 * @param unseenValues  categorical feature → the event's value of it that the model never saw, which was treated as
 *                      missing (marginalised), e.g. {@code "unseenValues": {"student": "Maybe"}}; null when there is
 *                      none (scored only; at most a bounded number of entries, see the scorer)
 * @param imputedCategories categorical feature → its most probable value given the observed features, for each
 *                      categorical feature the event lacks or gives a value the model never saw (scored, with
 *                      {@code gda.output.imputed}); null when none is missing. At most 8, the first in model order
 * @param otherImputedCategories how many missing categorical features {@code imputedCategories} does not list; null
 *                      when it lists them all
 */
public record Prediction(Status status, String id, String label, Map<String, Double> probabilities,
                         Double otherProbability, Integer otherClasses, Double logDensity, String modelId,
                         Long modelVersion, Boolean outlier, String reason, Map<String, String> excluded,
                         Integer otherExcluded, Map<String, Double> imputed, Integer otherImputed,
                         Double tailProbability, Explanation explanation, String decision, Double expectedCost,
                         Map<String, String> unseenValues, Map<String, String> imputedCategories,
                         Integer otherImputedCategories) {

    /** The two shapes of a prediction record. */
    public enum Status {
        SCORED,
        UNSCORED
    }

    /**
     * Why the listed classes got their probabilities, over the observed features.
     *
     * @param observedFeatures |O|, the degrees of freedom of each D²
     * @param classes          label → terms, for the listed classes (at most 32), in model order
     */
    public record Explanation(int observedFeatures, Map<String, ClassTerms> classes) {
        public Explanation {
            Objects.requireNonNull(classes, "classes");
            classes = Collections.unmodifiableMap(new LinkedHashMap<>(classes));
        }
    }

    /**
     * The terms of one class: log p(k | x) = logPrior + logLikelihood − logDensity.
     *
     * @param logPrior           log π_k
     * @param logLikelihood      log p(x | k), the Gaussian log-density of the observed features
     * @param squaredMahalanobis D²_k over the observed features
     */
    public record ClassTerms(double logPrior, double logLikelihood, double squaredMahalanobis) {
    }

    public Prediction {
        Objects.requireNonNull(status, "status");
        if (status == Status.SCORED) {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(probabilities, "probabilities");
            Objects.requireNonNull(logDensity, "logDensity");
            probabilities = Collections.unmodifiableMap(new LinkedHashMap<>(probabilities));
        } else {
            Objects.requireNonNull(reason, "reason");
        }
        if ((otherProbability == null) != (otherClasses == null)
                || (otherClasses != null && (status != Status.SCORED || otherClasses < 1))) {
            throw new IllegalArgumentException("otherProbability and otherClasses (>= 1) go together, on a scored"
                    + " prediction only");
        }
        excluded = excluded == null || excluded.isEmpty() ? null
                : Collections.unmodifiableMap(new LinkedHashMap<>(excluded));
        if (otherExcluded != null && (excluded == null || otherExcluded < 1)) {
            throw new IllegalArgumentException("otherExcluded (>= 1) needs a listed excluded map");
        }
        imputed = imputed == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(imputed));
        unseenValues = unseenValues == null || unseenValues.isEmpty() ? null
                : Collections.unmodifiableMap(new LinkedHashMap<>(unseenValues));
        if (otherImputed != null && (imputed == null || otherImputed < 1)) {
            throw new IllegalArgumentException("otherImputed (>= 1) needs a listed imputed map");
        }
        imputedCategories = imputedCategories == null || imputedCategories.isEmpty() ? null
                : Collections.unmodifiableMap(new LinkedHashMap<>(imputedCategories));
        if (status != Status.SCORED && (imputed != null || tailProbability != null || explanation != null
                || decision != null || expectedCost != null || unseenValues != null || imputedCategories != null)) {
            throw new IllegalArgumentException("imputed, tailProbability, explanation, decision, expectedCost,"
                    + " unseenValues and imputedCategories go on a scored prediction");
        }
        if (otherImputedCategories != null && (imputedCategories == null || otherImputedCategories < 1)) {
            throw new IllegalArgumentException("otherImputedCategories (>= 1) needs a listed imputedCategories map");
        }
    }

    /**
     * This scored prediction with {@code imputed} (copied; null: none) and {@code otherImputed} (null when it lists
     * every missing feature).
     */
    public Prediction withImputed(Map<String, Double> imputed, Integer otherImputed) {
        return with(c -> {
            c.imputed = imputed;
            c.otherImputed = otherImputed;
        });
    }

    /** This scored prediction with a tail probability (null: none). */
    public Prediction withTailProbability(Double tailProbability) {
        return with(c -> c.tailProbability = tailProbability);
    }

    /** This scored prediction, stating the rule that chose its label and its expected cost (either may be null). */
    public Prediction withDecision(String rule, Double cost) {
        if (Objects.equals(rule, decision) && Objects.equals(cost, expectedCost)) {
            return this; // the default rule: every scored event passes here, and a copy copies every map
        }
        return with(c -> {
            c.decision = rule;
            c.expectedCost = cost;
        });
    }

    /** This scored prediction naming the categorical values the model never saw (copied; null or empty: none). */
    public Prediction withUnseenValues(Map<String, String> unseen) {
        if ((unseen == null || unseen.isEmpty()) && unseenValues == null) {
            return this;
        }
        return with(c -> c.unseenValues = unseen);
    }

    /**
     * This scored prediction with the imputed categorical values (copied; null or empty: none) and how many missing
     * categorical features they do not list (null: none).
     */
    public Prediction withImputedCategories(Map<String, String> imputed, Integer others) {
        return with(c -> {
            c.imputedCategories = imputed;
            c.otherImputedCategories = others;
        });
    }

    /** This scored prediction with an explanation (null: none). */
    public Prediction withExplanation(Explanation explanation) {
        return with(c -> c.explanation = explanation);
    }

    /** A copy with some fields changed: the withers go through here, so a new field is added in two places only. */
    private Prediction with(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The components, mutable for {@link #with}; the canonical constructor validates the result again. */
    private static final class Copy {
        Status status;
        String id;
        String label;
        Map<String, Double> probabilities;
        Double otherProbability;
        Integer otherClasses;
        Double logDensity;
        String modelId;
        Long modelVersion;
        Boolean outlier;
        String reason;
        Map<String, String> excluded;
        Integer otherExcluded;
        Map<String, Double> imputed;
        Integer otherImputed;
        Double tailProbability;
        Explanation explanation;
        String decision;
        Double expectedCost;
        Map<String, String> unseenValues;
        Map<String, String> imputedCategories;
        Integer otherImputedCategories;

        Copy(Prediction p) {
            status = p.status;
            id = p.id;
            label = p.label;
            probabilities = p.probabilities;
            otherProbability = p.otherProbability;
            otherClasses = p.otherClasses;
            logDensity = p.logDensity;
            modelId = p.modelId;
            modelVersion = p.modelVersion;
            outlier = p.outlier;
            reason = p.reason;
            excluded = p.excluded;
            otherExcluded = p.otherExcluded;
            imputed = p.imputed;
            otherImputed = p.otherImputed;
            tailProbability = p.tailProbability;
            explanation = p.explanation;
            decision = p.decision;
            expectedCost = p.expectedCost;
            unseenValues = p.unseenValues;
            imputedCategories = p.imputedCategories;
            otherImputedCategories = p.otherImputedCategories;
        }

        Prediction build() {
            return new Prediction(status, id, label, probabilities, otherProbability, otherClasses, logDensity,
                    modelId, modelVersion, outlier, reason, excluded, otherExcluded, imputed, otherImputed,
                    tailProbability, explanation, decision, expectedCost, unseenValues, imputedCategories,
                    otherImputedCategories);
        }
    }

    /** A scored event. {@code probabilities}: copied, iteration order kept. */
    public static Prediction scored(String id, String label, Map<String, Double> probabilities, double logDensity,
                                    String modelId, long modelVersion, Boolean outlier) {
        return scored(id, label, probabilities, logDensity, modelId, modelVersion, outlier, null);
    }

    /** A scored event under a model some of whose classes were left out ({@code excluded}: copied; may be null). */
    public static Prediction scored(String id, String label, Map<String, Double> probabilities, double logDensity,
                                    String modelId, long modelVersion, Boolean outlier,
                                    Map<String, String> excluded) {
        return new Prediction(Status.SCORED, id, label, probabilities, null, null, logDensity, modelId,
                modelVersion, outlier, null, excluded, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * A scored event whose lists are bounded: {@code otherProbability}/{@code otherClasses} summarise the scored
     * classes not in {@code probabilities}, {@code otherExcluded} the excluded ones not in {@code excluded}
     * (each null when nothing is left out).
     */
    public static Prediction scored(String id, String label, Map<String, Double> probabilities,
                                    Double otherProbability, Integer otherClasses, double logDensity,
                                    String modelId, long modelVersion, Boolean outlier,
                                    Map<String, String> excluded, Integer otherExcluded) {
        return new Prediction(Status.SCORED, id, label, probabilities, otherProbability, otherClasses, logDensity,
                modelId, modelVersion, outlier, null, excluded, otherExcluded, null, null, null, null, null, null, null,
                null, null);
    }

    /** An event that could not be scored; {@code modelId}/{@code modelVersion} null when no model was in force. */
    public static Prediction unscored(String id, String reason, String modelId, Long modelVersion) {
        return unscored(id, reason, modelId, modelVersion, null);
    }

    /** As {@link #unscored(String, String, String, Long)}, naming the classes the scorer left out. */
    public static Prediction unscored(String id, String reason, String modelId, Long modelVersion,
                                      Map<String, String> excluded) {
        return unscored(id, reason, modelId, modelVersion, excluded, null);
    }

    /** As above, with {@code otherExcluded} more excluded classes than {@code excluded} lists (null: none). */
    public static Prediction unscored(String id, String reason, String modelId, Long modelVersion,
                                      Map<String, String> excluded, Integer otherExcluded) {
        return new Prediction(Status.UNSCORED, id, null, null, null, null, null, modelId, modelVersion, null, reason,
                excluded, otherExcluded, null, null, null, null, null, null, null, null, null);
    }
}
