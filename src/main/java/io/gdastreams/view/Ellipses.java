package io.gdastreams.view;

/**
 * The ellipse {x : (x − μ)ᵀ Σ⁻¹ (x − μ) = r²} of a 2-D Gaussian (Mahalanobis distance r: r = 1 and 2 are the
 * "1σ / 2σ" ellipses), as a closed polyline: x(t) = μ + r L (cos t, sin t) with L the Cholesky factor of Σ
 * (L Lᵀ = Σ maps the unit circle onto the ellipse of radius 1).
 */
final class Ellipses {

    /** Vertices of the polyline (the first repeated at the end to close it). */
    static final int SEGMENTS = 180;

    private Ellipses() {
    }

    /** {x[], y[]} of the ellipse; {@code covariance}: 2×2 positive definite. */
    static double[][] of(double[] mean, double[][] covariance, double r) {
        double l11 = Math.sqrt(covariance[0][0]);
        double l21 = covariance[1][0] / l11;
        double l22 = Math.sqrt(covariance[1][1] - l21 * l21);
        if (!(l11 > 0) || !(l22 > 0)) {
            throw new IllegalArgumentException("the covariance is not positive definite in this plane");
        }
        double[] xs = new double[SEGMENTS + 1];
        double[] ys = new double[SEGMENTS + 1];
        for (int i = 0; i <= SEGMENTS; i++) {
            double t = 2 * Math.PI * (i % SEGMENTS) / SEGMENTS;
            double u = r * Math.cos(t);
            double v = r * Math.sin(t);
            xs[i] = mean[0] + l11 * u;
            ys[i] = mean[1] + l21 * u + l22 * v;
        }
        return new double[][] {xs, ys};
    }
}
