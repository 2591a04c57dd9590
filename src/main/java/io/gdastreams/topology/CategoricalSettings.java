package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The categorical features of a run ({@code gda.categorical.*}): which features carry strings or booleans, how many
 * distinct values one may have, and the scorer's Laplace smoothing. The same for both topologies: the trainer
 * counts the values, the scorer decodes the same features as text and smooths the counts of the model.
 *
 * @param features  the categorical feature names, in model order (empty: none, the Gaussian model of before)
 * @param maxValues most distinct values V_j of one feature; an event of a further value is dead-lettered
 * @param alpha     the Laplace smoothing α ≥ 0 of θ_kjv = (n_kjv + α) / (n_kj + α·V_j)
 */
public record CategoricalSettings(List<String> features, int maxValues, double alpha) {

    /** No categorical feature, the defaults of the other two keys. */
    public static final CategoricalSettings NONE = from(ConfigValues.DEFAULTS);

    public CategoricalSettings {
        features = List.copyOf(Objects.requireNonNull(features, "features"));
        if (features.stream().anyMatch(String::isBlank) || new HashSet<>(features).size() != features.size()) {
            throw new IllegalArgumentException("categorical features must be distinct, non-blank names: " + features);
        }
        if (maxValues < 1) {
            throw new IllegalArgumentException("maxValues must be >= 1, got " + maxValues);
        }
        if (!(alpha >= 0) || !Double.isFinite(alpha)) {
            throw new IllegalArgumentException("alpha must be finite and >= 0, got " + alpha);
        }
    }

    public static CategoricalSettings from(ConfigValues config) {
        return new CategoricalSettings(config.names(ConfigKey.CATEGORICAL_FEATURES),
                config.intValue(ConfigKey.CATEGORICAL_MAX_VALUES), config.doubleValue(ConfigKey.CATEGORICAL_ALPHA));
    }

    /** The features as a set, for the decoder. */
    public Set<String> featureSet() {
        return Set.copyOf(features);
    }

    public boolean any() {
        return !features.isEmpty();
    }

    public CategoricalSettings withFeatures(List<String> value) {
        return new CategoricalSettings(value, maxValues, alpha);
    }

    public CategoricalSettings withAlpha(double value) {
        return new CategoricalSettings(features, maxValues, value);
    }

    public CategoricalSettings withMaxValues(int value) {
        return new CategoricalSettings(features, value, alpha);
    }
}
