package io.gdastreams.model;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.math.RunningGaussian;

/**
 * One class of a published model. {@code covariance} is the MLE S_k / n_k; every scorer variant (tied, diag,
 * unbiased) is derived from count, mean and covariance.
 */
public record ClassParameters(String label, long count, double prior, double[] mean, double[][] covariance) {

    /**
     * Class {@code label} as published from its statistics: count n_k, prior n_k / n with n = {@code totalCount},
     * mean and MLE covariance ({@link ClassSummary#mleCovariance()}). {@code stats}: not modified.
     */
    public static ClassParameters of(String label, RunningGaussian stats, long totalCount) {
        ClassSummary summary = ClassSummary.of(label, stats);
        return new ClassParameters(label, summary.count(), (double) summary.count() / totalCount, summary.mean(),
                summary.mleCovariance());
    }
}
