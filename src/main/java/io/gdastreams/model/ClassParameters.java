package io.gdastreams.model;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.math.RunningGaussian;

/**
 * One class of a published model. {@code covariance} is the MLE S_k / n_k (weighted: S_k / W_k); every scorer
 * variant (tied, diag, unbiased) is derived from count, mean and covariance, and the weights when there are any.
 *
 * @param count the raw count of events in the class (added less retracted; weight-0 events included)
 * @param prior n_k / n, or W_k / Σ W when the class statistics are weighted
 * @param effectiveCount W_k = Σ w_i, the class's weight (sample weights, forgetting); null for an unweighted
 *                       class (W_k = n_k), and then left out of the JSON, so that such a model reads and writes as
 *                       before weights existed
 * @param effectiveSampleSize Kish's W_k²/V_k with V_k = Σ w_i²; null exactly when {@code effectiveCount} is
 */
public record ClassParameters(String label, long count, double prior, double[] mean, double[][] covariance,
                              Double effectiveCount, Double effectiveSampleSize) {

    /**
     * A class whose weights equal its count (both n_k) is an unweighted class: stored as one, so that it writes
     * and reads the same whichever way it was made.
     */
    public ClassParameters {
        if ((effectiveCount == null) != (effectiveSampleSize == null)) {
            throw new IllegalArgumentException("effectiveCount and effectiveSampleSize go together");
        }
        if (effectiveCount != null && effectiveCount == count && effectiveSampleSize == count) {
            effectiveCount = null;
            effectiveSampleSize = null;
        }
    }

    /** An unweighted class. */
    public ClassParameters(String label, long count, double prior, double[] mean, double[][] covariance) {
        this(label, count, prior, mean, covariance, null, null);
    }

    /**
     * The size the scorer's {@code gda.min.count} is compared with: Kish's effective sample size when the class
     * carries weights, else the count.
     */
    public double sampleSize() {
        return effectiveSampleSize != null ? effectiveSampleSize : count;
    }

    /** Whether the class carries weights ({@link #effectiveCount} is set). */
    public boolean carriesWeights() {
        return effectiveCount != null;
    }

    /**
     * Class {@code label} as published from its statistics: count n_k, prior n_k / n with n = {@code totalCount},
     * mean and MLE covariance ({@link ClassSummary#mleCovariance()}). {@code stats}: not modified.
     */
    public static ClassParameters of(String label, RunningGaussian stats, long totalCount) {
        ClassSummary summary = ClassSummary.of(label, stats);
        return new ClassParameters(label, summary.count(), (double) summary.count() / totalCount, summary.mean(),
                summary.mleCovariance());
    }

    /**
     * Class {@code label} of weighted statistics: prior W_k / {@code totalWeight} (0 when that is 0), mean, MLE
     * covariance S_k / W_k (zero when W_k = 0), effective count and sample size. {@code stats}: not modified.
     */
    public static ClassParameters ofWeighted(String label, RunningGaussian stats, double totalWeight) {
        ClassSummary summary = ClassSummary.of(label, stats);
        double prior = totalWeight > 0 ? summary.weight() / totalWeight : 0.0;
        return new ClassParameters(label, summary.count(), prior, summary.mean(), summary.mleCovariance(),
                summary.weight(), summary.effectiveSampleSize());
    }
}
