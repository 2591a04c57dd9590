package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The conversion between a class's scatter and the MLE covariance a published model carries, both ways. */
class ClassSummaryTest {

    private static final double EXACT = 0.0;

    @Test
    void shouldDivideTheScatterByTheCountForTheMleCovarianceWithoutModifyingIt() {
        // (1,2), (3,6), (5,4): mean (3,4); deviations (-2,-2), (0,2), (2,0): S = [[8, 4], [4, 8]] (by hand).
        RunningGaussian g = new RunningGaussian(2);
        g.update(new double[] {1, 2});
        g.update(new double[] {3, 6});
        g.update(new double[] {5, 4});
        ClassSummary summary = ClassSummary.of("x", g);

        double[][] covariance = summary.mleCovariance();

        assertArrayEquals(new double[] {8.0 / 3, 4.0 / 3}, covariance[0], EXACT);
        assertArrayEquals(new double[] {4.0 / 3, 8.0 / 3}, covariance[1], EXACT);
        assertArrayEquals(new double[] {8, 4}, summary.scatter()[0], EXACT, "the scatter is left as it was");
    }

    @Test
    void shouldRecoverTheScatterAsTheMleCovarianceTimesTheCount() {
        double[][] covariance = {{2, 0.5}, {0.5, 1}};
        ClassSummary summary = ClassSummary.ofMleCovariance("x", 4, new double[] {1, 2}, covariance);

        assertEquals(4, summary.count());
        assertArrayEquals(new double[] {8, 2}, summary.scatter()[0], EXACT);
        assertArrayEquals(new double[] {2, 4}, summary.scatter()[1], EXACT);
        assertArrayEquals(new double[] {2, 0.5}, covariance[0], EXACT, "the covariance is left as it was");
        assertArrayEquals(covariance[1], summary.mleCovariance()[1], EXACT, "the two directions are inverse");
    }
}
