package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * Test-then-train evaluation in the trainer ({@code gda.prequential}): how a labelled event is scored before it is
 * applied (as a scorer with the same configuration would score it) and how the outcomes are windowed.
 *
 * @param window     width of the tumbling event-time windows ({@code gda.metrics.window.ms})
 * @param fitOptions the scorer's fit options (covariance type, estimator, regularisation)
 * @param rule       the scorer's decision rule (the predicted label of the accuracy)
 * @param alpha      the scorer's Laplace smoothing of the category tables ({@code gda.categorical.alpha})
 * @param driftDelta  Page–Hinkley tolerance δ on the log-loss ({@code gda.drift.delta})
 * @param driftLambda Page–Hinkley threshold λ ({@code gda.drift.lambda}); NaN: no drift test
 * @param driftReset  whether an alarm starts fresh statistics ({@code gda.drift.action=reset}) or only alerts
 * @param driftWarmupEvents the events a published model must hold (and every class {@code gda.min.count}) before
 *                          its log-losses feed the drift test ({@code gda.drift.warmup.events}; {@link DriftWarmUp})
 */
public record PrequentialSettings(Duration window, FitOptions fitOptions, DecisionRule rule, double alpha,
                                  double driftDelta, double driftLambda, boolean driftReset, long driftWarmupEvents) {

    /** Settings whose alarms only alert, with the default warm-up. */
    public PrequentialSettings(Duration window, FitOptions fitOptions, DecisionRule rule, double alpha,
                               double driftDelta, double driftLambda) {
        this(window, fitOptions, rule, alpha, driftDelta, driftLambda, false,
                ConfigValues.DEFAULTS.longValue(ConfigKey.DRIFT_WARMUP_EVENTS));
    }

    /** Values before the test may fire: the running mean of the log-loss is still rough. */
    public static final long DRIFT_MIN_INSTANCES = 30;

    public PrequentialSettings {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(fitOptions, "fitOptions");
        Objects.requireNonNull(rule, "rule");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive, got " + window);
        }
        if (!(driftDelta >= 0) || !Double.isFinite(driftDelta)) {
            throw new IllegalArgumentException("driftDelta must be finite and >= 0, got " + driftDelta);
        }
        if (!Double.isNaN(driftLambda) && !(driftLambda > 0 && Double.isFinite(driftLambda))) {
            throw new IllegalArgumentException("driftLambda must be finite and > 0 (or NaN: none), got " + driftLambda);
        }
        if (driftReset && Double.isNaN(driftLambda)) {
            throw new IllegalArgumentException("a reset on drift needs the drift test (a lambda)");
        }
        if (driftWarmupEvents < 1) {
            throw new IllegalArgumentException("driftWarmupEvents must be >= 1, got " + driftWarmupEvents);
        }
    }

    /** The settings of {@code config}, or null when {@code gda.prequential} is off. */
    static PrequentialSettings from(ConfigValues config) {
        if (!config.booleanValue(ConfigKey.PREQUENTIAL)) {
            return null;
        }
        return new PrequentialSettings(config.millis(ConfigKey.METRICS_WINDOW_MS), config.fitOptions(),
                config.decisionRule(), config.doubleValue(ConfigKey.CATEGORICAL_ALPHA),
                config.doubleValue(ConfigKey.DRIFT_DELTA),
                config.optionalDouble(ConfigKey.DRIFT_LAMBDA).orElse(Double.NaN),
                "reset".equals(config.value(ConfigKey.DRIFT_ACTION, String.class)),
                config.longValue(ConfigKey.DRIFT_WARMUP_EVENTS));
    }

    /** Whether the Page–Hinkley test runs. */
    public boolean detectsDrift() {
        return !Double.isNaN(driftLambda);
    }

    /** These settings with the drift test's δ and λ (NaN: none). */
    public PrequentialSettings withDrift(double delta, double lambda) {
        return new PrequentialSettings(window, fitOptions, rule, alpha, delta, lambda,
                driftReset && !Double.isNaN(lambda), driftWarmupEvents);
    }

    /** These settings with alarms that reset ({@code true}) or only alert. */
    public PrequentialSettings withDriftReset(boolean reset) {
        return new PrequentialSettings(window, fitOptions, rule, alpha, driftDelta, driftLambda, reset,
                driftWarmupEvents);
    }

    /** These settings with a drift-test warm-up of {@code events} (≥ 1) events per model ({@link DriftWarmUp}). */
    public PrequentialSettings withDriftWarmup(long events) {
        return new PrequentialSettings(window, fitOptions, rule, alpha, driftDelta, driftLambda, driftReset, events);
    }

    /** When a published model's losses may feed the drift test. */
    DriftWarmUp warmUp() {
        return new DriftWarmUp(driftWarmupEvents, fitOptions.minCount());
    }

    /** The defaults of the scorer's keys, with windows of {@code window}. */
    public static PrequentialSettings defaults(Duration window) {
        return new PrequentialSettings(window, ConfigValues.DEFAULTS.fitOptions(),
                ConfigValues.DEFAULTS.decisionRule(), ConfigValues.DEFAULTS.doubleValue(ConfigKey.CATEGORICAL_ALPHA),
                ConfigValues.DEFAULTS.doubleValue(ConfigKey.DRIFT_DELTA),
                ConfigValues.DEFAULTS.optionalDouble(ConfigKey.DRIFT_LAMBDA).orElse(Double.NaN));
    }
}
