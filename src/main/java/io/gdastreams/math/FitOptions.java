package io.gdastreams.math;

/**
 * How a {@link GaussianModel} is fitted from class statistics.
 *
 * @param covarianceType FULL (QDA), TIED (LDA) or DIAG (naive Bayes)
 * @param estimator      MLE or UNBIASED divisors
 * @param regParam       r in [0, 1]: Σ ← (1−r)Σ + r·(tr Σ / d)·I
 * @param varianceFloor  relative variance floor (see GaussianModel for the exact rule), ≥ 0
 * @param minCount       classes with fewer observations are excluded from scoring, ≥ 1
 */
public record FitOptions(CovarianceType covarianceType, Estimator estimator, double regParam,
                         double varianceFloor, long minCount) {

    public static final double DEFAULT_VARIANCE_FLOOR = 1e-9;
    public static final long DEFAULT_MIN_COUNT = 2;

    public FitOptions {
        if (covarianceType == null || estimator == null) {
            throw new IllegalArgumentException("covarianceType and estimator are required");
        }
        if (!(regParam >= 0.0 && regParam <= 1.0)) {
            throw new IllegalArgumentException("regParam must be in [0, 1], got " + regParam);
        }
        if (!(varianceFloor >= 0.0) || Double.isInfinite(varianceFloor)) {
            throw new IllegalArgumentException("varianceFloor must be finite and >= 0, got " + varianceFloor);
        }
        if (minCount < 1) {
            throw new IllegalArgumentException("minCount must be >= 1, got " + minCount);
        }
    }

    /** QDA with MLE divisors, no shrinkage, the default floor and minimum count. */
    public static FitOptions defaults() {
        return new FitOptions(CovarianceType.FULL, Estimator.MLE, 0.0, DEFAULT_VARIANCE_FLOOR, DEFAULT_MIN_COUNT);
    }

    public FitOptions withCovarianceType(CovarianceType type) {
        return new FitOptions(type, estimator, regParam, varianceFloor, minCount);
    }

    public FitOptions withEstimator(Estimator value) {
        return new FitOptions(covarianceType, value, regParam, varianceFloor, minCount);
    }

    public FitOptions withRegParam(double value) {
        return new FitOptions(covarianceType, estimator, value, varianceFloor, minCount);
    }

    public FitOptions withVarianceFloor(double value) {
        return new FitOptions(covarianceType, estimator, regParam, value, minCount);
    }

    public FitOptions withMinCount(long value) {
        return new FitOptions(covarianceType, estimator, regParam, varianceFloor, value);
    }
}
