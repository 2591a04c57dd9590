package io.gdastreams.math;

/**
 * The posterior of a finite point beyond every class: every squared Mahalanobis distance q_k overflowed (above
 * 1.8e308), so every log-joint c_k − ½q_k came out −∞, where c_k = log π_k + added_k − ½ log det Σ_k,OO − |O|/2 log 2π.
 * The point still tells the classes apart: with q_k ≈ 1e320 or more, a class farther than the nearest by even
 * 2⁻⁵² of its distance has a posterior exp(−½(q_k − q_m)) ≤ exp(−1e290) times the nearest's, i.e. 0. So the nearest
 * class gets probability 1, not its prior.
 *
 * <p>The distances are taken again on a scaled problem that does not overflow: D²_k / s² from x_O/s − μ_k,O/s
 * ({@link CompiledCovariance#scaledDistances}), with one power of two s for every class (the scaling is exact: a
 * finite q_k / s² has the bits of D²_k / s², so classes whose distance did not overflow compare on the same footing).
 * s is the smallest power of two above every |x_j| and |μ_kj| observed, so that no difference overflows; a class
 * whose scaled distance still overflows (whitening by the inverse of a subnormal variance) counts as infinitely far.
 *
 * <p>Classes whose scaled distances are the same double share the nearest's probability in proportion to exp(c_k).
 * That is exact for a true tie (a point on the mirror plane of two classes with one covariance). Otherwise their
 * difference is below what the distances resolve (2⁻⁵² of q, itself beyond 1e308), and which class is nearer is not
 * known; sharing in proportion to what is known is the answer that claims nothing more. (Distances a few roundings
 * apart but not equal are decided by their computed values, as every score decides by its computed log-joints.)
 * Classes with one covariance (TIED) need not guess: q_k − q_m is taken from the difference of the means, as TIED's
 * split form takes it ({@link CompiledCovariance#distanceDifferences}), which keeps its answer past the overflow (a
 * point far out along a direction in which the classes do not differ keeps the posterior its other coordinates
 * give). FULL classes that happen to share one matrix, and DIAG classes with equal variances along the far direction,
 * are not looked for: they are compared as any two classes, so two of them whose means differ by less than 2⁻⁵² of x
 * share the point (as the one-pass form, nearer in, shares it where ½q swallows their log priors). Scaled values
 * below 2⁻¹⁰²² of s lose bits as subnormals; that changes a comparison only with variances below about 1e-290.
 *
 * <p>Never on the hot path: only once a score has found every log-joint −∞. Allocates its K-arrays.
 */
final class FarPoint {

    private FarPoint() {
    }

    /**
     * When every one of {@code logJoints} is −∞ or NaN and {@code x} has an observed coordinate (finite where
     * observed, {@code missing} NaN), writes the posterior into {@code logJoints} and −∞ into {@code logJointOut} (if
     * not null; log-joints below −1e308 are not representable), and returns true. Returns false, and writes nothing,
     * otherwise and when no class can be told nearest (every c_k −∞, or every scaled distance NaN or +∞): the caller
     * falls back to the priors.
     */
    static boolean posterior(CompiledCovariance covariance, double[] x, int missing, double[] added,
                             double[] logJoints, double[] logJointOut) {
        int classCount = logJoints.length;
        for (double v : logJoints) {
            // A NaN log-joint (an added log-likelihood of NaN) is a class of probability 0, as −∞ is.
            if (v > Double.NEGATIVE_INFINITY) {
                return false;
            }
        }
        if (missing == covariance.d) {
            return false;
        }
        double scale = scale(x, covariance.means);
        double[] distances = new double[classCount];
        double[] c = new double[classCount];
        covariance.scaledDistances(x, missing, scale, distances, c);
        covariance.addLogPriors(c, added);
        int nearest = -1;
        for (int k = 0; k < classCount; k++) {
            if (c[k] > Double.NEGATIVE_INFINITY && (nearest < 0 ? distances[k] < Double.POSITIVE_INFINITY
                    : distances[k] < distances[nearest])) {
                nearest = k;
            }
        }
        if (nearest < 0) {
            return false;
        }
        double[] differences = new double[classCount];
        boolean shared = covariance.distanceDifferences(x, missing, scale, nearest, differences);
        for (int k = 0; k < classCount; k++) {
            if (shared) {
                logJoints[k] = c[k] - 0.5 * differences[k];
            } else {
                logJoints[k] = distances[k] == distances[nearest] ? c[k] : Double.NEGATIVE_INFINITY;
            }
        }
        LogSumExp.normalise(logJoints, classCount);
        if (logJointOut != null) {
            java.util.Arrays.fill(logJointOut, Double.NEGATIVE_INFINITY);
        }
        return true;
    }

    /**
     * The smallest power of two above every observed |x_j| and |μ_kj| (at most 2¹⁰²³): x_j/s − μ_kj/s is then below
     * 2 (4 at the cap) and has the bits of (x_j − μ_kj)/s.
     */
    static double scale(double[] x, double[][] means) {
        double largest = 0.0;
        for (int j = 0; j < x.length; j++) {
            if (!Double.isNaN(x[j])) {
                largest = Math.max(largest, Math.abs(x[j]));
                for (double[] mu : means) {
                    largest = Math.max(largest, Math.abs(mu[j]));
                }
            }
        }
        return Math.scalb(1.0, Math.min(Math.getExponent(largest) + 1, Double.MAX_EXPONENT));
    }
}
