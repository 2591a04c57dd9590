package io.gdastreams.math;

import java.util.Optional;

/**
 * The per-structure part of a {@link Discriminant}: what was precomputed from the fitted covariances, and the
 * log-joint of a point under every class. Immutable apart from caches, and safe to share between threads.
 */
abstract sealed class CompiledCovariance
        permits MarginalisedCompiled, DiagonalCovariance.Compiled {

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
     * logLikelihood[k] = log N(x_O; μ_k,O, Σ_k,OO) over the observed coordinates O of {@code x}, for every scored
     * class k, and, when {@code distances} is not null, distances[k] = D²_k = (x_O − μ_k,O)ᵀ Σ_k,OO⁻¹ (x_O − μ_k,O),
     * the squared Mahalanobis distance the log-likelihood is made of (+∞ when it overflowed). {@code x}: length d,
     * finite or NaN (missing), {@code missing} of them NaN with 0 ≤ missing &lt; d; not modified. The arrays:
     * length K, overwritten. Called with missing = 0 before anyone has looked at x ({@link Discriminant#score}): a
     * NaN or ±∞ coordinate must then make at least one log-likelihood −∞ (a distance NaN or +∞), which every form
     * does by computing with it, so that the caller knows to look.
     *
     * @return a term shared by every class that is left out of logLikelihood[k] (class k's log-likelihood is
     *         logLikelihood[k] + it): 0, but for a TIED point so far out that the shared −½‖L⁻¹x‖² would swallow
     *         the classes' differences in double precision ({@link TiedCovariance})
     */
    abstract double logLikelihood(double[] x, int missing, double[] logLikelihood, double[] distances);

    /**
     * out[j] += Σ_k w_k E_k[x_j | x_O] for every missing coordinate j of {@code x} (the others are left alone),
     * where E_k[x_M | x_O] = μ_k,M + Σ_k,MO Σ_k,OO⁻¹ (x_O − μ_k,O) is the mean of class k's Gaussian conditioned on
     * the observed coordinates. {@code weights}: length K (the posterior, for imputation); {@code x} as in
     * {@link #logLikelihood}, but 0 ≤ missing ≤ d. This default is right whenever Σ_k,MO = 0: for a diagonal
     * covariance, and when nothing is observed; the forms with full matrices override it.
     */
    void addConditionalMean(double[] x, int missing, double[] weights, double[] out) {
        for (int k = 0; k < weights.length; k++) {
            double w = weights[k];
            double[] mu = means[k];
            for (int j = 0; j < d; j++) {
                if (Double.isNaN(x[j])) {
                    out[j] += w * mu[j];
                }
            }
        }
    }

    /** β_k, γ_k when the discriminant is linear in x (TIED), a copy; empty otherwise. */
    Optional<LinearDiscriminants> linear() {
        return Optional.empty();
    }

    /** Number of missing-value patterns whose sub-factors are cached (0 when the form needs none). */
    int cachedPatterns() {
        return 0;
    }
}
