package io.gdastreams.math;

/** Divisor used to turn scatter matrices into covariances. */
public enum Estimator {
    /** Maximum likelihood: n_k for FULL and DIAG, n for TIED. */
    MLE,
    /** Unbiased, as R's MASS (qda/lda) and e1071 (naiveBayes) use: n_k − 1, n − K, n_k − 1. */
    UNBIASED
}
