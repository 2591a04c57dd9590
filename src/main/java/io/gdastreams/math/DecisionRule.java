package io.gdastreams.math;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a scorer turns posteriors p(y=k | x) into one predicted label. The posteriors themselves never change; only
 * the label chosen from them does. Three rules:
 * <ul>
 *   <li>{@link MostProbable}: argmax_k p(k | x), the Bayes rule under 0–1 loss (the default);</li>
 *   <li>{@link Threshold}: predict class c when p(c | x) ≥ t, otherwise the most probable of the other classes —
 *       the sensitivity/specificity trade-off of a rare class (t = 0.5 with two classes is the Bayes rule);</li>
 *   <li>{@link MinimumExpectedCost}: argmin_j Σ_k p(k | x)·C(k → j), where C(k → j) is the cost of predicting j
 *       when the truth is k (0 for j = k and 1 otherwise unless given: unlisted pairs are 0–1 loss).</li>
 * </ul>
 * A rule is stated in labels; {@link #bind} turns it into indices for the classes of one compiled model, once per
 * model version. Ties go to the class that comes first in the model, as the argmax of {@link Discriminant} does.
 */
public sealed interface DecisionRule {

    /** The rule for the scored classes {@code labels} (in model order; not modified), ready for per-event use. */
    Bound bind(List<String> labels);

    /**
     * A rule bound to one model's classes: immutable, shared by every thread that scores with the model.
     */
    final class Bound {

        private final String rule;
        /** C[k][j] of the minimum-expected-cost rule; null for the other rules. Never modified. */
        private final double[][] costs;
        /** Class index of the threshold rule; −1 when there is none. */
        private final int thresholdClass;
        private final double threshold;

        private Bound(String rule, double[][] costs, int thresholdClass, double threshold) {
            this.rule = rule;
            this.costs = costs;
            this.thresholdClass = thresholdClass;
            this.threshold = threshold;
        }

        /** What a prediction states as its {@code decision}; null for the plain argmax, which is not stated. */
        public String rule() {
            return rule;
        }

        /** The index of the predicted class for posteriors {@code p} (not modified; same order as the labels). */
        public int choose(double[] p) {
            if (costs != null) {
                return cheapest(p);
            }
            if (thresholdClass >= 0) {
                return p[thresholdClass] >= threshold ? thresholdClass : mostProbableExcept(p, thresholdClass);
            }
            return mostProbableExcept(p, -1);
        }

        /**
         * The expected cost Σ_k p_k·C(k → chosen) of predicting {@code chosen}, or null when the rule has no costs.
         */
        public Double expectedCost(double[] p, int chosen) {
            return costs == null ? null : expected(p, chosen);
        }

        private int cheapest(double[] p) {
            int best = 0;
            double bestCost = expected(p, 0);
            for (int j = 1; j < p.length; j++) {
                double cost = expected(p, j);
                if (cost < bestCost) {
                    best = j;
                    bestCost = cost;
                }
            }
            return best;
        }

        private double expected(double[] p, int j) {
            double sum = 0.0;
            for (int k = 0; k < p.length; k++) {
                sum += p[k] * costs[k][j];
            }
            return sum;
        }

        /** The first index of the largest p, skipping {@code skip} (−1: none); {@code skip} itself if it is alone. */
        private static int mostProbableExcept(double[] p, int skip) {
            int best = -1;
            for (int k = 0; k < p.length; k++) {
                if (k != skip && (best < 0 || p[k] > p[best])) {
                    best = k;
                }
            }
            return best < 0 ? skip : best;
        }
    }

    /** argmax_k p(k | x). */
    record MostProbable() implements DecisionRule {

        @Override
        public Bound bind(List<String> labels) {
            return new Bound(null, null, -1, Double.NaN);
        }
    }

    /**
     * Predict {@code label} when p(label | x) ≥ {@code minProbability}, otherwise the most probable other class.
     * A model that does not score {@code label} (unknown, or excluded under the fit options) falls back to the
     * argmax, and its predictions say so.
     */
    record Threshold(String label, double minProbability) implements DecisionRule {

        public Threshold {
            Objects.requireNonNull(label, "label");
            if (!(minProbability >= 0.0 && minProbability <= 1.0)) {
                throw new IllegalArgumentException("minProbability must be in [0, 1], got " + minProbability);
            }
        }

        @Override
        public Bound bind(List<String> labels) {
            int index = labels.indexOf(label);
            if (index < 0) {
                return new Bound("most probable (threshold class '" + label + "' is not scored by this model)",
                        null, -1, Double.NaN);
            }
            return new Bound("threshold " + label + ":" + minProbability, null, index, minProbability);
        }
    }

    /**
     * argmin_j Σ_k p(k | x)·C(k → j) with {@code costs}: true label → (predicted label → cost), each cost finite and
     * ≥ 0. Pairs not given cost 0 on the diagonal and 1 elsewhere; labels the model does not score are ignored.
     */
    record MinimumExpectedCost(Map<String, Map<String, Double>> costs) implements DecisionRule {

        public MinimumExpectedCost {
            Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
            costs.forEach((truth, row) -> {
                row.forEach((predicted, cost) -> {
                    if (!(cost >= 0.0) || Double.isInfinite(cost)) {
                        throw new IllegalArgumentException("cost " + truth + "->" + predicted
                                + " must be finite and >= 0, got " + cost);
                    }
                });
                copy.put(truth, Map.copyOf(row));
            });
            costs = Map.copyOf(copy);
        }

        @Override
        public Bound bind(List<String> labels) {
            int n = labels.size();
            double[][] c = new double[n][n];
            for (int k = 0; k < n; k++) {
                Map<String, Double> row = costs.getOrDefault(labels.get(k), Map.of());
                for (int j = 0; j < n; j++) {
                    c[k][j] = row.getOrDefault(labels.get(j), k == j ? 0.0 : 1.0);
                }
            }
            return new Bound("minimum expected cost", c, -1, Double.NaN);
        }
    }
}
