package io.gdastreams.model;

/**
 * One class of a published model. {@code covariance} is the MLE S_k / n_k; every scorer variant (tied, diag,
 * unbiased) is derived from count, mean and covariance.
 */
public record ClassParameters(String label, long count, double prior, double[] mean, double[][] covariance) {
}
