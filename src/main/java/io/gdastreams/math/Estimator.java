package io.gdastreams.math;

/** Divisor used to turn scatter matrices into covariances. */
public enum Estimator {
    /** Maximum likelihood: n_k for FULL and DIAG, n for TIED. */
    MLE(0),
    /** Unbiased, as R's MASS (qda/lda) and e1071 (naiveBayes) use: n_k − 1, n − K, n_k − 1. */
    UNBIASED(1);

    /** Degrees of freedom each estimated mean takes from the divisor. */
    private final int lostPerMean;

    Estimator(int lostPerMean) {
        this.lostPerMean = lostPerMean;
    }

    /**
     * The divisor of a scatter summed over {@code count} observations around {@code means} estimated means
     * (1 for one class, K for a pooled scatter): count for MLE, count − means for UNBIASED. Not positive when
     * the estimate does not exist (UNBIASED with count ≤ means; MLE never, as count ≥ minCount ≥ 1).
     */
    long divisor(long count, int means) {
        return count - (long) lostPerMean * means;
    }
}
