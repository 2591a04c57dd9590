package io.gdastreams.config;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Validated values of the application keys, read as their types. The built-in defaults ({@link #DEFAULTS}) and a
 * resolved configuration are read the same way, so a setting built from the defaults equals the one a run without
 * configuration gets.
 */
@FunctionalInterface
public interface ConfigValues {

    /** Every key at its declared default. */
    ConfigValues DEFAULTS = ConfigKey::defaultValue;

    /** The value as written (trimmed); it must be one {@link ConfigKey#type()} accepts. */
    String raw(ConfigKey key);

    /** The typed value; {@code type} is the one {@link ValueType} documents for the key's type. */
    default <T> T value(ConfigKey key, Class<T> type) {
        String raw = raw(key);
        Object value = key.type().parse(raw).orElseThrow(() -> new IllegalStateException(
                key.key() + " = '" + raw + "' was read without being validated: expected " + key.type().expected()));
        return type.cast(value);
    }

    /**
     * The model signing keys as given ({@code id:secret,...}; empty: none). Here {@code gda.model.signing.key}; a
     * resolved configuration reads {@code gda.model.signing.key.file} instead when it is set (this package reads
     * no files).
     */
    default String signingKeys() {
        return raw(ConfigKey.MODEL_SIGNING_KEY);
    }

    default String string(ConfigKey key) {
        return value(key, String.class);
    }

    default int intValue(ConfigKey key) {
        return value(key, Integer.class);
    }

    default long longValue(ConfigKey key) {
        return value(key, Number.class).longValue();
    }

    default double doubleValue(ConfigKey key) {
        return value(key, Double.class);
    }

    default boolean booleanValue(ConfigKey key) {
        return value(key, Boolean.class);
    }

    /** A key counted in milliseconds, as a duration. */
    default Duration millis(ConfigKey key) {
        return Duration.ofMillis(longValue(key));
    }

    /** Empty when the key is set to the empty string. */
    default OptionalDouble optionalDouble(ConfigKey key) {
        return value(key, OptionalDouble.class);
    }

    @SuppressWarnings("unchecked")
    default List<String> names(ConfigKey key) {
        return value(key, List.class);
    }

    /**
     * How the scorer chooses a label from the posteriors: the threshold or the cost rule when one is set (a
     * configuration with both is refused before it gets here), else the most probable class.
     */
    @SuppressWarnings("unchecked")
    default DecisionRule decisionRule() {
        Optional<DecisionRule> threshold = value(ConfigKey.DECISION_THRESHOLD, Optional.class);
        Optional<DecisionRule> costs = value(ConfigKey.DECISION_COSTS, Optional.class);
        if (threshold.isPresent() && costs.isPresent()) {
            throw new IllegalStateException(ConfigKey.DECISION_THRESHOLD.key() + " and "
                    + ConfigKey.DECISION_COSTS.key() + " are both set");
        }
        return threshold.or(() -> costs).orElse(new DecisionRule.MostProbable());
    }

    /** How the scorer turns statistics into a classifier. */
    default FitOptions fitOptions() {
        return new FitOptions(value(ConfigKey.COVARIANCE, CovarianceType.class),
                value(ConfigKey.ESTIMATOR, Estimator.class), doubleValue(ConfigKey.REG_PARAM),
                doubleValue(ConfigKey.VARIANCE_FLOOR), longValue(ConfigKey.MIN_COUNT),
                fixedPriors());
    }

    /** {@code gda.priors}: label → fixed prior, in the order given; empty for learned priors. */
    @SuppressWarnings("unchecked")
    default Map<String, Double> fixedPriors() {
        return value(ConfigKey.PRIORS, Map.class);
    }
}
