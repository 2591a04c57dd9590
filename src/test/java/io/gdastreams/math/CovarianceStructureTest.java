package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The pieces each covariance type owns: its estimator's divisor, its estimate, and how many factors it shares. */
class CovarianceStructureTest {

    private static final double[][] SCATTER = {{8, 2, -4}, {2, 10, 6}, {-4, 6, 12}};
    private static final double[][] SIGMA = {{4, 2}, {2, 10}};
    private static final double EXACT = 0.0;

    @Test
    void shouldMapEachTypeToItsOwnStructure() {
        assertInstanceOf(FullCovariance.class, CovarianceType.FULL.structure());
        assertInstanceOf(TiedCovariance.class, CovarianceType.TIED.structure());
        assertInstanceOf(DiagonalCovariance.class, CovarianceType.DIAG.structure());
    }

    @Test
    void shouldTakeOneDegreeOfFreedomPerEstimatedMeanOnlyWhenUnbiased() {
        assertEquals(40, Estimator.MLE.divisor(40, 3));
        assertEquals(37, Estimator.UNBIASED.divisor(40, 3));
        assertEquals(9, Estimator.UNBIASED.divisor(10, 1));
        assertEquals(0, Estimator.UNBIASED.divisor(1, 1));
    }

    @Test
    void shouldEstimateFromTheScatterWithoutModifyingIt() {
        double[][] scatter = copy(SCATTER);
        double[][] full = new FullCovariance().estimate(scatter, 2);
        assertArrayEquals(new double[] {4, 1, -2}, full[0], EXACT);
        assertArrayEquals(new double[] {-2, 3, 6}, full[2], EXACT);
        double[][] diagonal = new DiagonalCovariance().estimate(scatter, 2);
        assertArrayEquals(new double[] {4, 0, 0}, diagonal[0], EXACT);
        assertArrayEquals(new double[] {0, 0, 6}, diagonal[2], EXACT);
        for (int i = 0; i < SCATTER.length; i++) {
            assertArrayEquals(SCATTER[i], scatter[i], EXACT);
        }
    }

    @Test
    void shouldShareOnePooledFactorBetweenTiedClasses() {
        GaussianModel tied = GaussianModel.fit(List.of(summary("a", 10, new double[] {0, 0}),
                summary("b", 30, new double[] {1, 2})), FitOptions.defaults().withCovarianceType(CovarianceType.TIED));
        assertSame(tied.factor(0), tied.factor(1));
        GaussianModel full = GaussianModel.fit(List.of(summary("a", 10, new double[] {0, 0}),
                summary("b", 30, new double[] {1, 2})), FitOptions.defaults());
        assertTrue(full.factor(0) != full.factor(1));
    }

    private static ClassSummary summary(String label, long count, double[] mean) {
        double[][] scatter = copy(SIGMA);
        for (double[] row : scatter) {
            for (int j = 0; j < row.length; j++) {
                row[j] *= count;
            }
        }
        return new ClassSummary(label, count, mean, scatter);
    }

    private static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
