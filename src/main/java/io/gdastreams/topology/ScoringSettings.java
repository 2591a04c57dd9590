package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.config.ValueType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * Everything the scoring topology needs, filled from configuration by the application layer ({@link #from}). The
 * defaults are those of the configuration keys ({@link ConfigKey}), read the same way as a configuration.
 *
 * <p>The covariance type, estimator, shrinkage, variance floor and minimum count ({@code fitOptions}) belong to
 * the scorer, not to the model: the model topic carries counts, means and MLE covariances, from which every
 * variant is derived, so one model topic serves a QDA, an LDA and a naive Bayes scorer side by side.
 *
 * @param topics               topic names (reads unlabelled and model, writes predictions and dead-letters)
 * @param modelId              the key of the model to score with on the model topic
 * @param fitOptions           how the model's statistics are turned into a classifier
 * @param outlierThreshold     when present, a scored event carries {@code outlier = logDensity < threshold}
 * @param maxPending           events held per task (input partition) while no model exists yet; 0 holds none
 * @param pendingCheckInterval how often (wall-clock) a task with held events checks whether a model arrived
 * @param maxFeatures          most features an event may carry ({@code gda.max.features}, the trainer's bound too);
 *                             a larger event is answered unscored and dead-lettered
 * @param outputTopK           classes a prediction lists ({@code gda.output.top-k}): the most probable ones, the
 *                             rest summarised; 0 = every class up to {@link #MAX_OUTPUT_TOP_K}. The excluded map
 *                             is bounded the same way
 * @param rejectOlderVersions  refuse a model whose version is lower than the one in force (see
 *                             {@link CompiledModelCache}); false puts the latest record in force whatever its version
 * @param extras               imputation, explanations and the probability outlier test ({@code gda.output.imputed},
 *                             {@code gda.output.explain}, {@code gda.outlier.p})
 * @param decisionRule         how the predicted label is chosen from the posteriors ({@code gda.decision.threshold},
 *                             {@code gda.decision.costs}; the most probable class by default)
 * @param categorical          the features decoded as text ({@code gda.categorical.features}) and the smoothing α
 * @param signing              the keys a model record must be signed with ({@code gda.model.signing.key});
 *                             {@link ModelSigning#NONE}: signatures are ignored, as before signing existed
 */
public record ScoringSettings(Topics topics, String modelId, FitOptions fitOptions, OptionalDouble outlierThreshold,
                              int maxPending, Duration pendingCheckInterval, int maxFeatures, int outputTopK,
                              boolean rejectOlderVersions, PredictionExtras extras,
                              DecisionRule decisionRule, CategoricalSettings categorical, ModelSigning signing) {

    /** {@code gda.pending.max}. */
    public static final int DEFAULT_MAX_PENDING = ConfigValues.DEFAULTS.intValue(ConfigKey.PENDING_MAX);
    public static final Duration DEFAULT_PENDING_CHECK_INTERVAL = Duration.ofSeconds(1);

    /** Most classes a prediction lists in {@code probabilities}, and in {@code excluded} (why: {@link ValueType}). */
    public static final int MAX_OUTPUT_TOP_K = ValueType.MAX_TOP_K;
    /** {@code gda.output.top-k}: list every class, up to {@link #MAX_OUTPUT_TOP_K}. */
    public static final int DEFAULT_OUTPUT_TOP_K = ConfigValues.DEFAULTS.intValue(ConfigKey.OUTPUT_TOP_K);

    public ScoringSettings {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(fitOptions, "fitOptions");
        Objects.requireNonNull(outlierThreshold, "outlierThreshold");
        Objects.requireNonNull(pendingCheckInterval, "pendingCheckInterval");
        Objects.requireNonNull(extras, "extras");
        Objects.requireNonNull(decisionRule, "decisionRule");
        Objects.requireNonNull(categorical, "categorical");
        Objects.requireNonNull(signing, "signing");
        if (modelId.isBlank()) {
            throw new IllegalArgumentException("modelId is blank");
        }
        if (outlierThreshold.isPresent() && Double.isNaN(outlierThreshold.getAsDouble())) {
            throw new IllegalArgumentException("outlierThreshold is NaN");
        }
        if (maxPending < 0) {
            throw new IllegalArgumentException("maxPending must be >= 0, got " + maxPending);
        }
        if (pendingCheckInterval.isNegative() || pendingCheckInterval.isZero()) {
            throw new IllegalArgumentException("pendingCheckInterval must be positive, got " + pendingCheckInterval);
        }
        if (maxFeatures < 1) {
            throw new IllegalArgumentException("maxFeatures must be >= 1, got " + maxFeatures);
        }
        Objects.requireNonNull(categorical, "categorical");
        if (outputTopK < 0 || outputTopK > MAX_OUTPUT_TOP_K) {
            throw new IllegalArgumentException("outputTopK must be in [0, " + MAX_OUTPUT_TOP_K + "], got "
                    + outputTopK);
        }
    }

    /** The settings of a scorer that verifies no signature. */
    public ScoringSettings(Topics topics, String modelId, FitOptions fitOptions, OptionalDouble outlierThreshold,
                           int maxPending, Duration pendingCheckInterval, int maxFeatures, int outputTopK,
                           boolean rejectOlderVersions, PredictionExtras extras, DecisionRule decisionRule,
                           CategoricalSettings categorical) {
        this(topics, modelId, fitOptions, outlierThreshold, maxPending, pendingCheckInterval, maxFeatures, outputTopK,
                rejectOlderVersions, extras, decisionRule, categorical, ModelSigning.NONE);
    }

    /** The settings with the default feature bound and output listing, older model versions rejected. */
    public ScoringSettings(Topics topics, String modelId, FitOptions fitOptions, OptionalDouble outlierThreshold,
                           int maxPending, Duration pendingCheckInterval) {
        this(topics, modelId, fitOptions, outlierThreshold, maxPending, pendingCheckInterval,
                ConfigValues.DEFAULTS.intValue(ConfigKey.MAX_FEATURES), DEFAULT_OUTPUT_TOP_K,
                ConfigValues.DEFAULTS.booleanValue(ConfigKey.REJECT_OLDER_VERSIONS));
    }

    /**
     * The settings with the default {@link PredictionExtras}, decision rule (the most probable class) and no
     * categorical features.
     */
    public ScoringSettings(Topics topics, String modelId, FitOptions fitOptions, OptionalDouble outlierThreshold,
                           int maxPending, Duration pendingCheckInterval, int maxFeatures, int outputTopK,
                           boolean rejectOlderVersions) {
        this(topics, modelId, fitOptions, outlierThreshold, maxPending, pendingCheckInterval, maxFeatures, outputTopK,
                rejectOlderVersions, PredictionExtras.DEFAULTS, ConfigValues.DEFAULTS.decisionRule(),
                CategoricalSettings.NONE);
    }

    /** The settings a configuration gives, on {@code topics} (from the same configuration, or a run's own). */
    public static ScoringSettings from(ConfigValues config, Topics topics) {
        return new ScoringSettings(topics, config.string(ConfigKey.MODEL_ID), config.fitOptions(),
                config.optionalDouble(ConfigKey.OUTLIER_THRESHOLD), config.intValue(ConfigKey.PENDING_MAX),
                DEFAULT_PENDING_CHECK_INTERVAL, config.intValue(ConfigKey.MAX_FEATURES),
                config.intValue(ConfigKey.OUTPUT_TOP_K), config.booleanValue(ConfigKey.REJECT_OLDER_VERSIONS),
                PredictionExtras.from(config), config.decisionRule(),
                CategoricalSettings.from(config), ModelSigning.parse(config.signingKeys()));
    }

    /** How many classes a prediction lists at most (in {@code probabilities}, and in {@code excluded}). */
    public int listedClasses() {
        return outputTopK == 0 ? MAX_OUTPUT_TOP_K : outputTopK;
    }

    /**
     * What a run without configuration gets, for model {@code modelId}: default topics, QDA with MLE divisors, no
     * outlier flag, the default pending bound and check interval, older model versions rejected.
     */
    public static ScoringSettings defaults(String modelId) {
        return from(ConfigValues.DEFAULTS, Topics.defaults()).withModelId(modelId);
    }

    public ScoringSettings withModelId(String value) {
        return with(b -> b.modelId = value);
    }

    public ScoringSettings withTopics(Topics value) {
        return with(b -> b.topics = value);
    }

    public ScoringSettings withFitOptions(FitOptions value) {
        return with(b -> b.fitOptions = value);
    }

    public ScoringSettings withOutlierThreshold(double value) {
        return with(b -> b.outlierThreshold = OptionalDouble.of(value));
    }

    public ScoringSettings withMaxPending(int value) {
        return with(b -> b.maxPending = value);
    }

    public ScoringSettings withPendingCheckInterval(Duration value) {
        return with(b -> b.pendingCheckInterval = value);
    }

    public ScoringSettings withMaxFeatures(int value) {
        return with(b -> b.maxFeatures = value);
    }

    public ScoringSettings withOutputTopK(int value) {
        return with(b -> b.outputTopK = value);
    }

    public ScoringSettings withRejectOlderVersions(boolean value) {
        return with(b -> b.rejectOlderVersions = value);
    }

    public ScoringSettings withExtras(PredictionExtras value) {
        return with(b -> b.extras = value);
    }

    public ScoringSettings withDecisionRule(DecisionRule value) {
        return with(b -> b.decisionRule = value);
    }

    public ScoringSettings withCategorical(CategoricalSettings value) {
        return with(b -> b.categorical = value);
    }

    /** A copy that refuses model records not signed by one of {@code value}'s keys (NONE: verifies nothing). */
    public ScoringSettings withSigning(ModelSigning value) {
        return with(b -> b.signing = value);
    }

    /** A copy with one change: every wither goes through here, so a new field is added in two places only. */
    private ScoringSettings with(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The fields of a settings record, mutable for {@link #with}; validated again by the canonical constructor. */
    private static final class Copy {
        Topics topics;
        String modelId;
        FitOptions fitOptions;
        OptionalDouble outlierThreshold;
        int maxPending;
        Duration pendingCheckInterval;
        int maxFeatures;
        int outputTopK;
        boolean rejectOlderVersions;
        PredictionExtras extras;
        DecisionRule decisionRule;
        CategoricalSettings categorical;
        ModelSigning signing;

        Copy(ScoringSettings s) {
            topics = s.topics;
            modelId = s.modelId;
            fitOptions = s.fitOptions;
            outlierThreshold = s.outlierThreshold;
            maxPending = s.maxPending;
            pendingCheckInterval = s.pendingCheckInterval;
            maxFeatures = s.maxFeatures;
            outputTopK = s.outputTopK;
            rejectOlderVersions = s.rejectOlderVersions;
            extras = s.extras;
            decisionRule = s.decisionRule;
            categorical = s.categorical;
            signing = s.signing;
        }

        ScoringSettings build() {
            return new ScoringSettings(topics, modelId, fitOptions, outlierThreshold, maxPending, pendingCheckInterval,
                    maxFeatures, outputTopK, rejectOlderVersions, extras, decisionRule, categorical, signing);
        }
    }
}
