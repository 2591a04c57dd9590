package io.gdastreams.math;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gaussian class-conditional parameters fitted from class statistics: priors, means and the effective
 * covariance per class after the estimator, shrinkage, variance floor and (last resort) jitter.
 * Immutable; getters return copies.
 *
 * <h2>Exact rules</h2>
 * With S_k the scatter and n_k the count of class k, applied in this order (with sample weights or forgetting,
 * W_k = Σ w_i stands for n_k, the unbiased divisors are W_k − V_k/W_k and Σ_k (W_k − V_k/W_k), and the minimum
 * count applies to the effective sample size W_k²/V_k: see {@link ClassSummary}):
 * <ol>
 *   <li><b>Exclusion.</b> A class is left out of scoring (with a readable reason in {@link #excluded()}) when
 *       n_k &lt; minCount; with UNBIASED and FULL or DIAG when n_k &lt; 2; with UNBIASED and TIED every class is
 *       left out when n ≤ K (n and K over the classes that passed the count test). A class is also left out
 *       when its covariance is not positive definite even after the jitter of step 6 (for TIED: all classes).
 *       Only included classes appear in {@link #labels()} and the per-class getters.</li>
 *   <li><b>Priors.</b> π_k = n_k / n with n = Σ n_k over the included classes (weighted: W_k / Σ W). With
 *       fixed priors p_k ({@link FitOptions#fixedPriors()}) π_k = p_k / Σ p_j over the included classes, and a
 *       class they do not list is left out (first of the exclusions of rule 1).</li>
 *   <li><b>Estimator.</b> FULL: Σ_k = S_k / n_k (UNBIASED: n_k − 1). TIED: Σ = Σ_k S_k / n (UNBIASED: n − K),
 *       sums over the included classes. DIAG: Σ_k = diag(S_k) / n_k (UNBIASED: n_k − 1).</li>
 *   <li><b>Shrinkage.</b> Σ ← (1 − r)·Σ + r·(tr Σ / d)·I with r = regParam (skipped when r = 0).</li>
 *   <li><b>Variance floor.</b> Each diagonal entry is clamped: Σ_jj ← max(Σ_jj, f·w_j), f = varianceFloor, where
 *       w_j is the pooled within-class variance of feature j over all data, Σ_k S_k,jj / n over every class
 *       given to {@link #fit} (excluded ones too), so the floor does not depend on the last batch, nor on how far
 *       apart the class means are. When w_j = 0 (every class constant in feature j, e.g. single observations)
 *       w_j falls back to the MLE variance of feature j over all classes merged, and when that is 0 too (a
 *       feature constant everywhere) to 1: the floor is then f in the squared units of feature j. A clamp, not
 *       additive smoothing: a class whose variances are all above the floor is unchanged.</li>
 *   <li><b>Jitter</b> (last resort). If the Cholesky factorisation fails (see {@link CholeskyFactor}: a pivot
 *       L_ii² below 1e-12·Σ_ii counts as failure), ε·s is added to the diagonal with ε = 1e-12, 1e-11, …,
 *       {@value #MAX_JITTER} (first success wins) and s = tr Σ / d (if that is 0: the mean of the v_j; if that is
 *       0 too: 1). The amount is reported by {@link #jitter(int)} and is part of {@link #covariance(int)}.
 *       Beyond the cap the class is excluded.</li>
 * </ol>
 * The type-specific parts of rules 1 and 3 are the type's {@link CovarianceStructure} ({@link FullCovariance},
 * {@link TiedCovariance}, {@link DiagonalCovariance}); rules 4 to 6 are {@link Regularisation}.
 */
public final class GaussianModel {

    /** Largest relative jitter ε tried before a class is excluded (see {@link Regularisation}). */
    public static final double MAX_JITTER = 1e-2;

    private final FitOptions options;
    private final CovarianceStructure structure;
    private final int d;
    private final List<String> labels;
    private final long[] counts;
    private final double[] priors;
    private final double[][] means;
    /** Effective covariances; for TIED every entry is the same pooled matrix. Never handed out. */
    private final double[][][] covariances;
    private final CholeskyFactor[] factors;
    private final double[] jitters;
    private final List<Exclusion> excluded;

    private GaussianModel(FitOptions options, CovarianceStructure structure, int d, List<String> labels,
                          long[] counts, double[] weights, double[][] means, double[][][] covariances,
                          CholeskyFactor[] factors, double[] jitters, List<Exclusion> excluded) {
        this.options = options;
        this.structure = structure;
        this.d = d;
        this.labels = List.copyOf(labels);
        this.counts = counts;
        this.means = means;
        this.covariances = covariances;
        this.factors = factors;
        this.jitters = jitters;
        this.excluded = List.copyOf(excluded);
        // W_k = n_k when unweighted, so these are n_k / n exactly as before weights existed. Fixed priors replace
        // them, renormalised over the classes that take part.
        Map<String, Double> fixed = options.fixedPriors();
        double n = 0;
        for (int k = 0; k < weights.length; k++) {
            n += fixed.isEmpty() ? weights[k] : fixed.get(this.labels.get(k));
        }
        this.priors = new double[counts.length];
        for (int k = 0; k < counts.length; k++) {
            priors[k] = (fixed.isEmpty() ? weights[k] : fixed.get(this.labels.get(k))) / n;
        }
    }

    /**
     * Fits a model. {@code classes}: not modified; any order (labels keep input order); at least one class, all of
     * the same dimension, distinct labels, counts ≥ 0, finite means and scatters. The class rules are applied as
     * described in the class comment; a fit never fails because of degenerate data, it excludes classes instead.
     */
    public static GaussianModel fit(List<ClassSummary> classes, FitOptions options) {
        if (options == null) {
            throw new IllegalArgumentException("options are required");
        }
        int d = validate(classes);
        CovarianceStructure structure = options.covarianceType().structure();
        Regularisation regularisation = Regularisation.of(classes, d, options);

        List<Exclusion> excluded = new ArrayList<>();
        List<ClassSummary> candidates = new ArrayList<>();
        for (ClassSummary c : classes) {
            Optional<String> reason = withoutFixedPrior(c, options)
                    .or(() -> belowMinimum(c, options.minCount()))
                    .or(() -> structure.exclusion(c, options.estimator()));
            if (reason.isPresent()) {
                excluded.add(new Exclusion(c.label(), reason.get()));
            } else {
                candidates.add(c);
            }
        }
        List<CovarianceStructure.Fitted> included =
                structure.fit(candidates, options.estimator(), regularisation, excluded);

        int k = included.size();
        List<String> labels = new ArrayList<>(k);
        long[] counts = new long[k];
        double[] weights = new double[k];
        double[][] means = new double[k][];
        double[][][] covariances = new double[k][][];
        CholeskyFactor[] factors = new CholeskyFactor[k];
        double[] jitters = new double[k];
        for (int i = 0; i < k; i++) {
            CovarianceStructure.Fitted c = included.get(i);
            labels.add(c.summary().label());
            counts[i] = c.summary().count();
            weights[i] = c.summary().weight();
            means[i] = c.summary().mean().clone();
            covariances[i] = c.fit().covariance();
            factors[i] = c.fit().factor();
            jitters[i] = c.fit().jitter();
        }
        return new GaussianModel(options, structure, d, labels, counts, weights, means, covariances, factors,
                jitters, excluded);
    }

    /** With fixed priors, a class they do not list has no prior belief and takes no part. */
    private static Optional<String> withoutFixedPrior(ClassSummary c, FitOptions options) {
        return options.fixedPriors().isEmpty() || options.fixedPriors().containsKey(c.label()) ? Optional.empty()
                : Optional.of("no fixed prior (the fixed priors list " + options.fixedPriors().keySet() + ")");
    }

    /**
     * Rule 1's count test: n_k &lt; minCount, or for weighted statistics Kish's effective sample size W²/V &lt;
     * minCount (n_k when every weight is 1; a class whose weight decayed or was retracted away has 0), up to its
     * rounding ({@link ClassSummary#EFFECTIVE_SIZE_TOLERANCE}).
     */
    private static Optional<String> belowMinimum(ClassSummary c, long minCount) {
        if (!c.isWeighted()) {
            return c.count() < minCount ? Optional.of("count " + c.count() + " below minimum " + minCount)
                    : Optional.empty();
        }
        double effective = c.effectiveSampleSize();
        return !ClassSummary.reaches(effective, minCount) ? Optional.of("effective sample"
                + " size " + effective + " (W = " + c.weight() + " over " + c.count() + " events) below minimum "
                + minCount) : Optional.empty();
    }

    public FitOptions options() {
        return options;
    }

    public int dimension() {
        return d;
    }

    /** Labels of the classes that take part in scoring, in input order. */
    public List<String> labels() {
        return labels;
    }

    public long[] counts() {
        return counts.clone();
    }

    public double[] priors() {
        return priors.clone();
    }

    /** K × d. */
    public double[][] means() {
        double[][] copy = new double[means.length][];
        for (int k = 0; k < means.length; k++) {
            copy[k] = means[k].clone();
        }
        return copy;
    }

    /** Effective covariance of class k (d × d; for TIED the pooled matrix; for DIAG a diagonal matrix). */
    public double[][] covariance(int k) {
        double[][] copy = new double[d][];
        for (int i = 0; i < d; i++) {
            copy[i] = covariances[k][i].clone();
        }
        return copy;
    }

    /** Classes left out of scoring, with reasons. */
    public List<Exclusion> excluded() {
        return excluded;
    }

    /** Jitter added to the diagonal of class k's covariance as a last resort (0 when none was needed). */
    public double jitter(int k) {
        return jitters[k];
    }

    // Package-private views without copies, for the compiled forms and GaussianSampler (which do not modify them).

    /** The structure this model was fitted with: it compiles the model for scoring. */
    CovarianceStructure structure() {
        return structure;
    }

    CholeskyFactor factor(int k) {
        return factors[k];
    }

    double[] meanView(int k) {
        return means[k];
    }

    double[][] covarianceView(int k) {
        return covariances[k];
    }

    double priorView(int k) {
        return priors[k];
    }

    private static int validate(List<ClassSummary> classes) {
        if (classes == null || classes.isEmpty()) {
            throw new IllegalArgumentException("at least one class is required");
        }
        int d = classes.get(0).mean().length;
        if (d < 1) {
            throw new IllegalArgumentException("dimension must be >= 1");
        }
        Set<String> seen = new HashSet<>();
        for (ClassSummary c : classes) {
            if (!seen.add(c.label())) {
                throw new IllegalArgumentException("duplicate label " + c.label());
            }
            if (c.count() < 0) {
                throw new IllegalArgumentException("negative count for " + c.label());
            }
            if (c.mean().length != d || c.scatter().length != d) {
                throw new IllegalArgumentException("dimension mismatch for " + c.label());
            }
            for (int i = 0; i < d; i++) {
                if (c.scatter()[i].length != d) {
                    throw new IllegalArgumentException("scatter of " + c.label() + " is not " + d + " x " + d);
                }
                if (!Double.isFinite(c.mean()[i])) {
                    throw new IllegalArgumentException("non-finite mean for " + c.label());
                }
                for (int j = 0; j < d; j++) {
                    if (!Double.isFinite(c.scatter()[i][j])) {
                        throw new IllegalArgumentException("non-finite scatter for " + c.label());
                    }
                }
            }
        }
        return d;
    }

    @Override
    public String toString() {
        return "GaussianModel" + Collections.unmodifiableList(labels) + " " + options;
    }
}
