package io.gdastreams.math;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The categorical part of a Gaussian–categorical class-conditional density, compiled for scoring: the features are
 * independent given the class, each with the Laplace-smoothed probabilities
 * θ_kjv = (n_kjv + α) / (n_kj + α·V_j), where n_kjv counts value v of feature j in class k, n_kj = Σ_v n_kjv and
 * V_j is the number of distinct values of feature j in the model (any class). The log θ are computed once; per
 * point only a lookup and an addition per feature and class remain.
 *
 * <p>α = 0 is allowed: a value that class k never had then has θ = 0 and log θ = −∞, which removes class k from
 * the posterior (probability exactly 0, never NaN). A value outside the vocabulary (index −1) is treated as
 * missing: it is marginalised, which for a categorical feature means leaving its factor out (Σ_v θ_kjv = 1).
 *
 * <p>Immutable and safe to share between threads.
 */
public final class CategoricalLikelihood {

    private final List<String> features;
    private final List<Map<String, Integer>> valueIndex;
    /** Per feature its vocabulary, in the order of the value indices. */
    private final List<List<String>> values;
    /** log θ_kjv, [class][feature][value]. */
    private final double[][][] logTheta;

    private CategoricalLikelihood(List<String> features, List<Map<String, Integer>> valueIndex,
                                  List<List<String>> values, double[][][] logTheta) {
        this.features = features;
        this.valueIndex = valueIndex;
        this.values = values;
        this.logTheta = logTheta;
    }

    /**
     * @param features categorical feature names (at least one)
     * @param values   per feature its vocabulary, distinct values (V_j = its size ≥ 1)
     * @param counts   n_kjv as {@code counts[k][j][v]}, aligned with {@code values}; each ≥ 0 (not modified)
     * @param alpha    the smoothing α ≥ 0 (finite)
     * @throws IllegalArgumentException on a shape mismatch, a negative count, or a class with no observation of a
     *                                  feature under α = 0 (its θ would be 0/0)
     */
    public static CategoricalLikelihood of(List<String> features, List<List<String>> values, long[][][] counts,
                                           double alpha) {
        double[][][] weights = new double[counts.length][][];
        for (int k = 0; k < counts.length; k++) {
            weights[k] = new double[counts[k].length][];
            for (int j = 0; j < counts[k].length; j++) {
                weights[k][j] = new double[counts[k][j].length];
                for (int v = 0; v < counts[k][j].length; v++) {
                    weights[k][j][v] = counts[k][j][v];
                }
            }
        }
        return of(features, values, weights, alpha);
    }

    /**
     * As {@link #of(List, List, long[][][], double)} with weighted counts W_kjv (sample weights, retractions,
     * forgetting): θ_kjv = (W_kjv + α) / (W_kj + α·V_j). Each weight finite and ≥ 0.
     */
    public static CategoricalLikelihood of(List<String> features, List<List<String>> values, double[][][] counts,
                                           double alpha) {
        if (!(alpha >= 0) || !Double.isFinite(alpha)) {
            throw new IllegalArgumentException("alpha must be finite and >= 0, got " + alpha);
        }
        int m = features.size();
        if (m == 0 || values.size() != m) {
            throw new IllegalArgumentException("expected vocabularies of " + m + " (>= 1) features, got "
                    + values.size());
        }
        List<Map<String, Integer>> index = new ArrayList<>(m);
        for (int j = 0; j < m; j++) {
            Map<String, Integer> byValue = new HashMap<>();
            List<String> vocabulary = values.get(j);
            if (vocabulary.isEmpty()) {
                throw new IllegalArgumentException("feature '" + features.get(j) + "' has no value");
            }
            for (int v = 0; v < vocabulary.size(); v++) {
                if (byValue.put(vocabulary.get(v), v) != null) {
                    throw new IllegalArgumentException("feature '" + features.get(j) + "' lists value '"
                            + vocabulary.get(v) + "' twice");
                }
            }
            index.add(Map.copyOf(byValue));
        }
        double[][][] logTheta = new double[counts.length][m][];
        for (int k = 0; k < counts.length; k++) {
            if (counts[k].length != m) {
                throw new IllegalArgumentException("class " + k + " has counts of " + counts[k].length
                        + " features, expected " + m);
            }
            for (int j = 0; j < m; j++) {
                double[] n = counts[k][j];
                int vj = values.get(j).size();
                if (n.length != vj) {
                    throw new IllegalArgumentException("class " + k + ", feature '" + features.get(j) + "': "
                            + n.length + " counts for " + vj + " values");
                }
                double total = 0;
                for (double c : n) {
                    if (!(c >= 0) || !Double.isFinite(c)) {
                        throw new IllegalArgumentException("class " + k + ", feature '" + features.get(j)
                                + "': negative count " + c);
                    }
                    total += c;
                }
                double denominator = total + alpha * vj;
                if (!(denominator > 0)) {
                    throw new IllegalArgumentException("class " + k + ", feature '" + features.get(j)
                            + "': no observation and alpha = 0, θ = 0/0");
                }
                double logDenominator = Math.log(denominator);
                logTheta[k][j] = new double[vj];
                for (int v = 0; v < vj; v++) {
                    // log 0 = −∞ (α = 0, unseen pair): the class drops out of the posterior, never a NaN.
                    logTheta[k][j][v] = Math.log(n[v] + alpha) - logDenominator;
                }
            }
        }
        return new CategoricalLikelihood(List.copyOf(features), List.copyOf(index),
                values.stream().map(List::copyOf).toList(), logTheta);
    }

    public List<String> features() {
        return features;
    }

    public int classCount() {
        return logTheta.length;
    }

    /** The index of {@code value} in the vocabulary of feature j, or −1 when the model never saw it. */
    public int valueIndex(int j, String value) {
        Integer v = valueIndex.get(j).get(value);
        return v == null ? -1 : v;
    }

    /** log θ_kjv. */
    public double logTheta(int k, int j, int v) {
        return logTheta[k][j][v];
    }

    /** How many values feature j has in the vocabulary (V_j). */
    public int valueCount(int j) {
        return values.get(j).size();
    }

    /** Feature j's vocabulary, in the order of the value indices. */
    public List<String> values(int j) {
        return values.get(j);
    }

    /** Value v of feature j's vocabulary. */
    public String value(int j, int v) {
        return values.get(j).get(v);
    }

    /**
     * The value of the missing feature j most probable under the mixture given the observed data:
     * argmax_v Σ_k p_k θ_kjv, with {@code p} the posterior p(k | x_o) (which already holds the observed categorical
     * values and continuous features). Ties go to the lowest index, the first value in the vocabulary's order;
     * masses within {@link #TIE} of each other are ties. Returns the value index.
     */
    public int mostProbableValue(int j, double[] p) {
        if (p.length != logTheta.length) {
            throw new IllegalArgumentException("expected " + logTheta.length + " probabilities, got " + p.length);
        }
        int best = 0;
        double bestMass = mass(j, 0, p);
        for (int v = 1; v < valueCount(j); v++) {
            double mass = mass(j, v, p);
            if (mass > bestMass * (1 + TIE)) {
                best = v;
                bestMass = mass;
            }
        }
        return best;
    }

    /**
     * The relative difference below which two values' masses are tied. Each mass is K products p_k·exp(log θ_kv),
     * summed in class order: θ's round trip through its logarithm and the sum leave it a few ulps (times |log θ|)
     * from the exact value, so masses equal in exact arithmetic came out an ulp apart, and the tie went to whichever
     * rounded up (32 of 90 exact-tie tables). 2^-36 is far above that rounding for any bounded K and far below a
     * real difference worth a different answer.
     */
    static final double TIE = 0x1p-36;

    /** Σ_k p_k θ_kjv (a value class k never had, θ = 0 at α = 0: exp(−∞) = 0, adds nothing, never a NaN). */
    private double mass(int j, int v, double[] p) {
        double mass = 0;
        for (int k = 0; k < p.length; k++) {
            mass += p[k] * Math.exp(logTheta[k][j][v]);
        }
        return mass;
    }

    /**
     * Adds Σ_j log θ_kj(x_j) to {@code logLikelihood[k]} for each class k, over the features whose value index
     * {@code values[j]} is ≥ 0 (−1: missing or unseen, left out).
     */
    public void addTo(int[] values, double[] logLikelihood) {
        if (values.length != features.size() || logLikelihood.length != logTheta.length) {
            throw new IllegalArgumentException("expected " + features.size() + " values and " + logTheta.length
                    + " classes");
        }
        for (int k = 0; k < logTheta.length; k++) {
            double sum = 0;
            for (int j = 0; j < values.length; j++) {
                if (values[j] >= 0) {
                    sum += logTheta[k][j][values[j]];
                }
            }
            logLikelihood[k] += sum;
        }
    }
}
