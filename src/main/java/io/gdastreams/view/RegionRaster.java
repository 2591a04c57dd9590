package io.gdastreams.view;

import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.PlaneClassifier;
import io.gdastreams.math.Posterior;
import java.awt.image.BufferedImage;
import java.util.Map;

/**
 * The raster under a {@link DecisionPlot}'s chart: each pixel coloured by the class the scorer predicts at its
 * centre (a line in their colour where two regions of one colour meet), and optionally the contours of log p(x)
 * drawn into it. Computed pixel by pixel, not interpolated, so the picture is the classifier's prediction at each
 * pixel; apart from the chart because it is the only part that scores (width × height posteriors) and the only part
 * XChart does not draw.
 */
final class RegionRaster {

    private RegionRaster() {
    }

    /** The pixels of columns left…right and rows top…bottom (inclusive) of {@code frame}. */
    static BufferedImage of(PlaneClassifier plane, GaussianModel fitted, Map<String, Integer> colourIndex,
                            DecisionPlot.Frame frame, int left, int right, int top, int bottom, boolean density) {
        int width = right - left + 1;
        int height = bottom - top + 1;
        int classes = fitted.labels().size();
        int[] index = new int[classes];
        int[] colours = new int[classes];
        int[] edges = new int[classes];
        for (int k = 0; k < classes; k++) {
            index[k] = colourIndex.get(fitted.labels().get(k));
            colours[k] = PlotPalette.region(index[k]).getRGB();
            edges[k] = PlotPalette.of(index[k]).getRGB();
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        double[][] logDensity = density ? new double[height][width] : null;
        double max = Double.NEGATIVE_INFINITY;
        int[] previous = new int[width];
        int[] current = new int[width];
        for (int row = 0; row < height; row++) {
            double y = frame.yAt(top + row);
            for (int column = 0; column < width; column++) {
                Posterior posterior = plane.score(frame.xAt(left + column), y);
                int k = plane.choose(posterior);
                current[column] = k;
                // Two classes of one tint (colour index k ≡ j mod 10) would read as one region: a line in their full
                // colour parts them.
                boolean edge = column > 0 && sharesTint(index, k, current[column - 1])
                        || row > 0 && sharesTint(index, k, previous[column]);
                image.setRGB(column, row, edge ? edges[k] : colours[k]);
                if (density) {
                    logDensity[row][column] = posterior.logDensity();
                    max = Math.max(max, posterior.logDensity());
                }
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        if (density) {
            contours(image, logDensity, max);
        }
        return image;
    }

    private static boolean sharesTint(int[] colourIndex, int k, int j) {
        return k != j && PlotPalette.sameColour(colourIndex[k], colourIndex[j]);
    }

    /**
     * A pixel is on a contour when the level band of log p(x) changes to its right or below it (bands
     * {@link DecisionPlot#DENSITY_STEP} nats wide below the maximum in the frame, the first
     * {@link DecisionPlot#DENSITY_LEVELS} of them).
     */
    private static void contours(BufferedImage image, double[][] logDensity, double max) {
        int height = logDensity.length;
        int width = logDensity[0].length;
        int contour = PlotPalette.CONTOUR.getRGB();
        for (int row = 0; row < height; row++) {
            for (int column = 0; column < width; column++) {
                long band = band(logDensity[row][column], max);
                if (band >= DecisionPlot.DENSITY_LEVELS) {
                    continue;
                }
                boolean edge = column + 1 < width && band(logDensity[row][column + 1], max) != band
                        || row + 1 < height && band(logDensity[row + 1][column], max) != band;
                if (edge) {
                    image.setRGB(column, row, contour);
                }
            }
        }
    }

    private static long band(double logDensity, double max) {
        return (long) Math.floor((max - logDensity) / DecisionPlot.DENSITY_STEP);
    }
}
