package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Discriminant#score(double[][], int, double[][], double[])}, the score of many points with four at a time
 * through the compiled form's group kernel, against one {@link Discriminant#score(double[], double[], double[])}
 * per point: the same bits for every point — all observed, with missing coordinates, a TIED point far enough out
 * for the split form, a point whose distances overflow — for K = 1 … 9 (one and two lane groups, padding) and
 * d = 1 … 64, counts that are and are not multiples of four. In this JVM the vector module is present (the group
 * kernels run); {@link KernelFallbackTest} checks the same agreement in a JVM without it.
 */
class GroupScoreTest {

    private static final long SEED = 20261129L;
    private static final int[] CLASSES = {1, 2, 3, 4, 5, 8, 9};
    private static final int[] DIMENSIONS = {1, 2, 3, 4, 7, 11, 14, 16, 33, 64};

    /** The group kernels are used once the vector warm-up is over: wait for it, so that they are what is tested. */
    @BeforeAll
    static void vectorKernels() throws InterruptedException {
        assertTrue(KernelChoice.awaitWarmUp(60_000), "the vector kernels' warm-up ended");
        assertTrue(ClassLanes.vector(), "the class lanes (and so the group kernels) are in use");
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldGiveEachPointTheBitsOfItsOwnScore(CovarianceType type) {
        SplittableRandom random = new SplittableRandom(SEED);
        int compared = 0;
        for (int classes : CLASSES) {
            for (int d : DIMENSIONS) {
                Discriminant discriminant = Discriminant.compile(model(type, classes, d, random));
                for (int count : new int[] {0, 1, 4, 7, 8, 13}) {
                    double[][] points = points(count, d, random);
                    compared += assertSameAsAlone(discriminant, points, count);
                }
            }
        }
        assertEquals(7 * 10 * 33, compared, "points compared");
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldScoreUnusualPointsOfAGroupAsTheyAreScoredAlone(CovarianceType type) {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        for (int d : new int[] {3, 16}) {
            Discriminant discriminant = Discriminant.compile(model(type, 3, d, random));
            double[][] points = points(12, d, random);
            points[1][0] = Double.NaN;                 // one coordinate missing
            Arrays.fill(points[6], Double.NaN);        // every coordinate missing: the priors
            Arrays.fill(points[9], 1e300);             // every distance overflows
            for (int j = 0; j < d; j++) {
                points[10][j] = 1e12 * (j + 1);        // far out: TIED's split form
            }
            assertEquals(12, assertSameAsAlone(discriminant, points, 12));
        }
    }

    @Test
    void shouldFailAsTheSingleScoreDoes() {
        SplittableRandom random = new SplittableRandom(SEED + 2);
        Discriminant discriminant = Discriminant.compile(model(CovarianceType.DIAG, 3, 4, random));
        double[][] points = points(8, 4, random);
        double[][] posteriors = new double[8][3];
        double[] logDensities = new double[8];
        points[5][2] = Double.POSITIVE_INFINITY;
        IllegalArgumentException infinite = assertThrows(IllegalArgumentException.class,
                () -> discriminant.score(points, 8, posteriors, logDensities));
        assertEquals("infinite feature value Infinity", infinite.getMessage());
        points[5] = new double[3];
        assertEquals("expected 4 values, got 3", assertThrows(IllegalArgumentException.class,
                () -> discriminant.score(points, 8, posteriors, logDensities)).getMessage());
        points[5] = new double[4];
        posteriors[2] = new double[2];
        assertEquals("expected an output of 3 probabilities, got 2", assertThrows(IllegalArgumentException.class,
                () -> discriminant.score(points, 8, posteriors, logDensities)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> discriminant.score(points, 9, posteriors, logDensities)).getMessage()
                .startsWith("count 9 outside the arrays"));
    }

    /** Scores {@code points} as a group and one by one; asserts the same bits; returns the number compared. */
    private static int assertSameAsAlone(Discriminant discriminant, double[][] points, int count) {
        int classes = discriminant.labels().size();
        double[][] posteriors = new double[count][classes];
        double[] logDensities = new double[count];
        discriminant.score(points, count, posteriors, logDensities);
        double[] alone = new double[classes];
        for (int i = 0; i < count; i++) {
            double logDensity = discriminant.score(points[i], null, alone);
            int point = i;
            assertEquals(Double.doubleToRawLongBits(logDensity), Double.doubleToRawLongBits(logDensities[i]),
                    () -> "log p(x) of point " + point + ": " + logDensity + " alone, " + logDensities[point]);
            for (int k = 0; k < classes; k++) {
                int c = k;
                assertEquals(Double.doubleToRawLongBits(alone[k]), Double.doubleToRawLongBits(posteriors[i][k]),
                        () -> "p(" + c + " | x) of point " + point + ": " + alone[c] + " alone, "
                                + posteriors[point][c]);
            }
        }
        return count;
    }

    /** {@code classes} classes of correlated Gaussian data in d dimensions, at different offsets. */
    static GaussianModel model(CovarianceType type, int classes, int d, SplittableRandom random) {
        List<ClassSummary> summaries = new ArrayList<>();
        for (int k = 0; k < classes; k++) {
            RunningGaussian g = new RunningGaussian(d);
            for (int e = 0; e < 3 * d + 10; e++) {
                double[] x = new double[d];
                for (int j = 0; j < d; j++) {
                    x[j] = k + random.nextGaussian() * (1 + k % 3) + 0.4 * (j > 0 ? x[j - 1] : 0);
                }
                g.update(x);
            }
            summaries.add(ClassSummary.of("class-" + k, g));
        }
        return GaussianModel.fit(summaries, FitOptions.defaults().withCovarianceType(type));
    }

    static double[][] points(int count, int d, SplittableRandom random) {
        double[][] points = new double[count][d];
        for (double[] x : points) {
            for (int j = 0; j < d; j++) {
                x[j] = 2.0 * random.nextGaussian() + 1.0;
            }
        }
        return points;
    }
}
