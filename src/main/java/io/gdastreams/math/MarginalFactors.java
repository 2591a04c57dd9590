package io.gdastreams.math;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scores points with missing coordinates against full covariance matrices (FULL and TIED), and imputes their
 * missing coordinates: the marginal of a Gaussian over the observed coordinates O is the Gaussian of the sub-vector
 * and sub-matrix Σ_OO, and the conditional mean of the missing ones needs Σ_OO⁻¹ too. The Cholesky factor of Σ_OO is
 * computed once per missing-value pattern and cached (thread-safe, at most
 * {@value #MAX_CACHED_PATTERNS} patterns and {@value #MAX_CACHED_PATTERN_BYTES} bytes of
 * factors; beyond that they are computed per call). The bytes matter as much as the count: a pattern costs one m × m
 * factor per distinct covariance (m observed coordinates), so 1024 patterns of a model with 20 classes at d = 128
 * would hold 2.5 GiB, and which patterns come is the input's choice.
 *
 * <p>The classes may share covariances: {@code covarianceOf[k]} names the matrix of class k, so a pooled matrix is
 * factorised once per pattern, not once per class.
 */
final class MarginalFactors {

    /** Upper bound on the number of missing-value patterns whose sub-factors are cached. */
    static final int MAX_CACHED_PATTERNS = 1024;
    /**
     * Upper bound on the bytes of sub-factors cached per compiled model (64 MiB): at d = 16 every pattern the count
     * allows fits (1024 × 3 classes × 2 KiB = 6 MiB), at d = 128 with 20 classes a few dozen do.
     */
    static final long MAX_CACHED_PATTERN_BYTES = 64L << 20;

    private final double[][] means;
    /** The distinct covariance matrices, d × d each. */
    private final double[][][] covariances;
    private final int[] covarianceOf;
    private final ConcurrentMap<MissingPattern, Marginal> cache = new ConcurrentHashMap<>();
    private final AtomicInteger cacheSlots = new AtomicInteger();
    private final AtomicLong cacheBytes = new AtomicLong();

    /**
     * {@code means} (K × d), {@code covariances} and {@code covarianceOf} (K indices into {@code covariances}): none
     * copied, none modified.
     */
    MarginalFactors(double[][] means, double[][][] covariances, int[] covarianceOf) {
        this.means = means;
        this.covariances = covariances;
        this.covarianceOf = covarianceOf;
    }

    /**
     * As {@link CompiledCovariance#logLikelihood} (the shared term returned), for a point with at least one missing
     * and one observed coordinate. Classes that share one covariance (TIED) are scored in the split form beyond
     * {@link TiedCovariance.Compiled#SPLIT_ABOVE}, as an all-observed point is ({@link #split}).
     */
    double logLikelihood(double[] x, double[] logLikelihood, double[] distances) {
        Marginal marginal = marginal(MissingPattern.of(x), x.length);
        int[] observed = marginal.observed;
        int m = observed.length;
        double[] r = new double[m];
        double nearest = Double.POSITIVE_INFINITY;
        int nearestClass = -1;
        for (int k = 0; k < logLikelihood.length; k++) {
            double[] mu = means[k];
            for (int i = 0; i < m; i++) {
                r[i] = x[observed[i]] - mu[observed[i]];
            }
            CholeskyFactor l = marginal.perClass[k];
            l.solveLower(r);
            double q = LogGaussian.sumOfSquares(r, m);
            if (q < nearest) {
                nearest = q;
                nearestClass = k;
            }
            logLikelihood[k] = LogGaussian.of(m, l.halfLogDeterminant(), q);
            if (distances != null) {
                distances[k] = q;
            }
        }
        return covariances.length == 1 && logLikelihood.length > 1 && nearest > TiedCovariance.Compiled.SPLIT_ABOVE
                && nearest < Double.POSITIVE_INFINITY ? split(x, marginal, nearestClass, nearest, logLikelihood) : 0.0;
    }

    /**
     * The split form of {@link TiedCovariance.Compiled} over the observed coordinates O, for classes that share
     * one Σ: with m the nearest class, w = L⁻¹(x_O − μ_m,O) and Δ_k = L⁻¹(μ_m,O − μ_k,O) (L the factor of Σ_OO),
     * q_k = ‖w + Δ_k‖² = q_m + r_k where r_k = Δ_kᵀ(Δ_k + 2w) holds the classes' differences, which q_m's rounding
     * swallows far out: logLikelihood[k] gets the part of r_k and −½q_m is returned as the shared term. Δ_k comes
     * from the difference of the means, not of two far residuals. When some r_k is not finite, the one-pass values
     * stay and nothing is shared. Distances, if asked, stay the one-pass q_k.
     */
    private double split(double[] x, Marginal marginal, int nearestClass, double nearest, double[] logLikelihood) {
        int[] observed = marginal.observed;
        int m = observed.length;
        CholeskyFactor l = marginal.distinct[0];
        double[] w = whitenedResidual(x, 1.0, observed, nearestClass, l);
        double[] parts = new double[logLikelihood.length];
        double[] delta = new double[m];
        for (int k = 0; k < parts.length; k++) {
            whitenedMeanDifference(nearestClass, k, observed, l, delta);
            double r = 0.0;
            for (int i = 0; i < m; i++) {
                r += delta[i] * (delta[i] + 2.0 * w[i]);
            }
            if (!Double.isFinite(r)) {
                return 0.0;
            }
            parts[k] = r;
        }
        for (int k = 0; k < parts.length; k++) {
            logLikelihood[k] = LogGaussian.of(m, l.halfLogDeterminant(), parts[k]);
        }
        return -0.5 * nearest;
    }

    /** As {@link CompiledCovariance#scaledDistances}, for a point with a missing and an observed coordinate. */
    void scaledDistances(double[] x, double scale, double[] distances, double[] logLikelihood) {
        Marginal marginal = marginal(MissingPattern.of(x), x.length);
        int[] observed = marginal.observed;
        int m = observed.length;
        double[] r = new double[m];
        for (int k = 0; k < logLikelihood.length; k++) {
            double[] mu = means[k];
            for (int i = 0; i < m; i++) {
                r[i] = x[observed[i]] / scale - mu[observed[i]] / scale;
            }
            CholeskyFactor l = marginal.perClass[k];
            l.solveLower(r);
            distances[k] = LogGaussian.sumOfSquares(r, m);
            logLikelihood[k] = LogGaussian.of(m, l.halfLogDeterminant(), 0.0);
        }
    }

    /**
     * As {@link CompiledCovariance#distanceDifferences}, for a point with a missing and an observed coordinate: when
     * the classes share one Σ, {@link #split}'s r_k = Δ_kᵀ(Δ_k + 2w) from the scaled w/s = L⁻¹(x_O/s − μ_m,O/s), as
     * ‖Δ_k‖² + 2s·Δ_kᵀ(w/s).
     */
    boolean distanceDifferences(double[] x, double scale, int nearestClass, double[] differences) {
        if (covariances.length != 1) {
            return false;
        }
        Marginal marginal = marginal(MissingPattern.of(x), x.length);
        int[] observed = marginal.observed;
        int m = observed.length;
        CholeskyFactor l = marginal.distinct[0];
        double[] w = whitenedResidual(x, scale, observed, nearestClass, l);
        double[] delta = new double[m];
        for (int k = 0; k < differences.length; k++) {
            whitenedMeanDifference(nearestClass, k, observed, l, delta);
            double square = 0.0;
            double cross = 0.0;
            for (int i = 0; i < m; i++) {
                square += delta[i] * delta[i];
                cross += delta[i] * w[i];
            }
            differences[k] = square + scale * (2.0 * cross);
            if (!(differences[k] > Double.NEGATIVE_INFINITY)) {
                return false;
            }
        }
        return true;
    }

    /**
     * w = L⁻¹(x_O/s − μ_m,O/s), a new array ({@code scale} s a power of two; 1 gives the bits of x_O − μ_m,O): the
     * whitened residual from the nearest class m that {@link #split} and {@link #distanceDifferences} share.
     */
    private double[] whitenedResidual(double[] x, double scale, int[] observed, int nearestClass, CholeskyFactor l) {
        double[] muM = means[nearestClass];
        double[] w = new double[observed.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = x[observed[i]] / scale - muM[observed[i]] / scale;
        }
        l.solveLower(w);
        return w;
    }

    /** delta ← Δ_k = L⁻¹(μ_m,O − μ_k,O), m the nearest class. */
    private void whitenedMeanDifference(int nearestClass, int k, int[] observed, CholeskyFactor l, double[] delta) {
        double[] muM = means[nearestClass];
        double[] mu = means[k];
        for (int i = 0; i < observed.length; i++) {
            delta[i] = muM[observed[i]] - mu[observed[i]];
        }
        l.solveLower(delta);
    }

    /**
     * As {@link CompiledCovariance#addConditionalMean}, for a point with at least one missing and one observed
     * coordinate, with the cached factor of Σ_OO (no factorisation per event). The classes that share a covariance
     * c are summed before solving, because the mixture is linear in the residual:
     * Σ_{k∈c} w_k (μ_k,M + Σ_MO Σ_OO⁻¹ (x_O − μ_k,O)) = Σ_{k∈c} w_k μ_k,M + Σ_MO Σ_OO⁻¹ Σ_{k∈c} w_k (x_O − μ_k,O),
     * so FULL costs one triangular solve pair per class and TIED one in all.
     */
    void addConditionalMean(double[] x, double[] weights, double[] out) {
        int d = x.length;
        Marginal marginal = marginal(MissingPattern.of(x), d);
        int[] observed = marginal.observed;
        int m = observed.length;
        for (int c = 0; c < covariances.length; c++) {
            double[] r = new double[m];
            boolean used = false;
            for (int k = 0; k < weights.length; k++) {
                double w = weights[k];
                if (covarianceOf[k] != c || w == 0.0) {
                    continue;
                }
                used = true;
                double[] mu = means[k];
                for (int i = 0; i < m; i++) {
                    r[i] += w * (x[observed[i]] - mu[observed[i]]);
                }
                for (int j = 0; j < d; j++) {
                    if (Double.isNaN(x[j])) {
                        out[j] += w * mu[j];
                    }
                }
            }
            if (!used) {
                continue;
            }
            CholeskyFactor l = marginal.distinct[c];
            l.solveLower(r);
            l.solveLowerTransposed(r);
            double[][] sigma = covariances[c];
            for (int j = 0; j < d; j++) {
                if (Double.isNaN(x[j])) {
                    double[] row = sigma[j];
                    double s = 0.0;
                    for (int i = 0; i < m; i++) {
                        s += row[observed[i]] * r[i];
                    }
                    out[j] += s;
                }
            }
        }
    }

    /** Number of patterns cached. */
    int size() {
        return cache.size();
    }

    /** Bytes of factors the cached patterns hold (as counted against the bound). */
    long bytes() {
        return cacheBytes.get();
    }

    /** What one pattern with {@code m} observed coordinates holds: an m × m factor per distinct covariance. */
    private long cachedBytes(int m) {
        return (long) covariances.length * m * m * Double.BYTES + (long) m * Integer.BYTES;
    }

    private Marginal marginal(MissingPattern pattern, int d) {
        Marginal marginal = cache.get(pattern);
        if (marginal == null) {
            marginal = new Marginal(pattern.observedIndices(d));
            long bytes = cachedBytes(marginal.observed.length);
            // Reserve a slot and the bytes first: checking size() and then inserting lets concurrent callers overshoot
            // the bounds.
            boolean reserved = cacheSlots.incrementAndGet() <= MAX_CACHED_PATTERNS;
            reserved = cacheBytes.addAndGet(bytes) <= MAX_CACHED_PATTERN_BYTES && reserved;
            Marginal raced = reserved ? cache.putIfAbsent(pattern, marginal) : null;
            if (raced != null) {
                marginal = raced;
            }
            if (!reserved || raced != null) {
                cacheSlots.decrementAndGet();
                cacheBytes.addAndGet(-bytes);
            }
        }
        return marginal;
    }

    /** Cholesky factors of the sub-matrices Σ_k,OO for one set O of observed coordinates, one per class. */
    private final class Marginal {
        final int[] observed;
        final CholeskyFactor[] perClass;
        /** The factor of each distinct covariance's Σ_OO, indexed like {@code covariances}. */
        final CholeskyFactor[] distinct;

        Marginal(int[] observed) {
            this.observed = observed;
            this.distinct = new CholeskyFactor[covariances.length];
            for (int c = 0; c < covariances.length; c++) {
                distinct[c] = subFactor(covariances[c], observed);
            }
            this.perClass = new CholeskyFactor[covarianceOf.length];
            for (int k = 0; k < covarianceOf.length; k++) {
                perClass[k] = distinct[covarianceOf[k]];
            }
        }
    }

    /**
     * Factor of the principal sub-matrix A_OO. A principal sub-matrix of a positive definite matrix is positive
     * definite and its pivots (conditional variances given fewer coordinates) are no smaller, so this succeeds
     * whenever the full factor did; the diagonal fallback only guards against rounding at the threshold.
     */
    private static CholeskyFactor subFactor(double[][] a, int[] observed) {
        int m = observed.length;
        double[][] sub = new double[m][m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                sub[i][j] = a[observed[i]][observed[j]];
            }
        }
        Optional<CholeskyFactor> factor = CholeskyFactor.of(sub);
        if (factor.isPresent()) {
            return factor.get();
        }
        double[][] diagonal = new double[m][m];
        for (int i = 0; i < m; i++) {
            diagonal[i][i] = sub[i][i];
        }
        return CholeskyFactor.of(diagonal).orElseThrow();
    }
}
