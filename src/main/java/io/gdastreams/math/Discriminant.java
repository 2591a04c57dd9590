package io.gdastreams.math;

import java.util.List;
import java.util.Optional;

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
 * <p>{@link #explain} gives the per-class terms of the posterior ({@link Evidence}: log π_k, log N_k(x), the squared
 * Mahalanobis distance and its chi-square tail), {@link #impute} the mean of each missing coordinate given the
 * observed ones, from the same cached factors.
 *
 * <p>The log-joints come from the compiled form of the model's {@link CovarianceStructure}
 * ({@link CompiledCovariance}); this class owns what every form shares: the checks on x, the all-missing case and
 * the posterior.
 *
 * <p>Cost per point: no factorisation when every coordinate is observed: one triangular product with the
 * precomputed inverse Cholesky factor per class for FULL (d(d+1)/2 multiply-adds), one in all for TIED, O(d) per
 * class for DIAG; then K exponentials and one logarithm for the posterior. {@link #score(double[], double[],
 * double[])} writes into the caller's array and allocates nothing (per-thread working space, see
 * {@link ScoringScratch}); the forms that return a {@link Posterior} allocate it and its two K-arrays. For a
 * partial pattern the factors of the sub-matrices are computed once per pattern and cached ({@link MarginalFactors}).
 *
 * <p>Always finite: a log-likelihood that underflows to −∞ (a point astronomically far from a class: its distance
 * overflowed) is reported as −{@link Double#MAX_VALUE}, and the class has probability 0. If that happens for every
 * class, the class nearest in Mahalanobis distance has probability 1, as it has in exact arithmetic wherever the
 * distances tell the classes apart ({@link FarPoint}: the distances taken again at a scale, ties shared), and
 * log p(x), below −1e308, is −{@link Double#MAX_VALUE}.
 */
public final class Discriminant {

    private final GaussianModel model;
    private final int d;
    private final int classCount;
    private final List<String> labels;
    private final double[] logPriors;
    private final CompiledCovariance covariance;

    private Discriminant(GaussianModel model) {
        this.model = model;
        this.d = model.dimension();
        this.labels = model.labels();
        this.classCount = labels.size();
        this.logPriors = new double[classCount];
        for (int k = 0; k < classCount; k++) {
            logPriors[k] = Math.log(model.priorView(k));
        }
        this.covariance = model.structure().compile(model, logPriors);
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
        return score(x, null);
    }

    /**
     * As {@link #score(double[])}, with {@code addedLogLikelihood[k]} (may be null: none) added to class k's
     * log-likelihood before the posterior: the factors of features independent of x given the class, such as the
     * categorical part of a Gaussian–categorical model ({@link CategoricalLikelihood}). logJoint_k and
     * logDensity = log p(x) include it. An entry of −∞ (a probability 0) gives class k probability 0.
     */
    public Posterior score(double[] x, double[] addedLogLikelihood) {
        double[] logJoint = new double[classCount];
        double[] probabilities = new double[classCount];
        double logDensity = score(x, addedLogLikelihood, probabilities, logJoint);
        return posterior(probabilities, logJoint, logDensity);
    }

    /**
     * The allocation-free form of {@link #score(double[], double[])}: writes p(k | x) into {@code posteriorOut}
     * (length K, overwritten) and returns log p(x) (−{@link Double#MAX_VALUE} when every class's log-joint
     * underflowed; the probabilities then go to the nearest class: {@link FarPoint}). Same inputs, checks and numbers
     * as the allocating form; the predicted class is left to the caller (its decision rule). Allocates nothing once
     * the calling thread has scored a model of this dimension (working space: {@link ScoringScratch}) and every
     * coordinate is observed (and some class's distance finite); a missing coordinate costs O(d) bytes for the
     * pattern lookup. Safe to call from several threads at once. After an exception the contents of
     * {@code posteriorOut} are unspecified (x is checked after the kernel has run).
     */
    public double score(double[] x, double[] addedLogLikelihood, double[] posteriorOut) {
        return score(x, addedLogLikelihood, posteriorOut, null);
    }

    /**
     * Scores {@code points[0 … count−1]} as {@link #score(double[], double[], double[])} scores each (no added
     * log-likelihoods), bit for bit: {@code posteriors[i]} (length K, overwritten) receives p(k | x_i) and
     * {@code logDensities[i]} log p(x_i). Faster per point than one call each with the vector module: four points at
     * a time go through one kernel (DIAG and TIED sum their class lanes in one pass, TIED and FULL whiten them side
     * by side), so that their dependent chains, and then their posteriors, overlap (docs/BENCHMARKS.md, "Scores of
     * four points at once"); without it, about the same work as one call each. A point with a missing or infinite
     * coordinate, or a TIED point far out, is scored on its own, with the same answer or exception as
     * {@link #score(double[], double[], double[])}; after an exception the outputs are unspecified. Allocates nothing
     * once the calling thread has scored a model of this dimension.
     */
    public void score(double[][] points, int count, double[][] posteriors, double[] logDensities) {
        if (count < 0 || count > points.length || count > posteriors.length || count > logDensities.length) {
            throw new IllegalArgumentException("count " + count + " outside the arrays: " + points.length
                    + " points, " + posteriors.length + " posteriors, " + logDensities.length + " log densities");
        }
        int i = 0;
        for (; i + CompiledCovariance.GROUP <= count; i += CompiledCovariance.GROUP) {
            for (int p = i; p < i + CompiledCovariance.GROUP; p++) {
                checkShape(points[p]);
                checkOutput(posteriors[p]);
            }
            // A point the group kernel leaves alone (a missing or infinite coordinate, an overflowed distance, a
            // TIED point far out) is scored from the start as score() scores it.
            int alone = covariance.observedLogJoints(points, posteriors, i);
            for (int p = 0; p < CompiledCovariance.GROUP; p++) {
                logDensities[i + p] = (alone & 1 << p) == 0 ? normalise(posteriors[i + p])
                        : score(points[i + p], null, posteriors[i + p], null);
            }
        }
        for (; i < count; i++) {
            logDensities[i] = score(points[i], null, posteriors[i], null);
        }
    }

    /** The score itself; {@code logJointOut} (length K, or null) receives log π_k + log N_k(x) + added_k. */
    private double score(double[] x, double[] addedLogLikelihood, double[] posteriorOut, double[] logJointOut) {
        checkAdded(addedLogLikelihood);
        checkShape(x);
        checkOutput(posteriorOut);
        // Every coordinate observed is the common case: score first, and look at x only if a log-likelihood came out
        // −∞ (a NaN or ±∞ coordinate makes a class's distance NaN or +∞). A scan of x before the kernel, one more
        // dependent chain ahead of the posterior's, cost 10–20 % of a score at d = 16 and a quarter at d = 64 (DIAG).
        double shared = covariance.logLikelihood(x, 0, posteriorOut, null);
        if (!covariance.addLogPriors(posteriorOut, addedLogLikelihood)) {
            int missing = missing(x);
            if (missing > 0) {
                if (missing == d) {
                    java.util.Arrays.fill(posteriorOut, 0.0);
                    shared = 0.0;
                } else {
                    shared = covariance.logLikelihood(x, missing, posteriorOut, null);
                }
                covariance.addLogPriors(posteriorOut, addedLogLikelihood);
            }
            // x is finite where observed: a class whose distance overflowed has probability 0, as computed; if every
            // class's did, the nearest has probability 1 and log p(x) is below −1e308.
            if (FarPoint.posterior(covariance, x, missing, addedLogLikelihood, posteriorOut, logJointOut)) {
                return -Double.MAX_VALUE;
            }
        }
        if (logJointOut != null) {
            for (int k = 0; k < classCount; k++) {
                logJointOut[k] = posteriorOut[k] + shared;
            }
        }
        // The posterior from the log-joints without the shared term (it cancels), log p(x) with it.
        return normalise(posteriorOut) + shared;
    }

    /** {@link #explain(double[], double[])} of a point with continuous features only. */
    public Evidence explain(double[] x) {
        return explain(x, null);
    }

    /**
     * The posterior of one point (as {@link #score}) with the per-class terms it is made of, over the observed
     * coordinates: see {@link Evidence}. {@code addedLogLikelihood} as in {@link #score(double[], double[])}: it is
     * part of each class's log-likelihood (not of its Mahalanobis distance, which is the Gaussian part's). Costs
     * what {@link #score} costs, plus O(K) arrays.
     */
    public Evidence explain(double[] x, double[] addedLogLikelihood) {
        checkAdded(addedLogLikelihood);
        int missing = missing(x);
        double[] logLikelihood = new double[classCount];
        double[] distances = new double[classCount];
        double shared = 0.0;
        if (missing < d) {
            shared = covariance.logLikelihood(x, missing, logLikelihood, distances);
        }
        double[] logJoint = new double[classCount];
        double[] relative = new double[classCount];
        for (int k = 0; k < classCount; k++) {
            if (addedLogLikelihood != null) {
                logLikelihood[k] += addedLogLikelihood[k];
            }
            relative[k] = logPriors[k] + logLikelihood[k];
            logLikelihood[k] += shared;
            logJoint[k] = logPriors[k] + logLikelihood[k];
            // Reported, so finite: an overflowed distance is the largest double, its likelihood the lowest.
            if (!(distances[k] <= Double.MAX_VALUE)) {
                distances[k] = Double.MAX_VALUE;
            }
            if (!(logLikelihood[k] >= -Double.MAX_VALUE)) {
                logLikelihood[k] = -Double.MAX_VALUE;
            }
        }
        // The posterior from the log-joints without the shared term (TIED far out: it would swallow them), or, beyond
        // every class, the nearest class's (as score).
        double logDensity = FarPoint.posterior(covariance, x, missing, addedLogLikelihood, relative, null)
                ? -Double.MAX_VALUE : normalise(relative) + shared;
        return new Evidence(posterior(relative, logJoint, logDensity), d - missing, logPriors.clone(),
                logLikelihood, distances);
    }

    /**
     * {@code x} completed by imputation: a copy in which every missing (NaN) coordinate j is replaced by
     * E[x_j | x_O] = Σ_k p(k | x_O) (μ_kj + Σ_k,jO Σ_k,OO⁻¹ (x_O − μ_k,O)), the mean of the fitted mixture given
     * the observed coordinates, with the effective (regularised) covariances the model scores with; observed
     * coordinates are copied unchanged. {@code posterior}: {@link #score}'s answer for this {@code x}. Nothing
     * observed gives Σ_k π_k μ_k. Uses the cached factors of Σ_OO ({@link #score} has just made them), so it costs
     * one pair of triangular solves per class (one in all for TIED, none for DIAG) and O(K·|M|·|O|).
     *
     * <p>Always finite, like the scores: a mean that overflowed (a point astronomically far out along a strong
     * correlation) is reported as ±{@link Double#MAX_VALUE}; one that overflowed both ways at once (∞ − ∞) carries
     * no usable information and falls back to Σ_k p(k | x_O) μ_kj, the mean that ignores the correlations.
     */
    public double[] impute(double[] x, Posterior posterior) {
        int missing = missing(x);
        double[] p = posterior.probabilities();
        if (p.length != classCount) {
            throw new IllegalArgumentException("expected " + classCount + " probabilities, got " + p.length);
        }
        double[] completed = x.clone();
        if (missing == 0) {
            return completed;
        }
        double[] sum = new double[d];
        covariance.addConditionalMean(x, missing, p, sum);
        for (int j = 0; j < d; j++) {
            if (Double.isNaN(x[j])) {
                double v = sum[j];
                completed[j] = Double.isNaN(v) ? covariance.mixtureMean(p, j) : Math.max(-Double.MAX_VALUE,
                        Math.min(Double.MAX_VALUE, v));
            }
        }
        return completed;
    }

    private void checkAdded(double[] addedLogLikelihood) {
        if (addedLogLikelihood != null && addedLogLikelihood.length != classCount) {
            throw new IllegalArgumentException("expected " + classCount + " added log-likelihoods, got "
                    + addedLogLikelihood.length);
        }
    }

    /** The checks on the shape of x and on the model that {@link #score} documents. */
    private void checkShape(double[] x) {
        if (classCount == 0) {
            throw new IllegalStateException("every class is excluded from scoring: " + model.excluded());
        }
        if (x.length != d) {
            throw new IllegalArgumentException("expected " + d + " values, got " + x.length);
        }
    }

    private void checkOutput(double[] posteriorOut) {
        if (posteriorOut.length != classCount) {
            throw new IllegalArgumentException("expected an output of " + classCount + " probabilities, got "
                    + posteriorOut.length);
        }
    }

    /** The number of missing (NaN) coordinates of x, after the checks on x that {@link #score} documents. */
    private int missing(double[] x) {
        checkShape(x);
        int missing = 0;
        for (double v : x) {
            // v − v is 0 for every finite v and NaN for NaN and ±∞: one test per entry on the common path.
            if (v - v != 0.0) {
                if (Double.isNaN(v)) {
                    missing++;
                } else {
                    throw new IllegalArgumentException("infinite feature value " + v);
                }
            }
        }
        return missing;
    }

    /** β_k, γ_k for a TIED model; empty otherwise (and when every class is excluded). */
    public Optional<LinearDiscriminants> linear() {
        return covariance.linear();
    }

    /** Number of missing-value patterns whose sub-factors are currently cached (for tests and monitoring). */
    public int cachedPatterns() {
        return covariance.cachedPatterns();
    }

    /** Bytes of the sub-factors cached for those patterns (bounded: {@link MarginalFactors}). */
    public long cachedPatternBytes() {
        return covariance.cachedPatternBytes();
    }

    /**
     * log-joints → posterior in place (one exponential per class, one logarithm: {@link LogSumExp#normalise});
     * returns log p(x). Every log-joint −∞ (or NaN) still (no class can be told nearest: {@link FarPoint}): the
     * priors, and −{@link Double#MAX_VALUE} for log p(x).
     */
    private double normalise(double[] v) {
        double logDensity = LogSumExp.normalise(v, classCount);
        if (logDensity == Double.NEGATIVE_INFINITY) {
            for (int k = 0; k < classCount; k++) {
                v[k] = Math.exp(logPriors[k]);
            }
            return -Double.MAX_VALUE;
        }
        return logDensity;
    }

    /** The record of the allocating forms: the most probable class, and log-joints reported finite. */
    private Posterior posterior(double[] probabilities, double[] logJoint, double logDensity) {
        int predicted = 0;
        for (int k = 0; k < classCount; k++) {
            if (!(logJoint[k] > Double.NEGATIVE_INFINITY)) {
                logJoint[k] = -Double.MAX_VALUE;
            }
            if (probabilities[k] > probabilities[predicted]) {
                predicted = k;
            }
        }
        return new Posterior(predicted, probabilities, logJoint, logDensity);
    }
}
