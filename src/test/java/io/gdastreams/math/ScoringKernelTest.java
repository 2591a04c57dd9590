package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * The scoring kernels (explicit inverse Cholesky factor, four-row products, one-pass posterior) against the path
 * they replaced ({@link LegacyScorer}: forward substitution, two passes of exponentials), an independent algorithm,
 * on correlated, ill-conditioned and far-offset data; the triangular inverse against LL⁻¹ = I; and the
 * allocation-free form against the allocating one, also from several threads at once.
 */
class ScoringKernelTest {

    private static final long SEED = 20261125L;
    private static final int[] DIMENSIONS = {1, 2, 3, 4, 5, 7, 8, 16, 33, 64};
    /**
     * Relative agreement of log-densities and log-joints with the substitution path: both are within
     * ≈ d·u·cond(L) of exact (TriangularKernel's error bound); cond(L) ≤ 1e3 here and d ≤ 64, so 1e-9 leaves a
     * margin of 10² over 64·1.1e-16·1e3 ≈ 7e-12.
     */
    private static final double RELATIVE = 1e-9;
    /** Absolute agreement of probabilities (each in [0, 1]; they inherit the log-joints' error times ≤ 1). */
    private static final double PROBABILITY = 1e-9;
    /** |L·L⁻¹ − I| entrywise, for factors with cond(L) ≤ 1e3 (Higham's γ_d·cond bound: ≈ 64·1.1e-16·1e3). */
    private static final double INVERSE = 1e-11;

    /** K classes in d dimensions on {@code offset}, each from a random correlated Gaussian with spread ratio. */
    static GaussianModel model(CovarianceType type, int d, double offset, double spread, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<ClassSummary> classes = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            double[][] mixing = new double[d][d];
            for (int i = 0; i < d; i++) {
                mixing[i][i] = Math.pow(spread, (double) i / Math.max(1, d - 1));
                for (int j = 0; j < i; j++) {
                    mixing[i][j] = 0.5 * random.nextGaussian();
                }
            }
            RunningGaussian g = new RunningGaussian(d);
            int n = 4 * d + 20;
            for (int e = 0; e < n; e++) {
                double[] u = new double[d];
                for (int j = 0; j < d; j++) {
                    u[j] = random.nextGaussian();
                }
                double[] x = new double[d];
                for (int i = 0; i < d; i++) {
                    x[i] = offset + 2.0 * k;
                    for (int j = 0; j <= i; j++) {
                        x[i] += mixing[i][j] * u[j];
                    }
                }
                g.update(x);
            }
            classes.add(ClassSummary.of("c" + k, g));
        }
        return GaussianModel.fit(classes, FitOptions.defaults().withCovarianceType(type));
    }

    static double[] point(int d, double offset, SplittableRandom random) {
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] = offset + 2.0 * random.nextGaussian();
        }
        return x;
    }

    @ParameterizedTest
    @EnumSource(value = CovarianceType.class)
    void shouldAgreeWithForwardSubstitutionPath(CovarianceType type) {
        SplittableRandom random = new SplittableRandom(SEED);
        double worst = 0.0;
        for (int d : DIMENSIONS) {
            for (double offset : new double[] {0.0, 1e6}) {
                for (double spread : new double[] {1.0, 1e3}) {
                    GaussianModel model = model(type, d, offset, spread, random.nextLong());
                    Discriminant fast = Discriminant.compile(model);
                    LegacyScorer legacy = LegacyScorer.compile(model);
                    for (int i = 0; i < 20; i++) {
                        double[] x = point(d, offset, random);
                        Posterior expected = legacy.score(x);
                        Posterior actual = fast.score(x);
                        String where = type + " d=" + d + " offset=" + offset + " spread=" + spread;
                        worst = Math.max(worst, relative(expected.logDensity(), actual.logDensity()));
                        assertEquals(expected.logDensity(), actual.logDensity(),
                                RELATIVE * Math.abs(expected.logDensity()), where);
                        for (int k = 0; k < 3; k++) {
                            assertEquals(expected.logJoint()[k], actual.logJoint()[k],
                                    RELATIVE * Math.abs(expected.logJoint()[k]), where);
                        }
                        assertArrayEquals(expected.probabilities(), actual.probabilities(), PROBABILITY, where);
                    }
                }
            }
        }
        assertTrue(worst < RELATIVE, "worst relative difference " + worst);
    }

    private static double relative(double expected, double actual) {
        return Math.abs(expected - actual) / Math.max(Math.abs(expected), Double.MIN_NORMAL);
    }

    @Test
    void packedInverseShouldInvertTheFactor() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int d : DIMENSIONS) {
            GaussianModel model = model(CovarianceType.FULL, d, 0.0, 1e3, random.nextLong());
            CholeskyFactor l = model.factor(0);
            double[] inverse = new double[TriangularKernel.packedSize(d) + 5];
            TriangularKernel.packedInverse(l, inverse, 5);
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    // (L L⁻¹)_ij = Σ_m L_im (L⁻¹)_mj over j ≤ m ≤ i.
                    double s = 0.0;
                    for (int m = j; m <= i; m++) {
                        s += l.get(i, m) * inverse[5 + TriangularKernel.index(d, m, j)];
                    }
                    assertEquals(i == j ? 1.0 : 0.0, s, INVERSE, "d=" + d + " (" + i + "," + j + ")");
                }
            }
            // The product in place against the plain row-by-row product with the same packed inverse.
            double[] r = point(d, 0.0, random);
            double[] expected = new double[d];
            double q = 0.0;
            for (int i = 0; i < d; i++) {
                for (int j = 0; j <= i; j++) {
                    expected[i] += inverse[5 + TriangularKernel.index(d, i, j)] * r[j];
                }
                q += expected[i] * expected[i];
            }
            double actualQ = TriangularKernel.whitenInPlace(inverse, 5, r, d);
            for (int i = 0; i < d; i++) {
                assertEquals(expected[i], r[i], 1e-13 * (1 + Math.abs(expected[i])), "d=" + d);
            }
            assertEquals(q, actualQ, 1e-13 * q);
        }
    }

    @ParameterizedTest
    @EnumSource(value = CovarianceType.class)
    void callerSuppliedOutputShouldEqualTheAllocatingForm(CovarianceType type) {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        GaussianModel model = model(type, 16, 3.0, 10.0, SEED);
        Discriminant discriminant = Discriminant.compile(model);
        double[] added = {-0.5, -1.0, Double.NEGATIVE_INFINITY};
        double[] out = new double[3];
        for (int i = 0; i < 50; i++) {
            double[] x = point(16, 3.0, random);
            if (i % 5 == 0) {
                x[i % 16] = Double.NaN;
            }
            double[] addedHere = i % 2 == 0 ? null : added;
            Posterior expected = discriminant.score(x, addedHere);
            double logDensity = discriminant.score(x, addedHere, out);
            // The same arithmetic in the same order: bit for bit.
            assertEquals(expected.logDensity(), logDensity, 0.0);
            assertArrayEquals(expected.probabilities(), out, 0.0);
            double sum = 0.0;
            for (double p : out) {
                sum += p;
            }
            assertEquals(1.0, sum, 4 * Math.ulp(1.0));
            if (addedHere != null) {
                assertEquals(0.0, out[2], 0.0);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> discriminant.score(new double[16], null, new double[2]));
    }

    /**
     * The allocation-free score looks at x only when a log-likelihood came out −∞; {@link Discriminant#explain}
     * counts the missing coordinates first, as every score did before. Both must give the same bits for every kind
     * of point (observed, one or several missing, all missing, distances that overflow for some or all classes),
     * and an infinite coordinate must be refused wherever it is, also beside a missing one.
     */
    @ParameterizedTest
    @EnumSource(value = CovarianceType.class)
    void shouldLookAtXAfterTheKernelWithTheSameAnswersAsBefore(CovarianceType type) {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int d : new int[] {1, 2, 5, 16, 33}) {
            Discriminant discriminant = Discriminant.compile(model(type, d, 0.0, 10.0, random.nextLong()));
            double[] out = new double[3];
            List<double[]> points = new ArrayList<>();
            for (int j = 0; j < d; j++) {
                double[] oneMissing = point(d, 0.0, random);
                oneMissing[j] = Double.NaN;
                points.add(oneMissing);
                double[] oneFar = point(d, 0.0, random);
                oneFar[j] = 1e200 * (j % 2 == 0 ? 1 : -1);
                points.add(oneFar);
            }
            double[] allMissing = new double[d];
            java.util.Arrays.fill(allMissing, Double.NaN);
            double[] allFar = new double[d];
            java.util.Arrays.fill(allFar, 1e300);
            double[] farAndMissing = allFar.clone();
            farAndMissing[0] = Double.NaN;
            points.addAll(List.of(point(d, 0.0, random), allMissing, allFar, farAndMissing));
            for (double[] x : points) {
                Posterior expected = discriminant.explain(x).posterior();
                double logDensity = discriminant.score(x, null, out);
                String where = type + " d=" + d + " x=" + java.util.Arrays.toString(x);
                assertEquals(expected.logDensity(), logDensity, 0.0, where);
                assertArrayEquals(expected.probabilities(), out, 0.0, where);
            }
            for (int j = 0; j < d; j++) {
                for (double infinite : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
                    double[] x = point(d, 0.0, random);
                    x[j] = infinite;
                    assertThrows(IllegalArgumentException.class, () -> discriminant.score(x, null, out));
                    assertThrows(IllegalArgumentException.class, () -> discriminant.score(x));
                    if (d > 1) {
                        x[(j + 1) % d] = Double.NaN;
                        assertThrows(IllegalArgumentException.class, () -> discriminant.score(x, null, out));
                    }
                }
            }
        }
    }

    @Test
    void allMissingShouldGiveThePriorsThroughTheNewForm() {
        GaussianModel model = model(CovarianceType.FULL, 4, 0.0, 1.0, SEED);
        double[] out = new double[3];
        double logDensity = Discriminant.compile(model).score(new double[] {Double.NaN, Double.NaN, Double.NaN,
                Double.NaN}, null, out);
        assertEquals(0.0, logDensity, 0.0);
        assertArrayEquals(model.priors(), out, 1e-15);
    }

    /** One compiled model shared by threads of different dimensions: the per-thread scratch keeps them apart. */
    @Test
    void sharedModelShouldScoreTheSameFromConcurrentThreads() throws Exception {
        Discriminant small = Discriminant.compile(model(CovarianceType.FULL, 5, 0.0, 10.0, SEED));
        Discriminant large = Discriminant.compile(model(CovarianceType.TIED, 64, 0.0, 10.0, SEED));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                Discriminant discriminant = t % 2 == 0 ? small : large;
                long seed = SEED + t;
                Callable<Boolean> task = () -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    double[] out = new double[3];
                    for (int i = 0; i < 2000; i++) {
                        double[] x = point(discriminant.dimension(), 0.0, random);
                        double logDensity = discriminant.score(x, null, out);
                        Posterior alone = discriminant.score(x);
                        if (logDensity != alone.logDensity() || !java.util.Arrays.equals(out, alone.probabilities())) {
                            return false;
                        }
                    }
                    return true;
                };
                results.add(pool.submit(task));
            }
            for (Future<Boolean> f : results) {
                assertTrue(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
