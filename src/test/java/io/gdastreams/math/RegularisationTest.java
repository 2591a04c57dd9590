package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The last resort of the fit, by hand: a covariance that does not factorise gets the smallest jitter 10^e · s
 * (e = −12 … −2) that makes it factorise, s its average variance, or, when it has none (every variance 0), the average
 * of the floor's scale over the features (from a mutation-testing audit: both scales, multiplied by d instead of
 * divided, went unnoticed).
 */
class RegularisationTest {

    /** The class of the floor's scale: points (t, t), t = 0 … 3: scatter diagonal 5 each, within-class variance 1.25. */
    private static List<ClassSummary> collinear() {
        RunningGaussian g = new RunningGaussian(2);
        for (int t = 0; t < 4; t++) {
            g.update(new double[] {t, t});
        }
        return List.of(ClassSummary.of("a", g));
    }

    /**
     * [[3, 3], [3, 3]] is singular; with a = 10^−12 · 3 (s = trace / d = 3) the second pivot is
     * (3 + a) − 9 / (3 + a) ≈ 2a, above 10^−12 · (3 + a): the first jitter tried is the one taken.
     */
    @Test
    void shouldJitterASingularCovarianceByTheSmallestPowerOfTenOfItsAverageVariance() {
        Regularisation rules = Regularisation.of(collinear(), 2, FitOptions.defaults());
        Regularisation.Regularised r = rules.apply(new double[][] {{3, 3}, {3, 3}}).orElseThrow();
        double a = Math.pow(10.0, -12) * 3.0;
        assertEquals(a, r.jitter(), 0.0);
        assertArrayEquals(new double[] {3 + a, 3}, r.covariance()[0], 0.0);
        assertArrayEquals(new double[] {3, 3 + a}, r.covariance()[1], 0.0);
    }

    /** Every variance 0 and no floor: the jitter's scale is the floor scale's average over the features, 1.25. */
    @Test
    void shouldJitterAZeroCovarianceByTheFloorScale() {
        Regularisation rules = Regularisation.of(collinear(), 2, FitOptions.defaults().withVarianceFloor(0.0));
        Regularisation.Regularised r = rules.apply(new double[][] {{0, 0}, {0, 0}}).orElseThrow();
        assertEquals(Math.pow(10.0, -12) * 1.25, r.jitter(), 0.0);
    }
}
