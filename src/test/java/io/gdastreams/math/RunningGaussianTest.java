package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RunningGaussianTest {

    /** Merge versus sequential updates, relative to the scale of the entry. */
    private static final double MERGE_RELATIVE = 1e-12;
    /** Welford versus two-pass, relative to σ_iσ_j. */
    private static final double TWO_PASS_RELATIVE = 1e-12;
    /** Covariance versus the exact Fraction reference, relative to σ_iσ_j (done-criterion of issue 2). */
    private static final double EXACT_RELATIVE = 1e-9;
    private static final long SEED = 7;
    /** Writes in {@link #shouldKeepTheStoredByteLayoutOnceTheWriterIsCompiled}: well past C2's compile threshold. */
    private static final int HOT_WRITES = 240_000;

    /** n points in d dimensions: offset + a random correlated cloud of scale sd. */
    static double[][] cloud(SplittableRandom random, int n, int d, double offset, double sd) {
        double[][] mixing = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                mixing[i][j] = random.nextDouble(-1, 1) + (i == j ? 1.5 : 0.0);
            }
        }
        double[][] x = new double[n][d];
        for (double[] row : x) {
            double[] z = new double[d];
            for (int j = 0; j < d; j++) {
                z[j] = random.nextGaussian();
            }
            for (int i = 0; i < d; i++) {
                double v = 0;
                for (int j = 0; j <= i; j++) {
                    v += mixing[i][j] * z[j];
                }
                row[i] = offset * (i % 2 == 0 ? 1 : -1) + sd * v;
            }
        }
        return x;
    }

    static RunningGaussian sequential(double[][] x, int from, int to) {
        RunningGaussian g = new RunningGaussian(x[0].length);
        for (int i = from; i < to; i++) {
            g.update(x[i]);
        }
        return g;
    }

    /**
     * Corrected two-pass (Chan, Golub &amp; LeVeque): the mean m first, then Σ (x−m)(x−m)ᵀ − (Σ(x−m))(Σ(x−m))ᵀ/n.
     * The correction removes the n·e² error of a mean m that is off by e (summing values near 1e9 rounds).
     */
    static double[][] twoPassScatter(double[][] x) {
        int d = x[0].length;
        double[] mean = new double[d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                mean[j] += row[j];
            }
        }
        for (int j = 0; j < d; j++) {
            mean[j] /= x.length;
        }
        double[][] s = new double[d][d];
        double[] residual = new double[d];
        for (double[] row : x) {
            for (int i = 0; i < d; i++) {
                residual[i] += row[i] - mean[i];
                for (int j = 0; j < d; j++) {
                    s[i][j] += (row[i] - mean[i]) * (row[j] - mean[j]);
                }
            }
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                s[i][j] -= residual[i] * residual[j] / x.length;
            }
        }
        return s;
    }

    /** max_ij |a_ij − b_ij| / sqrt(b_ii b_jj). */
    static double scaledError(double[][] a, double[][] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a.length; j++) {
                worst = Math.max(worst, Math.abs(a[i][j] - b[i][j]) / Math.sqrt(b[i][i] * b[j][j]));
            }
        }
        return worst;
    }

    @Test
    void shouldMatchSequentialUpdatesWhenMergingTwoHalves() {
        double[][] x = cloud(new SplittableRandom(SEED), 1001, 5, 1e9, 1.0);
        RunningGaussian all = sequential(x, 0, x.length);
        RunningGaussian merged = sequential(x, 0, 400);
        merged.merge(sequential(x, 400, x.length));

        assertEquals(all.count(), merged.count());
        double[] meanAll = all.mean();
        double[] meanMerged = merged.mean();
        for (int j = 0; j < 5; j++) {
            assertEquals(meanAll[j], meanMerged[j], MERGE_RELATIVE * Math.abs(meanAll[j]));
        }
        assertTrue(scaledError(merged.scatter(), all.scatter()) <= MERGE_RELATIVE,
                "scaled error " + scaledError(merged.scatter(), all.scatter()));
    }

    @Test
    void shouldMatchSequentialUpdatesWhenMergingManyUnevenParts() {
        double[][] x = cloud(new SplittableRandom(SEED + 1), 997, 4, 1e12, 1e-3);
        RunningGaussian all = sequential(x, 0, x.length);
        RunningGaussian merged = new RunningGaussian(4);
        int[] cuts = {0, 1, 2, 50, 51, 300, 997};
        for (int c = cuts.length - 2; c >= 0; c--) {
            merged.merge(sequential(x, cuts[c], cuts[c + 1]));
        }
        merged.merge(new RunningGaussian(4));
        assertEquals(997, merged.count());
        assertTrue(scaledError(merged.scatter(), all.scatter()) <= MERGE_RELATIVE);
    }

    @Test
    void shouldMatchTwoPassOnDataOffsetByOneBillion() {
        double[][] x = cloud(new SplittableRandom(SEED + 2), 2000, 4, 1e9, 1.0);
        double[][] twoPass = twoPassScatter(x);
        double error = scaledError(sequential(x, 0, x.length).scatter(), twoPass);
        assertTrue(error <= TWO_PASS_RELATIVE, "scaled error " + error);
    }

    @Test
    void shouldMatchExactFractionCovarianceOnOffsetStream() throws IOException {
        JsonNode fixture;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/offset_stream.json")) {
            fixture = new ObjectMapper().readTree(in);
        }
        List<double[]> a = new ArrayList<>();
        List<double[]> b = new ArrayList<>();
        for (JsonNode row : fixture.get("rows")) {
            double[] x = IrisGoldenTest.doubles(row.get(1));
            (row.get(0).asText().equals("a") ? a : b).add(x);
        }
        for (String label : List.of("a", "b")) {
            double[][] x = (label.equals("a") ? a : b).toArray(new double[0][]);
            JsonNode exact = fixture.get("exact").get(label);
            double[][] reference = new double[3][];
            for (int i = 0; i < 3; i++) {
                reference[i] = IrisGoldenTest.doubles(exact.get("covariance").get(i));
            }
            RunningGaussian sequential = sequential(x, 0, x.length);
            RunningGaussian merged = sequential(x, 0, x.length / 3);
            merged.merge(sequential(x, x.length / 3, x.length));
            for (RunningGaussian g : List.of(sequential, merged)) {
                assertEquals(exact.get("count").asLong(), g.count());
                GaussianModel model = GaussianModel.fit(List.of(ClassSummary.of(label, g)), FitOptions.defaults());
                double error = scaledError(model.covariance(0), reference);
                assertTrue(error <= EXACT_RELATIVE, label + ": scaled error " + error);
                double[] exactMean = IrisGoldenTest.doubles(exact.get("mean"));
                for (int j = 0; j < 3; j++) {
                    // the mean itself is only representable to an ulp of the offset
                    assertEquals(exactMean[j], g.mean()[j], 2 * Math.ulp(exactMean[j]));
                }
            }
            // The fixture is hard enough to tell: Welford without a pivot misses by far more than the tolerance.
            assertTrue(scaledError(plainWelfordCovariance(x), reference) > 1e3 * EXACT_RELATIVE);
        }
    }

    /** Textbook Welford on the raw coordinates, the failure mode the pivot exists to avoid. */
    private static double[][] plainWelfordCovariance(double[][] x) {
        int d = x[0].length;
        double[] mean = new double[d];
        double[][] s = new double[d][d];
        double[] delta = new double[d];
        for (int n = 1; n <= x.length; n++) {
            for (int j = 0; j < d; j++) {
                delta[j] = x[n - 1][j] - mean[j];
                mean[j] += delta[j] / n;
            }
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    s[i][j] += delta[i] * (x[n - 1][j] - mean[j]);
                }
            }
        }
        for (double[] row : s) {
            for (int j = 0; j < d; j++) {
                row[j] /= x.length;
            }
        }
        return s;
    }

    @Test
    void shouldGiveExactStatisticsForSmallIntegerData() {
        RunningGaussian g = new RunningGaussian(2);
        g.update(new double[] {1, 2});
        g.update(new double[] {3, 2});
        g.update(new double[] {5, 8});
        // mean (3, 4); deviations (−2,−2), (0,−2), (2,4): S = [[8, 12], [12, 24]]
        assertArrayEquals(new double[] {3, 4}, g.mean(), 0.0);
        assertArrayEquals(new double[] {8, 12}, g.scatter()[0], 0.0);
        assertArrayEquals(new double[] {12, 24}, g.scatter()[1], 0.0);
    }

    @Test
    void shouldKeepTheStoredByteLayout() {
        // Stores and changelogs hold this layout: format byte, d, n, then pivot, relative mean and packed scatter
        // as big-endian doubles. Two points in d = 2: pivot (1, 2) (the first point); second (3, 6).
        RunningGaussian g = new RunningGaussian(2);
        g.update(new double[] {1, 2});
        g.update(new double[] {3, 6});
        java.nio.ByteBuffer expected = java.nio.ByteBuffer.allocate(1 + 4 + 8 + 8 * (2 + 2 + 3));
        expected.put((byte) 1).putInt(2).putLong(2);
        // relative mean (1, 2); scatter [[2, 4], [4, 8]] packed as the upper triangle row by row: 2, 4, 8.
        for (double v : new double[] {1, 2, 1, 2, 2, 4, 8}) {
            expected.putDouble(v);
        }
        assertArrayEquals(expected.array(), g.toBytes());
        assertArrayEquals(new double[] {2, 4}, RunningGaussian.fromBytes(expected.array()).mean(), 0.0);
    }

    /**
     * The layout above once the writer is compiled: a training task serialises its class after every event, so what
     * stores, changelogs and partial snapshots get is the JIT-compiled writer's output, which a test that writes a few
     * times never runs. Statistics of d = 1 … 24 written {@value #HOT_WRITES} times in all (C2 compiles the writer
     * after some thousands), each compared with the layout put together here one double at a time: the writer puts
     * its doubles through a big-endian byte-array view whose byte swap the compiler inlines, and a writer that got
     * the byte order wrong once compiled would corrupt every store while the cold tests stayed green. The reader
     * (restore) uses the same view, so each layout is also read back, hot, and must write itself again.
     */
    @Test
    void shouldKeepTheStoredByteLayoutOnceTheWriterIsCompiled() {
        SplittableRandom random = new SplittableRandom(SEED + 9);
        List<RunningGaussian> statistics = new ArrayList<>();
        List<byte[]> layouts = new ArrayList<>();
        for (int d = 1; d <= 24; d++) {
            RunningGaussian g = new RunningGaussian(d);
            double[] x = new double[d];
            for (int n = 0; n < 5; n++) {
                for (int j = 0; j < d; j++) {
                    x[j] = random.nextGaussian();
                }
                g.update(x);
            }
            statistics.add(g);
            layouts.add(layoutOf(g));
        }
        for (int round = 0; round < HOT_WRITES / statistics.size(); round++) {
            for (int k = 0; k < statistics.size(); k++) {
                if (!Arrays.equals(layouts.get(k), statistics.get(k).toBytes())) {
                    int written = round * statistics.size() + k;
                    assertArrayEquals(layouts.get(k), statistics.get(k).toBytes(),
                            "d = " + (k + 1) + " after " + written + " writes");
                }
                // The reader takes its doubles through the same view: read back, the layout writes itself again.
                byte[] reread = RunningGaussian.fromBytes(layouts.get(k)).toBytes();
                if (!Arrays.equals(layouts.get(k), reread)) {
                    assertArrayEquals(layouts.get(k), reread,
                            "d = " + (k + 1) + " read back after " + (round * statistics.size() + k) + " reads");
                }
            }
        }
    }

    /** Version 1 (unweighted, full) as {@link #shouldKeepTheStoredByteLayout} spells it, one double at a time. */
    private static byte[] layoutOf(RunningGaussian g) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1 + 4 + 8
                + 8 * (g.pivot.length + g.relativeMean.length + g.packedScatter.length));
        b.put((byte) 1).putInt(g.d).putLong(g.n);
        for (double[] part : new double[][] {g.pivot, g.relativeMean, g.packedScatter}) {
            for (double v : part) {
                b.putDouble(v);
            }
        }
        return b.array();
    }

    @Test
    void shouldRoundTripThroughBytes() {
        RunningGaussian g = sequential(cloud(new SplittableRandom(SEED + 3), 17, 3, 1e12, 1e-3), 0, 17);
        RunningGaussian back = RunningGaussian.fromBytes(g.toBytes());
        assertEquals(g.count(), back.count());
        assertArrayEquals(g.mean(), back.mean(), 0.0);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(g.scatter()[i], back.scatter()[i], 0.0);
        }
        assertArrayEquals(g.toBytes(), back.toBytes());
    }

    @Test
    void shouldRejectCorruptBytes() {
        byte[] good = sequential(cloud(new SplittableRandom(SEED + 4), 5, 2, 0, 1), 0, 5).toBytes();
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(null));
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(new byte[3]));
        assertThrows(IllegalArgumentException.class,
                () -> RunningGaussian.fromBytes(Arrays.copyOf(good, good.length - 1)));
        byte[] version = good.clone();
        version[0] = 9;
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(version));
        byte[] nan = good.clone();
        // the last 8 bytes are the scatter entry (1,1); 0x7ff8… is NaN
        nan[nan.length - 8] = 0x7f;
        nan[nan.length - 7] = (byte) 0xf8;
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(nan));
    }

    @Test
    void shouldRejectNonFiniteOrWronglySizedUpdates() {
        RunningGaussian g = new RunningGaussian(2);
        assertThrows(IllegalArgumentException.class, () -> g.update(new double[] {1, Double.NaN}));
        assertThrows(IllegalArgumentException.class, () -> g.update(new double[] {1}));
        assertEquals(0, g.count());
    }

    @Test
    void shouldBeUnchangedByMergingAnEmptyStatisticAndCopyWhenEmpty() {
        RunningGaussian g = sequential(cloud(new SplittableRandom(SEED + 5), 9, 2, 5, 1), 0, 9);
        byte[] before = g.toBytes();
        g.merge(new RunningGaussian(2));
        assertArrayEquals(before, g.toBytes());
        RunningGaussian empty = new RunningGaussian(2);
        empty.merge(g);
        assertArrayEquals(before, empty.toBytes());
    }
}
