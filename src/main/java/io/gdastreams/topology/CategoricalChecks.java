package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.serde.UnicodeText;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a training task checks of a labelled event's categorical values before it counts them: every configured
 * feature has a value, and a value new to its feature does not take it past {@code gda.categorical.max.values}.
 * Each check returns the dead letter's reason, or null.
 */
final class CategoricalChecks {

    private final CategoricalSettings settings;

    CategoricalChecks(CategoricalSettings settings) {
        this.settings = settings;
    }

    /** The event's categorical values in configured order, or null when one is missing ({@link #missing}). */
    String[] valuesOf(LabelledEvent event) {
        List<String> names = settings.features();
        String[] values = new String[names.size()];
        for (int j = 0; j < values.length; j++) {
            values[j] = event.categories().get(names.get(j));
            if (values[j] == null) {
                return null;
            }
        }
        return values;
    }

    /** The reason for an event without a value of every configured categorical feature. */
    String missing(LabelledEvent event) {
        List<String> missing = settings.features().stream().filter(f -> !event.categories().containsKey(f)).toList();
        String names = missing.toString();
        return "categorical feature(s) missing: " + UnicodeText.cut(names, 200)
                + " (" + ConfigKey.CATEGORICAL_FEATURES.key() + ")";
    }

    /**
     * Why a value new to its feature would take the feature past {@code gda.categorical.max.values}, or null. The
     * values known are the partition's ({@code state}) and those of the published model ({@code published}: feature
     * → values), as the model size bound counts classes; tasks adding different new values within one publish
     * interval can together go beyond the bound, which the combiner's record-size check still holds
     * (docs/TRAINING.md, "Categorical features").
     */
    String vocabularyLimit(String[] values, PartitionState state, Map<String, Set<String>> published) {
        for (int j = 0; j < values.length; j++) {
            String feature = settings.features().get(j);
            Set<String> known = published.getOrDefault(feature, Set.of());
            if (state.hasValue(j, values[j]) || known.contains(values[j])) {
                continue;
            }
            Set<String> all = new HashSet<>(known);
            all.addAll(state.values(j));
            if (all.size() >= settings.maxValues()) {
                return "too many values of categorical feature '" + feature + "': value '" + values[j]
                        + "' would be value " + (all.size() + 1) + " (at most " + settings.maxValues() + ", "
                        + ConfigKey.CATEGORICAL_MAX_VALUES.key() + ")";
            }
        }
        return null;
    }
}
