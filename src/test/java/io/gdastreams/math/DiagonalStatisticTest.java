package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The diagonal-only statistic ({@code gda.statistics=diagonal}): a hand fixture; bit-for-bit the diagonal of the
 * full statistic under every recurrence (each diagonal entry is the full recurrence's own product, in the same
 * order); its binary form (version 3) and that the earlier versions still read; a naive Bayes fit that cannot tell
 * the two apart.
 */
class DiagonalStatisticTest {

    private static final long SEED = 11;

    @Test
    void shouldGiveTheHandComputedDiagonal() {
        // (1, 2), (3, 6), (5, 4): mean (3, 4); S_00 = 4 + 0 + 4 = 8, S_11 = 4 + 4 + 0 = 8.
        RunningGaussian g = RunningGaussian.diagonal(2);
        g.update(new double[] {1, 2});
        g.update(new double[] {3, 6});
        g.update(new double[] {5, 4});
        assertTrue(g.isDiagonal());
        assertArrayEquals(new double[] {3, 4}, g.mean(), 0.0);
        assertArrayEquals(new double[] {8, 0}, g.scatter()[0], 0.0);
        assertArrayEquals(new double[] {0, 8}, g.scatter()[1], 0.0);
    }

    @Test
    void shouldEqualTheFullStatisticsDiagonalBitForBit() {
        SplittableRandom random = new SplittableRandom(SEED);
        int d = 7;
        double[][] xs = RunningGaussianTest.cloud(random, 300, d, 1e6, 3.0);
        RunningGaussian full = new RunningGaussian(d);
        RunningGaussian diagonal = RunningGaussian.diagonal(d);
        RunningGaussian fullPart = new RunningGaussian(d);
        RunningGaussian diagonalPart = RunningGaussian.diagonal(d);
        for (int i = 0; i < xs.length; i++) {
            double w = i % 3 == 0 ? 1.0 : 0.25 + random.nextDouble();
            RunningGaussian f = i < 200 ? full : fullPart;
            RunningGaussian g = i < 200 ? diagonal : diagonalPart;
            f.update(xs[i], w);
            g.update(xs[i], w);
        }
        // xs[3] went in with weight 1 (3 % 3 == 0).
        assertNull(full.retract(xs[3], 1.0));
        assertNull(diagonal.retract(xs[3], 1.0));
        full.rescale(0.75, 42L);
        diagonal.rescale(0.75, 42L);
        full.merge(fullPart);
        diagonal.merge(diagonalPart);
        assertEquals(full.count(), diagonal.count());
        assertEquals(full.weight(), diagonal.weight(), 0.0);
        assertEquals(full.squaredWeights(), diagonal.squaredWeights(), 0.0);
        assertEquals(full.retractions(), diagonal.retractions());
        assertArrayEquals(full.mean(), diagonal.mean(), 0.0);
        double[][] s = full.scatter();
        double[][] sd = diagonal.scatter();
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                assertEquals(i == j ? s[i][i] : 0.0, sd[i][j], 0.0, "(" + i + "," + j + ")");
            }
        }
    }

    @Test
    void shouldRoundTripAsVersionThreeAndStillReadTheEarlierVersions() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (boolean weighted : new boolean[] {false, true}) {
            RunningGaussian g = RunningGaussian.diagonal(5);
            for (double[] x : RunningGaussianTest.cloud(random, 40, 5, 10.0, 1.0)) {
                g.update(x, weighted ? 0.5 : 1.0);
            }
            byte[] bytes = g.toBytes();
            assertEquals(3, bytes[0]);
            // version, d, n, retractions, W, V, reference time, weighted flag, then 3·d doubles.
            assertEquals(1 + 4 + 8 + 8 + 8 + 8 + 8 + 1 + 3 * 5 * 8, bytes.length);
            RunningGaussian back = RunningGaussian.fromBytes(bytes);
            assertTrue(back.isDiagonal());
            assertEquals(weighted, back.isWeighted());
            assertEquals(g.count(), back.count());
            assertEquals(g.weight(), back.weight(), 0.0);
            assertArrayEquals(g.mean(), back.mean(), 0.0);
            assertArrayEquals(g.scatter()[4], back.scatter()[4], 0.0);
            assertArrayEquals(bytes, back.toBytes());
        }
        RunningGaussian full = new RunningGaussian(3);
        full.update(new double[] {1, 2, 3});
        assertEquals(1, full.toBytes()[0]);
        assertFalse(RunningGaussian.fromBytes(full.toBytes()).isDiagonal());
        full.update(new double[] {2, 2, 2}, 0.5);
        assertEquals(2, full.toBytes()[0]);
        assertFalse(RunningGaussian.fromBytes(full.toBytes()).isDiagonal());
    }

    @Test
    void shouldRefuseCorruptDiagonalBytesAndMixedMerges() {
        RunningGaussian g = RunningGaussian.diagonal(2);
        g.update(new double[] {1, 2});
        byte[] bytes = g.toBytes();
        byte[] badFlag = bytes.clone();
        badFlag[1 + 4 + 8 + 32] = 7;
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(badFlag));
        // A version 1 (full) layout relabelled as version 3 has the wrong length.
        RunningGaussian full = new RunningGaussian(2);
        full.update(new double[] {1, 2});
        byte[] relabelled = full.toBytes();
        relabelled[0] = 3;
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(relabelled));
        ByteBuffer nan = ByteBuffer.wrap(bytes.clone());
        nan.putDouble(bytes.length - 8, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(nan.array()));
        assertThrows(IllegalArgumentException.class, () -> full.merge(g));
        assertTrue(g.copy().isDiagonal());
    }

    /** A full statistic merges into a diagonal one by its diagonal: as if both had been diagonal all along. */
    @Test
    void shouldPoolMixedKindsAsDiagonal() {
        SplittableRandom random = new SplittableRandom(SEED);
        int d = 4;
        RunningGaussian fullA = new RunningGaussian(d);
        RunningGaussian diagonalA = RunningGaussian.diagonal(d);
        RunningGaussian diagonalB = RunningGaussian.diagonal(d);
        double[][] xs = RunningGaussianTest.cloud(random, 60, d, 100.0, 2.0);
        for (int i = 0; i < xs.length; i++) {
            if (i < 25) {
                fullA.update(xs[i]);
                diagonalA.update(xs[i]);
            } else {
                diagonalB.update(xs[i]);
            }
        }
        // Partition 0 kept a full statistic, partition 1 a diagonal one.
        RunningGaussian mixed = PooledClasses.of(List.of(java.util.Map.of("a", fullA), java.util.Map.of("a", diagonalB)),
                label -> true).get("a");
        RunningGaussian diagonalOnly = PooledClasses.of(List.of(java.util.Map.of("a", diagonalA),
                java.util.Map.of("a", diagonalB)), label -> true).get("a");
        assertTrue(mixed.isDiagonal());
        assertEquals(diagonalOnly.count(), mixed.count());
        assertArrayEquals(diagonalOnly.mean(), mixed.mean(), 0.0);
        for (int i = 0; i < d; i++) {
            assertArrayEquals(diagonalOnly.scatter()[i], mixed.scatter()[i], 0.0);
        }
        RunningGaussian copy = fullA.diagonalCopy();
        assertArrayEquals(diagonalA.toBytes(), copy.toBytes());
    }

    @Test
    void naiveBayesShouldNotTellTheTwoStatisticsApart() {
        SplittableRandom random = new SplittableRandom(SEED);
        int d = 6;
        RunningGaussian[] full = new RunningGaussian[2];
        RunningGaussian[] diagonal = new RunningGaussian[2];
        for (int k = 0; k < 2; k++) {
            full[k] = new RunningGaussian(d);
            diagonal[k] = RunningGaussian.diagonal(d);
            for (double[] x : RunningGaussianTest.cloud(random, 50, d, 2.0 * k, 1.0)) {
                full[k].update(x);
                diagonal[k].update(x);
            }
        }
        FitOptions diag = FitOptions.defaults().withCovarianceType(CovarianceType.DIAG);
        Discriminant a = Discriminant.compile(GaussianModel.fit(List.of(ClassSummary.of("a", full[0]),
                ClassSummary.of("b", full[1])), diag));
        Discriminant b = Discriminant.compile(GaussianModel.fit(List.of(ClassSummary.of("a", diagonal[0]),
                ClassSummary.of("b", diagonal[1])), diag));
        for (double[] x : RunningGaussianTest.cloud(random, 20, d, 1.0, 2.0)) {
            Posterior pa = a.score(x);
            Posterior pb = b.score(x);
            assertEquals(pa.logDensity(), pb.logDensity(), 0.0);
            assertArrayEquals(pa.probabilities(), pb.probabilities(), 0.0);
        }
    }
}
