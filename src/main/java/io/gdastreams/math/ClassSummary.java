package io.gdastreams.math;

/**
 * Sufficient statistics of one class: the input from which every classifier variant is fitted.
 *
 * <p>A published model carries the maximum-likelihood covariance Σ_k = S_k / n_k of each class rather than the
 * scatter; {@link #mleCovariance()} and {@link #ofMleCovariance} are the two directions of that one conversion.
 *
 * @param label   class label
 * @param count   number of observations n_k
 * @param mean    μ_k, length d (not copied: callers hand over ownership)
 * @param scatter S_k = Σ (x−μ_k)(x−μ_k)ᵀ, d × d symmetric (not copied)
 */
public record ClassSummary(String label, long count, double[] mean, double[][] scatter) {

    /** Summary of a running statistic (copies its mean and scatter). */
    public static ClassSummary of(String label, RunningGaussian stats) {
        return new ClassSummary(label, stats.count(), stats.mean(), stats.scatter());
    }

    /**
     * The statistics of a class published with count n_k and maximum-likelihood covariance Σ_k: the scatter is
     * recovered as S_k = Σ_k · n_k. {@code covariance}: d × d, not modified; {@code mean} is not copied. Nothing
     * is checked here: a caller that reads a model from outside checks its shape, and the finiteness and symmetry
     * of the result.
     */
    public static ClassSummary ofMleCovariance(String label, long count, double[] mean, double[][] covariance) {
        double[][] scatter = new double[covariance.length][];
        for (int i = 0; i < covariance.length; i++) {
            scatter[i] = new double[covariance[i].length];
            for (int j = 0; j < scatter[i].length; j++) {
                scatter[i][j] = covariance[i][j] * count;
            }
        }
        return new ClassSummary(label, count, mean, scatter);
    }

    /**
     * The maximum-likelihood covariance S_k / n_k (a new matrix; not finite when n_k = 0): rule 3 of
     * {@link GaussianModel} for FULL and MLE, before shrinkage and floor. It is what a published model carries.
     */
    public double[][] mleCovariance() {
        return new FullCovariance().estimate(scatter, Estimator.MLE.divisor(count, 1));
    }
}
