package io.gdastreams.math;

/** How the class covariances are tied together; one set of statistics serves all three. */
public enum CovarianceType {
    /** QDA: one full covariance per class, Σ_k = S_k / n_k. */
    FULL,
    /** LDA: one pooled covariance, Σ = Σ_k S_k / n. */
    TIED,
    /** Gaussian naive Bayes: per-class diagonal, diag(S_k) / n_k. */
    DIAG
}
