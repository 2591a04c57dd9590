package io.gdastreams.math;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model compiled for scoring: Cholesky factors, log-determinants and log priors computed once per model
 * version; per point only triangular solves. Immutable and safe to share between threads.
 *
 * <h2>Scoring</h2>
 * For the observed coordinates O of x (NaN marks a missing coordinate):
 * log N_k(x) = −½(|O|·log 2π + 2·Σ log L_ii + ‖L⁻¹(x_O − μ_k,O)‖²), where L is the Cholesky factor of the
 * sub-matrix Σ_k,OO (the marginal of a Gaussian is the Gaussian of the sub-vector and sub-matrix).
 * logJoint_k = log π_k + log N_k(x); p(k | x) = exp(logJoint_k − logDensity) with
 * logDensity = logsumexp_k(logJoint_k) = log p(x). All coordinates missing gives the priors and logDensity 0.
 *
 * <p>Cost per point: no factorisation and no allocation proportional to d² when every coordinate is observed
 * (one O(d²) forward substitution per class for FULL, one in all for TIED, O(d) per class for DIAG). For a
 * partial pattern the factors of the sub-matrices are computed once per pattern and cached (thread-safe, at
 * most {@value #MAX_CACHED_PATTERNS} patterns per compiled model; beyond that they are computed per call).
 *
 * <p>Always finite: a log-likelihood that underflows to −∞ (a point astronomically far from a class) is
 * reported as −{@link Double#MAX_VALUE}; if that happens for every class the point carries no usable
 * information and the probabilities are the priors.
 */
public final class Discriminant {

    /** Upper bound on the number of missing-value patterns whose sub-factors are cached. */
    public static final int MAX_CACHED_PATTERNS = 1024;

    private static final double LOG_2PI = Math.log(2.0 * Math.PI);

    private final GaussianModel model;
    private final CovarianceType type;
    private final int d;
    private final int classCount;
    private final List<String> labels;
    private final double[] logPriors;
    private final double[][] means;
    /** FULL: one per class; TIED: one shared factor (index 0); DIAG: unused. */
    private final CholeskyFactor[] factors;
    /** TIED only: L⁻¹(μ_k − μ_0), so one forward substitution serves every class. */
    private final double[][] whitenedMeanOffsets;
    /** DIAG only: 1/σ_kj and Σ_j log σ_kj. */
    private final double[][] inverseStdDevs;
    private final double[][] logStdDevs;
    private final ConcurrentMap<MissingPattern, Marginal> marginals = new ConcurrentHashMap<>();
    private final AtomicInteger cacheSlots = new AtomicInteger();
    private final LinearDiscriminants linear;

    private Discriminant(GaussianModel model) {
        this.model = model;
        this.type = model.options().covarianceType();
        this.d = model.dimension();
        this.labels = model.labels();
        this.classCount = labels.size();
        this.logPriors = new double[classCount];
        this.means = new double[classCount][];
        for (int k = 0; k < classCount; k++) {
            logPriors[k] = Math.log(model.priorView(k));
            means[k] = model.meanView(k);
        }
        this.factors = new CholeskyFactor[classCount];
        for (int k = 0; k < classCount; k++) {
            factors[k] = model.factor(k);
        }
        if (type == CovarianceType.TIED && classCount > 0) {
            whitenedMeanOffsets = new double[classCount][];
            for (int k = 0; k < classCount; k++) {
                double[] offset = new double[d];
                for (int j = 0; j < d; j++) {
                    offset[j] = means[k][j] - means[0][j];
                }
                factors[0].solveLower(offset);
                whitenedMeanOffsets[k] = offset;
            }
            linear = linearDiscriminants();
        } else {
            whitenedMeanOffsets = null;
            linear = null;
        }
        if (type == CovarianceType.DIAG) {
            inverseStdDevs = new double[classCount][d];
            logStdDevs = new double[classCount][d];
            for (int k = 0; k < classCount; k++) {
                double[][] cov = model.covarianceView(k);
                for (int j = 0; j < d; j++) {
                    double sd = Math.sqrt(cov[j][j]);
                    inverseStdDevs[k][j] = 1.0 / sd;
                    logStdDevs[k][j] = Math.log(sd);
                }
            }
        } else {
            inverseStdDevs = null;
            logStdDevs = null;
        }
    }

    public static Discriminant compile(GaussianModel model) {
        if (model == null) {
            throw new IllegalArgumentException("model is required");
        }
        return new Discriminant(model);
    }

    /** The model this was compiled from. */
    public GaussianModel model() {
        return model;
    }

    /** Labels of the scored classes (may be empty when every class is excluded). */
    public List<String> labels() {
        return labels;
    }

    public int dimension() {
        return d;
    }

    /**
     * Posterior of one point. {@code x}: length d, not modified; a NaN entry marks a missing feature, which is
     * marginalised out (all missing gives the priors). Throws IllegalStateException when labels() is empty, and
     * IllegalArgumentException for a wrong length or an infinite entry.
     */
    public Posterior score(double[] x) {
        if (classCount == 0) {
            throw new IllegalStateException("every class is excluded from scoring: " + model.excluded());
        }
        if (x.length != d) {
            throw new IllegalArgumentException("expected " + d + " values, got " + x.length);
        }
        int missing = 0;
        for (double v : x) {
            if (Double.isNaN(v)) {
                missing++;
            } else if (Double.isInfinite(v)) {
                throw new IllegalArgumentException("infinite feature value " + v);
            }
        }
        double[] logJoint = new double[classCount];
        if (missing == d) {
            System.arraycopy(logPriors, 0, logJoint, 0, classCount);
        } else if (type == CovarianceType.DIAG) {
            diagLogJoint(x, logJoint);
        } else if (missing > 0) {
            marginalLogJoint(x, missingPattern(x), logJoint);
        } else if (type == CovarianceType.TIED) {
            tiedLogJoint(x, logJoint);
        } else {
            fullLogJoint(x, logJoint);
        }
        return posterior(logJoint);
    }

    /** β_k, γ_k for a TIED model; empty otherwise (and when every class is excluded). */
    public Optional<LinearDiscriminants> linear() {
        if (linear == null) {
            return Optional.empty();
        }
        double[][] beta = new double[classCount][];
        for (int k = 0; k < classCount; k++) {
            beta[k] = linear.beta()[k].clone();
        }
        return Optional.of(new LinearDiscriminants(beta, linear.gamma().clone()));
    }

    /** Number of missing-value patterns whose sub-factors are currently cached (for tests and monitoring). */
    public int cachedPatterns() {
        return marginals.size();
    }

    private void fullLogJoint(double[] x, double[] logJoint) {
        double[] r = new double[d];
        for (int k = 0; k < classCount; k++) {
            double[] mu = means[k];
            for (int j = 0; j < d; j++) {
                r[j] = x[j] - mu[j];
            }
            CholeskyFactor l = factors[k];
            l.solveLower(r);
            logJoint[k] = logPriors[k] + logGaussian(d, l.halfLogDeterminant(), sumOfSquares(r, d));
        }
    }

    private void tiedLogJoint(double[] x, double[] logJoint) {
        // L⁻¹(x − μ_k) = L⁻¹(x − μ_0) − L⁻¹(μ_k − μ_0): one substitution, and both differences stay small
        // when the data sit on a large offset.
        double[] z = new double[d];
        double[] mu0 = means[0];
        for (int j = 0; j < d; j++) {
            z[j] = x[j] - mu0[j];
        }
        CholeskyFactor l = factors[0];
        l.solveLower(z);
        double halfLogDet = l.halfLogDeterminant();
        for (int k = 0; k < classCount; k++) {
            double[] offset = whitenedMeanOffsets[k];
            double q = 0.0;
            for (int j = 0; j < d; j++) {
                double v = z[j] - offset[j];
                q += v * v;
            }
            logJoint[k] = logPriors[k] + logGaussian(d, halfLogDet, q);
        }
    }

    /** Independent coordinates: a missing one (NaN) is simply left out of the sums, no sub-factor needed. */
    private void diagLogJoint(double[] x, double[] logJoint) {
        for (int k = 0; k < classCount; k++) {
            double[] mu = means[k];
            double[] inv = inverseStdDevs[k];
            double[] logSd = logStdDevs[k];
            double q = 0.0;
            double halfLogDet = 0.0;
            int observed = 0;
            for (int j = 0; j < d; j++) {
                if (!Double.isNaN(x[j])) {
                    double v = (x[j] - mu[j]) * inv[j];
                    q += v * v;
                    halfLogDet += logSd[j];
                    observed++;
                }
            }
            logJoint[k] = logPriors[k] + logGaussian(observed, halfLogDet, q);
        }
    }

    /** FULL and TIED with some coordinates missing: factors of the observed sub-matrices, cached per pattern. */
    private void marginalLogJoint(double[] x, MissingPattern pattern, double[] logJoint) {
        Marginal marginal = marginals.get(pattern);
        if (marginal == null) {
            marginal = new Marginal(pattern.observedIndices(d));
            // Reserve a slot first: checking size() and then inserting lets concurrent callers overshoot the bound.
            if (cacheSlots.incrementAndGet() <= MAX_CACHED_PATTERNS) {
                Marginal raced = marginals.putIfAbsent(pattern, marginal);
                if (raced != null) {
                    marginal = raced;
                    cacheSlots.decrementAndGet();
                }
            } else {
                cacheSlots.decrementAndGet();
            }
        }
        int[] observed = marginal.observed;
        int m = observed.length;
        double[] r = new double[m];
        for (int k = 0; k < classCount; k++) {
            double[] mu = means[k];
            for (int i = 0; i < m; i++) {
                r[i] = x[observed[i]] - mu[observed[i]];
            }
            CholeskyFactor l = marginal.factor(type == CovarianceType.TIED ? 0 : k);
            l.solveLower(r);
            logJoint[k] = logPriors[k] + logGaussian(m, l.halfLogDeterminant(), sumOfSquares(r, m));
        }
    }

    private Posterior posterior(double[] logJoint) {
        for (int k = 0; k < classCount; k++) {
            if (!(logJoint[k] > Double.NEGATIVE_INFINITY)) {
                logJoint[k] = Double.NEGATIVE_INFINITY;
            }
        }
        double logDensity = LogSumExp.of(logJoint);
        double[] probabilities = new double[classCount];
        if (logDensity == Double.NEGATIVE_INFINITY) {
            for (int k = 0; k < classCount; k++) {
                probabilities[k] = Math.exp(logPriors[k]);
            }
            logDensity = -Double.MAX_VALUE;
        } else {
            double sum = 0.0;
            for (int k = 0; k < classCount; k++) {
                probabilities[k] = Math.exp(logJoint[k] - logDensity);
                sum += probabilities[k];
            }
            // exp and log round differently; renormalise so that the probabilities sum to 1 to the last bit.
            for (int k = 0; k < classCount; k++) {
                probabilities[k] /= sum;
            }
        }
        int predicted = 0;
        for (int k = 0; k < classCount; k++) {
            if (logJoint[k] == Double.NEGATIVE_INFINITY) {
                logJoint[k] = -Double.MAX_VALUE;
            }
            if (probabilities[k] > probabilities[predicted]) {
                predicted = k;
            }
        }
        return new Posterior(predicted, probabilities, logJoint, logDensity);
    }

    /** −½(m·log 2π + 2·halfLogDet + q); −∞ when q overflowed. */
    private static double logGaussian(int m, double halfLogDet, double q) {
        if (!(q < Double.POSITIVE_INFINITY)) {
            return Double.NEGATIVE_INFINITY;
        }
        return -0.5 * (m * LOG_2PI + q) - halfLogDet;
    }

    private static double sumOfSquares(double[] r, int length) {
        double q = 0.0;
        for (int i = 0; i < length; i++) {
            q += r[i] * r[i];
        }
        return q;
    }

    private LinearDiscriminants linearDiscriminants() {
        double[][] beta = new double[classCount][];
        double[] gamma = new double[classCount];
        CholeskyFactor l = factors[0];
        for (int k = 0; k < classCount; k++) {
            double[] b = means[k].clone();
            l.solveLower(b);
            l.solveLowerTransposed(b);
            double quadratic = 0.0;
            for (int j = 0; j < d; j++) {
                quadratic += means[k][j] * b[j];
            }
            beta[k] = b;
            gamma[k] = -0.5 * quadratic + logPriors[k];
        }
        return new LinearDiscriminants(beta, gamma);
    }

    private static MissingPattern missingPattern(double[] x) {
        long[] words = new long[(x.length + 63) >>> 6];
        for (int j = 0; j < x.length; j++) {
            if (Double.isNaN(x[j])) {
                words[j >>> 6] |= 1L << (j & 63);
            }
        }
        return new MissingPattern(words);
    }

    /** The set of missing coordinates, as a bit set. */
    private static final class MissingPattern {
        private final long[] words;
        private final int hash;

        MissingPattern(long[] words) {
            this.words = words;
            this.hash = Arrays.hashCode(words);
        }

        int[] observedIndices(int d) {
            int count = 0;
            for (int j = 0; j < d; j++) {
                if (!isMissing(j)) {
                    count++;
                }
            }
            int[] observed = new int[count];
            int i = 0;
            for (int j = 0; j < d; j++) {
                if (!isMissing(j)) {
                    observed[i++] = j;
                }
            }
            return observed;
        }

        private boolean isMissing(int j) {
            return (words[j >>> 6] & (1L << (j & 63))) != 0;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof MissingPattern && Arrays.equals(words, ((MissingPattern) o).words);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** Cholesky factors of the sub-matrices Σ_k,OO for one set O of observed coordinates. */
    private final class Marginal {
        final int[] observed;
        private final CholeskyFactor[] subFactors;

        Marginal(int[] observed) {
            this.observed = observed;
            int count = type == CovarianceType.TIED ? 1 : classCount;
            this.subFactors = new CholeskyFactor[count];
            for (int k = 0; k < count; k++) {
                subFactors[k] = subFactor(model.covarianceView(k), observed);
            }
        }

        CholeskyFactor factor(int k) {
            return subFactors[k];
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
