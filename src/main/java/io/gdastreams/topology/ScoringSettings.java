package io.gdastreams.topology;

import io.gdastreams.math.FitOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Everything the scoring topology needs, filled from configuration by the application layer.
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
 * @param rejectOlderVersions  refuse a model whose version is lower than the one in force (see
 *                             {@link CompiledModelCache}); false puts the latest record in force whatever its version
 */
public record ScoringSettings(Topics topics, String modelId, FitOptions fitOptions, OptionalDouble outlierThreshold,
                              int maxPending, Duration pendingCheckInterval, boolean rejectOlderVersions) {

    public static final int DEFAULT_MAX_PENDING = 10_000;
    public static final Duration DEFAULT_PENDING_CHECK_INTERVAL = Duration.ofSeconds(1);

    public ScoringSettings {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(fitOptions, "fitOptions");
        Objects.requireNonNull(outlierThreshold, "outlierThreshold");
        Objects.requireNonNull(pendingCheckInterval, "pendingCheckInterval");
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
    }

    /**
     * Default topics, QDA with MLE divisors, no outlier flag, the default pending bound and check interval, older
     * model versions rejected.
     */
    public static ScoringSettings defaults(String modelId) {
        return new ScoringSettings(Topics.defaults(), modelId, FitOptions.defaults(), OptionalDouble.empty(),
                DEFAULT_MAX_PENDING, DEFAULT_PENDING_CHECK_INTERVAL, true);
    }

    public ScoringSettings withTopics(Topics value) {
        return new ScoringSettings(value, modelId, fitOptions, outlierThreshold, maxPending, pendingCheckInterval,
                rejectOlderVersions);
    }

    public ScoringSettings withFitOptions(FitOptions value) {
        return new ScoringSettings(topics, modelId, value, outlierThreshold, maxPending, pendingCheckInterval,
                rejectOlderVersions);
    }

    public ScoringSettings withOutlierThreshold(double value) {
        return new ScoringSettings(topics, modelId, fitOptions, OptionalDouble.of(value), maxPending,
                pendingCheckInterval, rejectOlderVersions);
    }

    public ScoringSettings withMaxPending(int value) {
        return new ScoringSettings(topics, modelId, fitOptions, outlierThreshold, value, pendingCheckInterval,
                rejectOlderVersions);
    }

    public ScoringSettings withPendingCheckInterval(Duration value) {
        return new ScoringSettings(topics, modelId, fitOptions, outlierThreshold, maxPending, value,
                rejectOlderVersions);
    }

    public ScoringSettings withRejectOlderVersions(boolean value) {
        return new ScoringSettings(topics, modelId, fitOptions, outlierThreshold, maxPending, pendingCheckInterval,
                value);
    }
}
