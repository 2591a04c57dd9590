package io.gdastreams.model;

import io.gdastreams.math.CategoryCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The category table of one categorical feature of a model: its values (the vocabulary, V_j = its size: every value
 * seen in any class, in String order) and, per class in the model's class order, the count of each value. The
 * scorer smooths the counts into θ_kjv = (n_kjv + α) / (n_kj + α·V_j) with its own α; the model carries counts
 * only, as it carries MLE covariances from which every scorer variant is derived.
 *
 * @param feature the categorical feature's name
 * @param values  its vocabulary, distinct
 * @param counts  {@code counts.get(k)[v]}: observations of class k with value {@code values.get(v)}; each row sums
 *                to the class's count (every training event has a value of every feature)
 * @param weights {@code weights.get(k)[v]}: the weight W_kjv of those observations (sample weights, retractions,
 *                forgetting; docs/TRAINING.md, "Weights, retractions and forgetting"), which the scorer smooths in
 *                place of the counts; null, and then left out of the JSON, when every weight equals its count
 */
public record CategoricalTable(String feature, List<String> values, List<long[]> counts, List<double[]> weights) {

    public CategoricalTable {
        if (weights != null && counts != null && sameAsCounts(counts, weights)) {
            weights = null; // an unweighted table, however it was read or built
        }
    }

    /** An unweighted table. */
    public CategoricalTable(String feature, List<String> values, List<long[]> counts) {
        this(feature, values, counts, null);
    }

    private static boolean sameAsCounts(List<long[]> counts, List<double[]> weights) {
        if (counts.size() != weights.size()) {
            return false;
        }
        for (int k = 0; k < counts.size(); k++) {
            long[] n = counts.get(k);
            double[] w = weights.get(k);
            if (n == null || w == null || n.length != w.length) {
                return false;
            }
            for (int v = 0; v < n.length; v++) {
                if (w[v] != n[v]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The weights the scorer smooths: {@link #weights()}, or the counts as doubles when unweighted. */
    public double[] weightsOf(int k) {
        if (weights != null) {
            return weights.get(k);
        }
        long[] n = counts.get(k);
        double[] w = new double[n.length];
        for (int v = 0; v < n.length; v++) {
            w[v] = n[v];
        }
        return w;
    }

    /**
     * The tables of {@code features} for the classes {@code labels} (model order) from their counts.
     * {@code categories}: label → counts over {@code features}, one per label; not modified.
     */
    public static List<CategoricalTable> of(List<String> features, List<String> labels,
                                            Map<String, CategoryCounts> categories) {
        List<CategoricalTable> tables = new ArrayList<>(features.size());
        for (int j = 0; j < features.size(); j++) {
            SortedSet<String> vocabulary = new TreeSet<>();
            for (String label : labels) {
                vocabulary.addAll(categories.get(label).counts(j).keySet());
            }
            List<String> values = List.copyOf(vocabulary);
            List<long[]> counts = new ArrayList<>(labels.size());
            List<double[]> weights = new ArrayList<>(labels.size());
            for (String label : labels) {
                Map<String, Long> byValue = categories.get(label).counts(j);
                Map<String, Double> weightByValue = categories.get(label).weights(j);
                long[] row = new long[values.size()];
                double[] weightRow = new double[values.size()];
                for (int v = 0; v < row.length; v++) {
                    row[v] = byValue.getOrDefault(values.get(v), 0L);
                    weightRow[v] = weightByValue.getOrDefault(values.get(v), 0.0);
                }
                counts.add(row);
                weights.add(weightRow);
            }
            tables.add(new CategoricalTable(features.get(j), values, counts, weights));
        }
        return tables;
    }
}
