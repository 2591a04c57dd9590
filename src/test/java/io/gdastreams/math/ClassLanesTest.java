package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The class-lane sums ({@link VectorClassLanes}) against the one-class loop they replace (and that scores use
 * without the vector module), written out here (q_k = Σ_j v², v = (y_j − c_kj)·w_kj, j in order): raw bits equal, no tolerance, for K = 1 … 13 classes (one,
 * two and three groups of four, partly padded) and d = 1 … 70, on values spread over 10^±3 and on a large offset.
 */
class ClassLanesTest {

    private static final long SEED = 20261125L;

    private static double[][] rows(int k, int d, double offset, SplittableRandom random) {
        double[][] rows = new double[k][d];
        for (double[] row : rows) {
            for (int j = 0; j < d; j++) {
                row[j] = offset + Math.pow(10.0, random.nextDouble(-3.0, 3.0)) * random.nextGaussian();
            }
        }
        return rows;
    }

    private static double oneClass(double[] y, double[] c, double[] w, int d) {
        double q = 0.0;
        for (int j = 0; j < d; j++) {
            double v = w == null ? y[j] - c[j] : (y[j] - c[j]) * w[j];
            q += v * v;
        }
        return q;
    }

    /** Mismatching bits between the one-class loop and each lane form, over one (K, d) case. */
    private static long mismatches(int k, int d, double offset, SplittableRandom random) {
        double[][] centres = rows(k, d, offset, random);
        double[][] scales = rows(k, d, 0.0, random);
        double[] y = rows(1, d, offset, random)[0];
        int kp = ClassLanes.padded(k);
        double[] laneCentres = ClassLanes.interleave(centres, d);
        double[] laneScales = ClassLanes.interleave(scales, d);
        double[] vector = new double[kp + 2];
        double[] vectorSquares = new double[kp + 2];
        VectorClassLanes.scaledSquares(y, laneCentres, laneScales, d, kp, vector, 1);
        VectorClassLanes.squares(y, laneCentres, d, kp, vectorSquares, 1);
        long bad = 0;
        for (int c = 0; c < k; c++) {
            long scaled = Double.doubleToRawLongBits(oneClass(y, centres[c], scales[c], d));
            long plain = Double.doubleToRawLongBits(oneClass(y, centres[c], null, d));
            bad += scaled != Double.doubleToRawLongBits(vector[1 + c]) ? 1 : 0;
            bad += plain != Double.doubleToRawLongBits(vectorSquares[1 + c]) ? 1 : 0;
        }
        // Nothing written outside [at, at + K₄).
        for (double[] q : new double[][] {vector, vectorSquares}) {
            bad += q[0] != 0.0 || q[kp + 1] != 0.0 ? 1 : 0;
        }
        return bad;
    }

    @Test
    void theLaneSumsShouldGiveTheOneClassLoopsBits() {
        assertTrue(KernelChoice.VECTOR, "the tests run with the module and AVX2 (pom.xml argLine)");
        SplittableRandom random = new SplittableRandom(SEED);
        for (int k = 1; k <= 13; k++) {
            for (int d = 1; d <= 70; d++) {
                assertEquals(0L, mismatches(k, d, 0.0, random), "K=" + k + " d=" + d);
                assertEquals(0L, mismatches(k, d, 1e6, random), "K=" + k + " d=" + d + " offset 1e6");
            }
        }
    }

    @Test
    void theCompiledVectorFormShouldStillGiveTheSameBits() {
        // Enough calls for C2 to compile the vector form (the Vector API's intrinsics exist only in compiled code).
        SplittableRandom random = new SplittableRandom(SEED + 1);
        long bad = 0;
        for (int call = 0; call < 20_000; call++) {
            bad += mismatches(call % 2 == 0 ? 3 : 9, call % 3 == 0 ? 64 : 16, 0.0, random);
        }
        assertEquals(0L, bad);
    }

    @Test
    void theLayoutShouldPutTheClassesOfACoordinateSideBySide() {
        double[][] rows = {{1, 2}, {3, 4}, {5, 6}};
        assertEquals(4, ClassLanes.padded(3));
        assertEquals(8, ClassLanes.padded(5));
        assertEquals(java.util.List.of(1.0, 3.0, 5.0, 0.0, 2.0, 4.0, 6.0, 0.0),
                java.util.Arrays.stream(ClassLanes.interleave(rows, 2)).boxed().toList());
    }
}
