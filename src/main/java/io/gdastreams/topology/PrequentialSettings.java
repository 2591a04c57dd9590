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
 */
public record PrequentialSettings(Duration window, FitOptions fitOptions, DecisionRule rule, double alpha) {

    public PrequentialSettings {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(fitOptions, "fitOptions");
        Objects.requireNonNull(rule, "rule");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive, got " + window);
        }
    }

    /** The settings of {@code config}, or null when {@code gda.prequential} is off. */
    static PrequentialSettings from(ConfigValues config) {
        if (!config.booleanValue(ConfigKey.PREQUENTIAL)) {
            return null;
        }
        return new PrequentialSettings(config.millis(ConfigKey.METRICS_WINDOW_MS), config.fitOptions(),
                config.decisionRule(), config.doubleValue(ConfigKey.CATEGORICAL_ALPHA));
    }

    /** The defaults of the scorer's keys, with windows of {@code window}. */
    public static PrequentialSettings defaults(Duration window) {
        return new PrequentialSettings(window, ConfigValues.DEFAULTS.fitOptions(),
                ConfigValues.DEFAULTS.decisionRule(), ConfigValues.DEFAULTS.doubleValue(ConfigKey.CATEGORICAL_ALPHA));
    }
}
