package io.gdastreams.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.awt.Color;
import org.junit.jupiter.api.Test;

class EllipsesTest {

    private static final double TOLERANCE = 1e-12;

    /** Every vertex is at Mahalanobis distance r: (x − μ)ᵀ Σ⁻¹ (x − μ) = r², with Σ⁻¹ of a 2×2 by hand. */
    @Test
    void shouldPutEveryVertexAtMahalanobisDistanceR() {
        double[] mean = {1.5, -2.0};
        double[][] sigma = {{2.0, 0.6}, {0.6, 0.5}};
        double det = sigma[0][0] * sigma[1][1] - sigma[0][1] * sigma[1][0];
        for (double r : new double[] {1, 2}) {
            double[][] ellipse = Ellipses.of(mean, sigma, r);
            assertEquals(Ellipses.SEGMENTS + 1, ellipse[0].length);
            assertEquals(ellipse[0][0], ellipse[0][Ellipses.SEGMENTS], TOLERANCE);
            for (int i = 0; i < ellipse[0].length; i++) {
                double dx = ellipse[0][i] - mean[0];
                double dy = ellipse[1][i] - mean[1];
                double d2 = (sigma[1][1] * dx * dx - 2 * sigma[0][1] * dx * dy + sigma[0][0] * dy * dy) / det;
                assertEquals(r * r, d2, TOLERANCE, "vertex " + i);
            }
        }
    }

    /** Regions are a light tint of the class colour: lighter in every channel, and different per class. */
    @Test
    void shouldTintRegionsLighterThanTheClassColour() {
        for (int k = 0; k < 10; k++) {
            Color full = PlotPalette.of(k);
            Color region = PlotPalette.region(k);
            assertEquals(Math.round(255 - PlotPalette.REGION_TINT * (255 - full.getRed())), region.getRed());
            for (int j = 0; j < k; j++) {
                assertNotEquals(PlotPalette.region(j), region, j + " vs " + k);
            }
        }
    }
}
