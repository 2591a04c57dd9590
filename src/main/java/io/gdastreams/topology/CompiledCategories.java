package io.gdastreams.topology;

import io.gdastreams.math.CategoricalLikelihood;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ModelParameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The categorical part of one compiled model: the smoothed category tables over the scored classes, and how an
 * event's categorical values turn into the log θ_kj(value) each class adds to its log-likelihood. Immutable; built
 * once per model version beside the {@link CompiledModel}.
 */
final class CompiledCategories {

    /**
     * Most unseen categorical values a prediction names. A value and a categorical feature name of the model each
     * have at most 256 characters (the label's rules, checked by {@link ModelConversion}), so 16 of them add at most
     * about 50 kB and keep a prediction within its size bound ({@link ScoringSettings#MAX_OUTPUT_TOP_K}).
     */
    static final int MAX_UNSEEN_LISTED = 16;

    /** A model without categorical features. */
    static final CompiledCategories NONE = new CompiledCategories(Map.of(), null);

    /** Categorical feature name → its index in {@link #likelihood}; empty for a Gaussian model. */
    private final Map<String, Integer> index;
    /** Over the scored classes, in the discriminant's label order; null for a Gaussian model. */
    private final CategoricalLikelihood likelihood;

    private CompiledCategories(Map<String, Integer> index, CategoricalLikelihood likelihood) {
        this.index = index;
        this.likelihood = likelihood;
    }

    /**
     * The category tables of {@code model} for the scored classes {@code labels}, in their order, smoothed with
     * {@code alpha}. V_j is the size of the model's vocabulary of feature j, which counts the values of every class,
     * scored or not ("any class").
     */
    static CompiledCategories of(ModelParameters model, List<String> labels, double alpha) {
        List<CategoricalTable> tables = ModelConversion.categoricalTables(model);
        if (tables.isEmpty()) {
            return NONE;
        }
        Map<String, Integer> classIndex = new HashMap<>();
        for (int k = 0; k < model.classes().size(); k++) {
            classIndex.put(model.classes().get(k).label(), k);
        }
        long[][][] counts = new long[labels.size()][tables.size()][];
        for (int k = 0; k < labels.size(); k++) {
            int modelClass = classIndex.get(labels.get(k));
            for (int j = 0; j < tables.size(); j++) {
                counts[k][j] = tables.get(j).counts().get(modelClass);
            }
        }
        Map<String, Integer> index = new HashMap<>();
        for (int j = 0; j < tables.size(); j++) {
            index.put(tables.get(j).feature(), j);
        }
        return new CompiledCategories(Map.copyOf(index), CategoricalLikelihood.of(
                tables.stream().map(CategoricalTable::feature).toList(),
                tables.stream().map(CategoricalTable::values).toList(), counts, alpha));
    }

    /**
     * What an event's categorical values mean for scoring.
     *
     * @param added        log θ_kj summed over the event's known values, per scored class; null for a Gaussian model
     * @param unseen       feature → value the model never saw (treated as missing), at most
     *                     {@link #MAX_UNSEEN_LISTED}; null when none
     * @param unknown      names that are no feature of the model at all; null when none
     * @param mismatch     a feature given as the wrong kind (the scorer's and trainer's categorical lists disagree)
     *                     with what is wrong, or null
     */
    record Resolution(double[] added, Map<String, String> unseen, List<String> unknown, String[] mismatch) {
    }

    /**
     * Resolves an event's {@code categories} (feature → value) against this model; {@code numbers} are the event's
     * numeric feature names, {@code continuous} the model's continuous ones, {@code classes} the scored classes.
     */
    Resolution resolve(Set<String> numbers, Map<String, String> categories, Set<String> continuous, int classes) {
        if (categories.isEmpty() && likelihood == null) {
            return new Resolution(null, null, null, null);
        }
        for (String feature : numbers) {
            if (index.containsKey(feature)) {
                return mismatch(feature, "categorical in the model but the event gives a number");
            }
        }
        int[] values = new int[index.size()];
        Arrays.fill(values, -1);
        List<String> unknown = null;
        Map<String, String> unseen = null;
        for (Map.Entry<String, String> value : categories.entrySet()) {
            Integer j = index.get(value.getKey());
            if (j == null) {
                if (continuous.contains(value.getKey())) {
                    return mismatch(value.getKey(), "continuous in the model but the event gives a category"
                            + " (gda.categorical.features)");
                }
                unknown = unknown == null ? new ArrayList<>() : unknown;
                unknown.add(value.getKey());
                continue;
            }
            values[j] = likelihood.valueIndex(j, value.getValue());
            if (values[j] < 0) {
                unseen = unseen == null ? new LinkedHashMap<>() : unseen;
                if (unseen.size() < MAX_UNSEEN_LISTED) {
                    unseen.put(value.getKey(), value.getValue());
                }
            }
        }
        double[] added = null;
        if (likelihood != null) {
            added = new double[classes];
            likelihood.addTo(values, added);
        }
        return new Resolution(added, unseen, unknown, null);
    }

    private static Resolution mismatch(String feature, String what) {
        return new Resolution(null, null, null, new String[] {feature, what});
    }
}
