package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What a scored prediction carries beyond the posterior (README, "The math": "Imputation", "Explanations").
 *
 * @param imputed  {@code gda.output.imputed}: an event with missing features gets their conditional means
 * @param explain  {@code gda.output.explain}: the per-class terms of the posterior and the tail probability
 * @param outlierP {@code gda.outlier.p}: when present, the prediction carries the tail probability and the outlier
 *                 flag says whether it is below p (or-ed with the log-density threshold when that is set too)
 */
public record PredictionExtras(boolean imputed, boolean explain, OptionalDouble outlierP) {

    /** The keys' defaults: imputation on, no explanation, no probability threshold. */
    public static final PredictionExtras DEFAULTS = from(ConfigValues.DEFAULTS);

    public PredictionExtras {
        Objects.requireNonNull(outlierP, "outlierP");
        if (outlierP.isPresent() && !(outlierP.getAsDouble() > 0.0 && outlierP.getAsDouble() < 1.0)) {
            throw new IllegalArgumentException("outlierP must be in (0, 1), got " + outlierP.getAsDouble());
        }
    }

    public static PredictionExtras from(ConfigValues config) {
        return new PredictionExtras(config.booleanValue(ConfigKey.OUTPUT_IMPUTED),
                config.booleanValue(ConfigKey.OUTPUT_EXPLAIN), config.optionalDouble(ConfigKey.OUTLIER_P));
    }

    /** Whether scoring must compute the squared Mahalanobis distances (for the explanation or the p test). */
    boolean needsDistances() {
        return explain || outlierP.isPresent();
    }
}
