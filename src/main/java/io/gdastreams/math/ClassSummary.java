package io.gdastreams.math;

/**
 * Sufficient statistics of one class: the input from which every classifier variant is fitted.
 *
 * <p>With sample weights or forgetting, W = Σ w_i takes the place of n_k wherever the count weighs the class
 * (priors, MLE divisor, pooling), and the unbiased divisor is the one of reliability weights, W − V/W with
 * V = Σ w_i² (n_k − 1 when every weight is 1). The minimum count applies to Kish's effective sample size W²/V,
 * which is n_k when every weight is 1. Unweighted, W = V = n_k and every result is what it was without weights.
 *
 * <p>A published model carries the maximum-likelihood covariance Σ_k = S_k / n_k of each class rather than the
 * scatter; {@link #mleCovariance()} and {@link #ofMleCovariance} are the two directions of that one conversion.
 *
 * @param label   class label
 * @param count   number of observations n_k
 * @param mean    μ_k, length d (not copied: callers hand over ownership)
 * @param scatter S_k = Σ w_i (x−μ_k)(x−μ_k)ᵀ, d × d symmetric (not copied)
 * @param weight  W = Σ w_i (n_k when unweighted)
 * @param squaredWeights V = Σ w_i² (n_k when unweighted)
 */
public record ClassSummary(String label, long count, double[] mean, double[][] scatter, double weight,
                           double squaredWeights) {

    /**
     * The relative rounding within which an effective sample size counts as the whole number it is near: W²/V of
     * n equal weights, decayed or partly retracted, comes out a few ulps either side of n (0.9999999999999997 for
     * one decayed event). Reaching a minimum count and having more than one effective event (the unbiased divisor)
     * are judged with it, so that rounding neither drops a class at its minimum nor fits one of a single event;
     * 2^-30 leaves the noise of the divisor W − V/W below a millionth of any divisor it admits.
     */
    static final double EFFECTIVE_SIZE_TOLERANCE = 0x1p-30;

    /**
     * Whether a class of sample size {@code sampleSize} (its count, or its effective sample size W²/V when weighted)
     * reaches {@code minCount}, up to the rounding of W²/V ({@link #EFFECTIVE_SIZE_TOLERANCE}; a whole number, a
     * count, is compared exactly): the one test of {@code gda.min.count}, for the scorer's fit, the trainer's reset
     * gate and the drift test's warm-up alike.
     */
    public static boolean reaches(double sampleSize, long minCount) {
        return sampleSize >= minCount
                || sampleSize != Math.rint(sampleSize) && sampleSize >= minCount * (1 - EFFECTIVE_SIZE_TOLERANCE);
    }

    /**
     * More than one effective event, beyond rounding: the unbiased divisor W − V/W = W (1 − 1/n_eff) is then a
     * number, not rounding noise of about an ulp of W (one event left after retractions or decay), which no
     * covariance may be divided by.
     */
    boolean hasUnbiasedDivisor() {
        return effectiveSampleSize() > 1 + EFFECTIVE_SIZE_TOLERANCE;
    }

    /** Unweighted statistics: W = V = n_k. */
    public ClassSummary(String label, long count, double[] mean, double[][] scatter) {
        this(label, count, mean, scatter, count, count);
    }

    /** Summary of a running statistic (copies its mean and scatter). */
    public static ClassSummary of(String label, RunningGaussian stats) {
        return new ClassSummary(label, stats.count(), stats.mean(), stats.scatter(), stats.weight(),
                stats.squaredWeights());
    }

    /** W²/V, exactly W when V = W (every weight 1); 0 when W = 0. */
    static double effectiveSampleSize(double weight, double squaredWeights) {
        if (squaredWeights == weight) {
            return weight;
        }
        return squaredWeights > 0 ? weight * weight / squaredWeights : 0.0;
    }

    /** Kish's effective sample size W²/V (n_k when unweighted): what the minimum count applies to. */
    public double effectiveSampleSize() {
        return effectiveSampleSize(weight, squaredWeights);
    }

    /** Whether the weights are not all 1 (W or V differs from n_k). */
    public boolean isWeighted() {
        return weight != count || squaredWeights != count;
    }

    /**
     * The statistics of a class published with count n_k and maximum-likelihood covariance Σ_k: the scatter is
     * recovered as S_k = Σ_k · n_k. {@code covariance}: d × d, not modified; {@code mean} is not copied. Nothing
     * is checked here: a caller that reads a model from outside checks its shape, and the finiteness and symmetry
     * of the result.
     */
    public static ClassSummary ofMleCovariance(String label, long count, double[] mean, double[][] covariance) {
        return ofMleCovariance(label, count, mean, covariance, count, count);
    }

    /** As {@link #ofMleCovariance(String, long, double[], double[][])} with weights: S_k = Σ_k · W. */
    public static ClassSummary ofMleCovariance(String label, long count, double[] mean, double[][] covariance,
                                               double weight, double squaredWeights) {
        double[][] scatter = new double[covariance.length][];
        for (int i = 0; i < covariance.length; i++) {
            scatter[i] = new double[covariance[i].length];
            for (int j = 0; j < scatter[i].length; j++) {
                scatter[i][j] = covariance[i][j] * weight;
            }
        }
        return new ClassSummary(label, count, mean, scatter, weight, squaredWeights);
    }

    /**
     * The maximum-likelihood covariance S_k / W (a new matrix): rule 3 of {@link GaussianModel} for FULL and MLE,
     * before shrinkage and floor. It is what a published model carries. A class of W = 0 (every observation
     * retracted, or all its weight forgotten) has the zero matrix, so that its model record stays finite (the scorer
     * excludes it: its count or effective sample size is 0).
     */
    public double[][] mleCovariance() {
        if (weight == 0) {
            return new double[scatter.length][scatter.length];
        }
        return new FullCovariance().estimate(scatter, Estimator.MLE.divisor(this));
    }
}
