package io.gdastreams.math;

/**
 * What a training keeps per class ({@code gda.statistics}): the full scatter matrix, which every covariance type can
 * be fitted from, or its diagonal only ({@link RunningGaussian#diagonal}), O(d) per event instead of O(d²), which
 * only Gaussian naive Bayes ({@link CovarianceType#DIAG}) can use.
 */
public enum Statistics {
    /** S = Σ w (x − μ)(x − μ)ᵀ, packed upper triangle: every covariance type. */
    FULL,
    /** S_ii only: {@link CovarianceType#DIAG} only. */
    DIAGONAL;

    /** An empty statistic of this kind and dimension d ≥ 1. */
    public RunningGaussian create(int d) {
        return RunningGaussian.of(d, this == DIAGONAL);
    }

    /** Whether a model trained with these statistics can be fitted with {@code type}. */
    public boolean supports(CovarianceType type) {
        return this == FULL || type == CovarianceType.DIAG;
    }
}
