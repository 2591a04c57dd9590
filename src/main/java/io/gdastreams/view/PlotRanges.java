package io.gdastreams.view;

import io.gdastreams.math.GaussianModel;

/**
 * The data ranges a {@link DecisionPlot} shows: every class's mean ± {@value #FRAME_SIGMAS} marginal standard
 * deviations in the plane, and every point drawn, padded by {@value #FRAME_PAD} of the span on each side so that
 * nothing sits on the axes. The ellipses (at most 2σ) then always fit, with room for the regions around them.
 */
final class PlotRanges {

    /** Half-widths of the frame around each class: 3 marginal standard deviations. */
    private static final double FRAME_SIGMAS = 3.0;
    private static final double FRAME_PAD = 0.04;

    private PlotRanges() {
    }

    /** {xMin, xMax, yMin, yMax}. {@code data}: may be null (no points). */
    static double[] of(GaussianModel fitted, PlaneClassifier plane, PlotData data) {
        double[] r = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY};
        double[][] means = fitted.means();
        for (int k = 0; k < means.length; k++) {
            double[][] covariance = fitted.covariance(k);
            double sx = FRAME_SIGMAS * Math.sqrt(covariance[plane.xIndex()][plane.xIndex()]);
            double sy = FRAME_SIGMAS * Math.sqrt(covariance[plane.yIndex()][plane.yIndex()]);
            include(r, 0, means[k][plane.xIndex()] - sx, means[k][plane.xIndex()] + sx);
            include(r, 2, means[k][plane.yIndex()] - sy, means[k][plane.yIndex()] + sy);
        }
        if (data != null) {
            for (PlotData.Point p : data.points()) {
                include(r, 0, p.x(), p.x());
                include(r, 2, p.y(), p.y());
            }
        }
        for (int i = 0; i < 4; i += 2) {
            double span = r[i + 1] - r[i];
            // A single value (one class without spread, one point) still gets a frame of non-zero width.
            double pad = span > 0 ? FRAME_PAD * span : Math.max(1e-9, Math.abs(r[i]) * FRAME_PAD);
            r[i] -= pad;
            r[i + 1] += pad;
        }
        return r;
    }

    private static void include(double[] r, int i, double low, double high) {
        r[i] = Math.min(r[i], low);
        r[i + 1] = Math.max(r[i + 1], high);
    }
}
