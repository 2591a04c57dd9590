package io.gdastreams.view;

import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.PlaneClassifier;

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
        double[] r = plane.classExtent(fitted, FRAME_SIGMAS);
        if (data != null) {
            for (PlotData.Point p : data.points()) {
                PlaneClassifier.include(r, 0, p.x(), p.x());
                PlaneClassifier.include(r, 2, p.y(), p.y());
            }
        }
        PlaneClassifier.pad(r, FRAME_PAD);
        return r;
    }
}
