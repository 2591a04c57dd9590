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

    /**
     * The divisor of one class's scatter: W for MLE, W − V/W for UNBIASED (reliability weights; exactly n_k − 1
     * when every weight is 1, since then V/W = 1).
     */
    double divisor(ClassSummary c) {
        return lostPerMean == 0 ? c.weight() : c.weight() - c.squaredWeights() / c.weight();
    }

    /** The divisor of the scatter pooled over {@code classes}: ΣW for MLE, Σ (W_k − V_k/W_k) for UNBIASED. */
    double pooledDivisor(Iterable<ClassSummary> classes) {
        double divisor = 0;
        for (ClassSummary c : classes) {
            divisor += divisor(c);
        }
        return divisor;
    }
}
