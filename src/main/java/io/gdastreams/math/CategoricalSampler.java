package io.gdastreams.math;

import java.util.random.RandomGenerator;

/**
 * Draws categorical values from the smoothed tables of a {@link CategoricalLikelihood}: value v of feature j given
 * class k with probability θ_kjv, by inverting the cumulative θ_kj with one uniform per feature. The features are
 * independent given the class (the model's assumption), so each is drawn on its own. Under α = 0 a value class k
 * never had (θ = 0) is never drawn. Immutable; thread-safe as long as each thread brings its own RandomGenerator.
 */
public final class CategoricalSampler {

    /** Σ_{u ≤ v} θ_kju, [class][feature][value]. */
    private final double[][][] cumulative;

    public CategoricalSampler(CategoricalLikelihood likelihood) {
        int m = likelihood.features().size();
        cumulative = new double[likelihood.classCount()][m][];
        for (int k = 0; k < cumulative.length; k++) {
            for (int j = 0; j < m; j++) {
                double[] c = new double[likelihood.valueCount(j)];
                double sum = 0;
                for (int v = 0; v < c.length; v++) {
                    sum += Math.exp(likelihood.logTheta(k, j, v));
                    c[v] = sum;
                }
                cumulative[k][j] = c;
            }
        }
    }

    /** The index of a value of feature j drawn from θ_kj. */
    public int sample(int k, int j, RandomGenerator random) {
        double[] c = cumulative[k][j];
        // Scaling by the last cumulative value keeps a rounding shortfall of Σθ below 1 from biasing the last value.
        double u = random.nextDouble() * c[c.length - 1];
        for (int v = 0; v < c.length - 1; v++) {
            // Strictly below: a value of θ = 0 (an empty interval) is never chosen.
            if (u < c[v]) {
                return v;
            }
        }
        return lastPositive(c);
    }

    /** The last value with θ > 0 (trailing values of θ = 0 under α = 0 are never drawn). */
    private static int lastPositive(double[] c) {
        int v = c.length - 1;
        while (v > 0 && c[v] == c[v - 1]) {
            v--;
        }
        return v;
    }
}
