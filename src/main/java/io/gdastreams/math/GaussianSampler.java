package io.gdastreams.math;

import java.util.random.RandomGenerator;

/**
 * Draws from the generative model: a class k ~ π, then x ~ N(μ_k, Σ_k) as μ_k + L_k z with z ~ N(0, I) and
 * L_k the Cholesky factor of the effective covariance (so shrinkage, floor and jitter are part of the draw).
 * Immutable; thread-safe as long as each thread brings its own RandomGenerator.
 *
 * <p>The {@code sample} command draws its events with it ({@code sample.EventSampler}). Class k is an index into
 * {@link GaussianModel#labels()}: the classes excluded by the fit are never drawn.
 */
public final class GaussianSampler {

    private final GaussianModel model;
    private final double[] cumulativePriors;

    public GaussianSampler(GaussianModel model) {
        if (model == null) {
            throw new IllegalArgumentException("model is required");
        }
        if (model.labels().isEmpty()) {
            throw new IllegalArgumentException("every class is excluded: nothing to sample from");
        }
        this.model = model;
        int k = model.labels().size();
        this.cumulativePriors = new double[k];
        double sum = 0.0;
        for (int i = 0; i < k; i++) {
            sum += model.priorView(i);
            cumulativePriors[i] = sum;
        }
    }

    /** x ~ p(x | y = k); length d. */
    public double[] sample(int k, RandomGenerator random) {
        int d = model.dimension();
        double[] z = new double[d];
        for (int j = 0; j < d; j++) {
            z[j] = random.nextGaussian();
        }
        CholeskyFactor l = model.factor(k);
        double[] mu = model.meanView(k);
        double[] x = new double[d];
        for (int i = 0; i < d; i++) {
            double v = 0.0;
            for (int j = 0; j <= i; j++) {
                v += l.get(i, j) * z[j];
            }
            x[i] = mu[i] + v;
        }
        return x;
    }

    /** A class index drawn from the priors. */
    public int sampleClass(RandomGenerator random) {
        // Scaling by the last cumulative value keeps a rounding shortfall of Σπ below 1 from biasing the last class.
        double u = random.nextDouble() * cumulativePriors[cumulativePriors.length - 1];
        for (int k = 0; k < cumulativePriors.length - 1; k++) {
            if (u < cumulativePriors[k]) {
                return k;
            }
        }
        return cumulativePriors.length - 1;
    }
}
