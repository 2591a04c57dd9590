package io.gdastreams.math;

import java.util.List;
import java.util.Optional;

/**
 * Steps 4 to 6 of {@link GaussianModel}'s rules, common to every {@link CovarianceStructure}: shrinkage, variance
 * floor and (last resort) jitter, turning an estimated covariance into one that factorises. The floor and the
 * jitter's fallback scale are computed once per fit, from every class given to it (excluded ones too).
 */
final class Regularisation {

    private static final int MIN_JITTER_EXPONENT = -12;
    private static final int MAX_JITTER_EXPONENT = -2;

    private final double regParam;
    private final double[] floor;
    private final double fallbackScale;

    private Regularisation(double regParam, double[] floor, double fallbackScale) {
        this.regParam = regParam;
        this.floor = floor;
        this.fallbackScale = fallbackScale;
    }

    /** The rules of {@code options} over {@code classes} (validated, dimension d). */
    static Regularisation of(List<ClassSummary> classes, int d, FitOptions options) {
        double[] scale = floorScale(classes, d);
        double[] floor = new double[d];
        for (int j = 0; j < d; j++) {
            floor[j] = options.varianceFloor() * scale[j];
        }
        double mean = 0.0;
        for (double v : scale) {
            mean += v;
        }
        return new Regularisation(options.regParam(), floor, mean / d);
    }

    /** An effective covariance, its factor and the jitter added to its diagonal (0 when none was needed). */
    record Regularised(double[][] covariance, CholeskyFactor factor, double jitter) {
    }

    /**
     * Shrinkage, floor, factorisation and jitter on {@code cov} (modified; returned inside the result); empty
     * when it is not positive definite even with the largest jitter.
     */
    Optional<Regularised> apply(double[][] cov) {
        int d = cov.length;
        double r = regParam;
        if (r > 0.0) {
            double average = trace(cov) / d;
            scale(cov, 1.0 - r);
            for (int i = 0; i < d; i++) {
                cov[i][i] += r * average;
            }
        }
        for (int i = 0; i < d; i++) {
            cov[i][i] = Math.max(cov[i][i], floor[i]);
        }
        Optional<CholeskyFactor> factor = CholeskyFactor.of(cov);
        if (factor.isPresent()) {
            return Optional.of(new Regularised(cov, factor.get(), 0.0));
        }
        double s = trace(cov) / d;
        if (!(s > 0.0) || !Double.isFinite(s)) {
            s = fallbackScale;
        }
        double[][] jittered = new double[d][];
        for (int exponent = MIN_JITTER_EXPONENT; exponent <= MAX_JITTER_EXPONENT; exponent++) {
            double amount = Math.pow(10.0, exponent) * s;
            for (int i = 0; i < d; i++) {
                jittered[i] = cov[i].clone();
                jittered[i][i] += amount;
            }
            factor = CholeskyFactor.of(jittered);
            if (factor.isPresent()) {
                return Optional.of(new Regularised(jittered, factor.get(), amount));
            }
        }
        return Optional.empty();
    }

    /** The exclusion reason of a class whose covariance {@link #apply} could not make positive definite. */
    static String notPositiveDefinite() {
        return "covariance not positive definite even with jitter " + GaussianModel.MAX_JITTER + "·tr(Σ)/d";
    }

    /**
     * MLE variance of each feature over all classes merged (Chan's formula), with the class means taken relative
     * to the first non-empty class's mean so that large offsets do not cancel.
     */
    static double[] totalVariance(List<ClassSummary> classes, int d) {
        double[] v = new double[d];
        double n = 0;
        double[] pivot = null;
        for (ClassSummary c : classes) {
            if (c.weight() > 0) {
                n += c.weight();
                if (pivot == null) {
                    pivot = c.mean();
                }
            }
        }
        if (n == 0) {
            return v;
        }
        for (int j = 0; j < d; j++) {
            double mean = 0.0;
            for (ClassSummary c : classes) {
                mean += c.weight() * (c.mean()[j] - pivot[j]);
            }
            mean /= n;
            double scatter = 0.0;
            for (ClassSummary c : classes) {
                if (c.weight() > 0) {
                    double dev = (c.mean()[j] - pivot[j]) - mean;
                    scatter += c.scatter()[j][j] + c.weight() * dev * dev;
                }
            }
            v[j] = Math.max(scatter / n, 0.0);
        }
        return v;
    }

    /**
     * Per feature, the scale the variance floor is relative to: the pooled within-class variance, else the
     * variance of all data merged, else 1 (see {@link GaussianModel}).
     */
    static double[] floorScale(List<ClassSummary> classes, int d) {
        double[] total = totalVariance(classes, d);
        double[] scale = new double[d];
        double n = 0;
        for (ClassSummary c : classes) {
            n += Math.max(c.weight(), 0);
        }
        for (int j = 0; j < d; j++) {
            double within = 0.0;
            for (ClassSummary c : classes) {
                if (c.weight() > 0) {
                    within += c.scatter()[j][j];
                }
            }
            within = n > 0 ? Math.max(within / n, 0.0) : 0.0;
            scale[j] = within > 0.0 ? within : total[j] > 0.0 ? total[j] : 1.0;
        }
        return scale;
    }

    private static double trace(double[][] a) {
        double t = 0.0;
        for (int i = 0; i < a.length; i++) {
            t += a[i][i];
        }
        return t;
    }

    /** a ← factor · a, in place. */
    static void scale(double[][] a, double factor) {
        for (double[] row : a) {
            for (int j = 0; j < row.length; j++) {
                row[j] *= factor;
            }
        }
    }
}
