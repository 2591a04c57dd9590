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
     * The rare path of a point beyond every class ({@link FarPoint}): distances[k] = D²_k / s² over the observed
     * coordinates, from the residual x_O/s − μ_k,O/s ({@code scale} s a power of two, so that the bits are those of
     * D²_k / s² wherever D²_k is finite), and logLikelihood[k] = log N_k(x) + ½D²_k, the rest of class k's
     * log-likelihood. {@code x}: finite where observed, {@code missing} NaN, 0 ≤ missing &lt; d. Not on the hot path.
     */
    abstract void scaledDistances(double[] x, int missing, double scale, double[] distances, double[] logLikelihood);

    /**
     * For classes that share one covariance (TIED): differences[k] = D²_k − D²_m, {@code nearest} = m, from the
     * difference of the means (as the split form takes it), exact where the one-pass distances round alike; true
     * when written. False (nothing promised) when the classes' covariances differ, or some difference came out −∞
     * or NaN. {@code x}, {@code missing} and {@code scale} as in {@link #scaledDistances}.
     */
    boolean distanceDifferences(double[] x, int missing, double scale, int nearest, double[] differences) {
        return false;
    }

    /** Points per call of {@link #observedLogJoints}. */
    static final int GROUP = 4;

    /**
     * The log-joints log π_k + log N_k(x) of the {@link #GROUP} points {@code points[from … from+3]}, each read as if
     * every coordinate were observed, into {@code rows[from + p]}: the same bits as {@link #logLikelihood} with
     * missing = 0 followed by {@link #addLogPriors}, as {@link Discriminant#score} does for one point. Returns a mask
     * whose bit p is set when point p is to be scored on its own instead (its row is then unspecified): some
     * log-likelihood came out −∞ or NaN (x has a missing or infinite coordinate, or a distance overflowed), or its
     * shared term is not 0 (a TIED point far out). This default makes one call per point; every form overrides it to
     * take the four points in one pass (DIAG and TIED: their class sums side by side; FULL: each class's whitening
     * side by side), so that their addition chains, and then their posteriors, overlap; the overrides add the log
     * priors in the loop that makes the log-likelihoods (a pass of its own cost ≈ 2 ns a point at d = 16).
     */
    int observedLogJoints(double[][] points, double[][] rows, int from) {
        int alone = 0;
        for (int p = 0; p < GROUP; p++) {
            double[] row = rows[from + p];
            if (logLikelihood(points[from + p], 0, row, null) != 0.0 || !addLogPriors(row, null)) {
                alone |= 1 << p;
            }
        }
        return alone;
    }

    /**
     * v_k ← v_k + (log π_k + added_k) (log-likelihoods to log-joints; {@code added} may be null); returns whether no
     * log-likelihood was −∞, from one test of their sum (−∞ or NaN if one was).
     */
    final boolean addLogPriors(double[] v, double[] added) {
        double sum = 0.0;
        for (int k = 0; k < v.length; k++) {
            double logLikelihood = v[k];
            sum += logLikelihood;
            v[k] = logLikelihood + (added == null ? logPriors[k] : logPriors[k] + added[k]);
        }
        return sum > Double.NEGATIVE_INFINITY;
    }

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

    /** Σ_k w_k μ_kj: the mean of coordinate j that ignores correlations ({@link Discriminant#impute}'s fallback). */
    final double mixtureMean(double[] weights, int j) {
        double mean = 0.0;
        for (int k = 0; k < weights.length; k++) {
            mean += weights[k] * means[k][j];
        }
        return mean;
    }

    /** β_k, γ_k when the discriminant is linear in x (TIED), a copy; empty otherwise. */
    Optional<LinearDiscriminants> linear() {
        return Optional.empty();
    }

    /** Number of missing-value patterns whose sub-factors are cached (0 when the form needs none). */
    int cachedPatterns() {
        return 0;
    }

    /** Bytes of the cached sub-factors (0 when the form needs none). */
    long cachedPatternBytes() {
        return 0;
    }
}
