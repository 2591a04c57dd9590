package io.gdastreams.math;

import java.util.Optional;

/**
 * The per-structure part of a {@link Discriminant}: what was precomputed from the fitted covariances, and the
 * log-joint of a point under every class. Immutable apart from caches, and safe to share between threads.
 */
abstract sealed class CompiledCovariance
        permits FullCovariance.Compiled, TiedCovariance.Compiled, DiagonalCovariance.Compiled {

    final int d;
    /** μ_k, K × d: the model's own arrays, never modified. */
    final double[][] means;
    /** log π_k (not copied, never modified). */
    final double[] logPriors;

    CompiledCovariance(GaussianModel model, double[] logPriors) {
        this.d = model.dimension();
        this.logPriors = logPriors;
        this.means = new double[logPriors.length][];
        for (int k = 0; k < means.length; k++) {
            means[k] = model.meanView(k);
        }
    }

    /**
     * logJoint[k] = log π_k + log N(x_O; μ_k,O, Σ_k,OO) over the observed coordinates O of {@code x}, for every
     * scored class k. {@code x}: length d, finite or NaN (missing), {@code missing} of them NaN with
     * 0 ≤ missing &lt; d; not modified. {@code logJoint}: length K, overwritten.
     */
    abstract void logJoint(double[] x, int missing, double[] logJoint);

    /** β_k, γ_k when the discriminant is linear in x (TIED), a copy; empty otherwise. */
    Optional<LinearDiscriminants> linear() {
        return Optional.empty();
    }

    /** Number of missing-value patterns whose sub-factors are cached (0 when the form needs none). */
    int cachedPatterns() {
        return 0;
    }
}
