package io.gdastreams.topology;

import io.gdastreams.math.CategoricalLikelihood;
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
    /**
     * Most imputed categorical values a prediction lists ({@code imputedCategories}, the first missing features in
     * model order); the rest are counted in {@code otherImputedCategories}. A name and a value of the model each have
     * at most 256 characters without control characters (at most 768 bytes of JSON each), so 8 entries add at most
     * about 12 kB: with the unseen values, the imputed map and an explanation of 32 classes the largest prediction
     * stays within its size bound (ScoringOutputBoundTest adds them up).
     */
    static final int MAX_IMPUTED_LISTED = 8;

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
        CategoricalLikelihood likelihood = ModelConversion.categoricalLikelihood(model, labels, alpha);
        if (likelihood == null) {
            return NONE;
        }
        Map<String, Integer> index = new HashMap<>();
        for (int j = 0; j < likelihood.features().size(); j++) {
            index.put(likelihood.features().get(j), j);
        }
        return new CompiledCategories(Map.copyOf(index), likelihood);
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
     * @param values       per categorical feature of the model the index of the event's value, −1 when the event
     *                     has none or one the model never saw (both missing); null for a Gaussian model
     */
    record Resolution(double[] added, Map<String, String> unseen, List<String> unknown, String[] mismatch,
                      int[] values) {

        /** Whether a categorical feature of the model is missing (absent or unseen) in the event. */
        boolean anyMissing() {
            if (values != null) {
                for (int v : values) {
                    if (v < 0) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /**
     * The imputed categorical values of an event: the first {@link #MAX_IMPUTED_LISTED} missing features in model
     * order, each → its most probable value.
     *
     * @param values feature → value; never empty
     * @param others how many more missing features there are; null when none
     */
    record Imputed(Map<String, String> values, Integer others) {
    }

    /**
     * For each categorical feature missing from the event ({@code values[j] < 0}, absent or never seen in
     * training) the value argmax_v Σ_k p(k | x_o) θ_kjv under the event's posterior {@code p} (over the scored
     * classes; it holds the observed categorical values and continuous features); ties go to the first value in
     * the vocabulary's (String) order. Null when none is missing.
     */
    Imputed impute(int[] values, double[] p) {
        Map<String, String> imputed = new LinkedHashMap<>();
        int others = 0;
        for (int j = 0; j < values.length; j++) {
            if (values[j] >= 0) {
                continue;
            }
            if (imputed.size() < MAX_IMPUTED_LISTED) {
                imputed.put(likelihood.features().get(j), likelihood.value(j, likelihood.mostProbableValue(j, p)));
            } else {
                others++;
            }
        }
        return imputed.isEmpty() ? null : new Imputed(imputed, others == 0 ? null : others);
    }

    /**
     * Resolves an event's {@code categories} (feature → value) against this model; {@code numbers} are the event's
     * numeric feature names, {@code continuous} the model's continuous ones, {@code classes} the scored classes.
     */
    Resolution resolve(Set<String> numbers, Map<String, String> categories, Set<String> continuous, int classes) {
        if (categories.isEmpty() && likelihood == null) {
            return new Resolution(null, null, null, null, null);
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
        return new Resolution(added, unseen, unknown, null, likelihood == null ? null : values);
    }

    private static Resolution mismatch(String feature, String what) {
        return new Resolution(null, null, null, new String[] {feature, what}, null);
    }
}
