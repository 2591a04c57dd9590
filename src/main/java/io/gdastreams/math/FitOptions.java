package io.gdastreams.math;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a {@link GaussianModel} is fitted from class statistics.
 *
 * @param covarianceType FULL (QDA), TIED (LDA) or DIAG (naive Bayes)
 * @param estimator      MLE or UNBIASED divisors
 * @param regParam       r in [0, 1]: Σ ← (1−r)Σ + r·(tr Σ / d)·I
 * @param varianceFloor  relative variance floor (see GaussianModel for the exact rule), ≥ 0
 * @param minCount       classes with fewer observations are excluded from scoring, ≥ 1
 * @param fixedPriors    label → prior belief P(y = k), each in (0, 1], summing to 1 (within
 *                       {@link #PRIOR_SUM_TOLERANCE}); they replace the learned priors, and a class not listed is
 *                       excluded. Empty: the priors are learned (n_k / n, or W_k / ΣW)
 */
public record FitOptions(CovarianceType covarianceType, Estimator estimator, double regParam,
                         double varianceFloor, long minCount, Map<String, Double> fixedPriors) {

    /** How far the fixed priors may sum from 1 (rounding of decimal text). */
    public static final double PRIOR_SUM_TOLERANCE = 1e-9;

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
        fixedPriors = Collections.unmodifiableMap(new LinkedHashMap<>(fixedPriors));
        String problem = fixedPriorsProblem(fixedPriors);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Learned priors. */
    public FitOptions(CovarianceType covarianceType, Estimator estimator, double regParam, double varianceFloor,
                      long minCount) {
        this(covarianceType, estimator, regParam, varianceFloor, minCount, Map.of());
    }

    /** Why {@code priors} cannot be fixed priors, or null (empty is fine: learned priors). */
    public static String fixedPriorsProblem(Map<String, Double> priors) {
        double sum = 0;
        for (Map.Entry<String, Double> prior : priors.entrySet()) {
            Double p = prior.getValue();
            if (prior.getKey() == null || p == null || !(p > 0.0 && p <= 1.0)) {
                return "fixed prior of '" + prior.getKey() + "' must be in (0, 1], got " + p;
            }
            sum += p;
        }
        if (!priors.isEmpty() && Math.abs(sum - 1.0) > PRIOR_SUM_TOLERANCE) {
            return "fixed priors must sum to 1, got " + sum;
        }
        return null;
    }

    /** QDA with MLE divisors, no shrinkage, the default floor and minimum count. */
    public static FitOptions defaults() {
        return new FitOptions(CovarianceType.FULL, Estimator.MLE, 0.0, DEFAULT_VARIANCE_FLOOR, DEFAULT_MIN_COUNT);
    }

    public FitOptions withCovarianceType(CovarianceType type) {
        return new FitOptions(type, estimator, regParam, varianceFloor, minCount, fixedPriors);
    }

    public FitOptions withEstimator(Estimator value) {
        return new FitOptions(covarianceType, value, regParam, varianceFloor, minCount, fixedPriors);
    }

    public FitOptions withRegParam(double value) {
        return new FitOptions(covarianceType, estimator, value, varianceFloor, minCount, fixedPriors);
    }

    public FitOptions withVarianceFloor(double value) {
        return new FitOptions(covarianceType, estimator, regParam, value, minCount, fixedPriors);
    }

    public FitOptions withMinCount(long value) {
        return new FitOptions(covarianceType, estimator, regParam, varianceFloor, value, fixedPriors);
    }

    /** These options with fixed priors (empty: learned). */
    public FitOptions withFixedPriors(Map<String, Double> value) {
        return new FitOptions(covarianceType, estimator, regParam, varianceFloor, minCount, value);
    }
}
