package io.gdastreams.math;

/** The terms of a Gaussian log-density shared by every compiled form. */
final class LogGaussian {

    private static final double LOG_2PI = Math.log(2.0 * Math.PI);

    private LogGaussian() {
    }

    /**
     * log N over m coordinates, −½(m·log 2π + q) − halfLogDet, from the squared Mahalanobis distance q and
     * ½ log det Σ; −∞ when q overflowed.
     */
    static double of(int m, double halfLogDet, double q) {
        if (!(q < Double.POSITIVE_INFINITY)) {
            return Double.NEGATIVE_INFINITY;
        }
        return -0.5 * (m * LOG_2PI + q) - halfLogDet;
    }

    /** Σ r_i² over the first {@code length} entries. */
    static double sumOfSquares(double[] r, int length) {
        double q = 0.0;
        for (int i = 0; i < length; i++) {
            q += r[i] * r[i];
        }
        return q;
    }
}
