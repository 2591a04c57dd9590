package io.gdastreams.math;

/**
 * Sufficient statistics of one class: the input from which every classifier variant is fitted.
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
}
