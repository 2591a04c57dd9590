package io.gdastreams.view;

import java.awt.Color;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The colour of each class, the same in the decision regions (a light tint), the ellipses and the points (the full
 * colour), so that a region, its class's ellipses and its points read as one. Ten colours from the Tableau 10
 * palette (tells apart for most colour-blind readers); class k ≥ 10 reuses colour k mod 10, so that two classes
 * of one colour stay apart by the shape of their points ({@link #marker}) and by a line where their regions meet.
 */
public final class PlotPalette {

    private static final Marker[] SHAPES = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND,
            SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN};
    private static final int[] COLOURS = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
            0x7f7f7f, 0xbcbd22, 0x17becf};
    /** How much of the class colour goes into its region (the rest is white): light enough to see points on. */
    static final double REGION_TINT = 0.28;
    /** Labels in the data that the model does not know. */
    public static final Color UNKNOWN = new Color(0x333333);
    /** The density contours. */
    public static final Color CONTOUR = new Color(0x404040);

    private PlotPalette() {
    }

    /** The full colour of class {@code k} (ellipses, points, legend). */
    public static Color of(int k) {
        return new Color(COLOURS[k % COLOURS.length]);
    }

    /** Whether classes {@code j} and {@code k} share a colour (and so a region tint). */
    public static boolean sameColour(int j, int k) {
        return j % COLOURS.length == k % COLOURS.length;
    }

    /**
     * The shape of class {@code k}'s points: circles for the first ten classes, then squares, diamonds and two
     * triangles, one shape per ten (a colour's classes have different shapes up to 50 classes).
     */
    public static Marker marker(int k) {
        return SHAPES[k / COLOURS.length % SHAPES.length];
    }

    /** The region tint of class {@code k}: REGION_TINT of its colour over white. */
    public static Color region(int k) {
        Color c = of(k);
        return new Color(tint(c.getRed()), tint(c.getGreen()), tint(c.getBlue()));
    }

    private static int tint(int channel) {
        return (int) Math.round(255 - REGION_TINT * (255 - channel));
    }
}
