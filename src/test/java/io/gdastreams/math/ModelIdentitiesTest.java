package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Identities between the covariance types, the marginal and the linear form. */
class ModelIdentitiesTest {

    /** Two computations of the same quantity along different code paths. */
    private static final double IDENTITY = 1e-12;
    private static final double SUM_TO_ONE = 1e-15;
    private static final long SEED = 11;

    private static final double[][] SIGMA = {{4, 2, -1}, {2, 10, 3}, {-1, 3, 6}};

    private static double[][] times(double[][] a, double f) {
        double[][] out = new double[a.length][a.length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a.length; j++) {
                out[i][j] = a[i][j] * f;
            }
        }
        return out;
    }

    private static List<ClassSummary> equalCovarianceClasses(double[][] sigma) {
        return List.of(
                new ClassSummary("a", 20, new double[] {0, 0, 0}, times(sigma, 20)),
                new ClassSummary("b", 50, new double[] {3, -1, 2}, times(sigma, 50)),
                new ClassSummary("c", 30, new double[] {-2, 4, 1}, times(sigma, 30)));
    }

    private static double[] randomPoint(SplittableRandom random, int d, double spread) {
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] = random.nextDouble(-spread, spread);
        }
        return x;
    }

    private static void assertSamePosterior(Posterior expected, Posterior actual, double tolerance) {
        assertArrayEquals(expected.probabilities(), actual.probabilities(), tolerance);
        assertEquals(expected.logDensity(), actual.logDensity(), tolerance * Math.max(1, Math.abs(expected.logDensity())));
        assertEquals(expected.predicted(), actual.predicted());
    }

    @Test
    void shouldGiveTiedEqualToFullWhenClassCovariancesAreEqual() {
        List<ClassSummary> classes = equalCovarianceClasses(SIGMA);
        Discriminant full = Discriminant.compile(GaussianModel.fit(classes, FitOptions.defaults()));
        Discriminant tied = Discriminant.compile(GaussianModel.fit(classes,
                FitOptions.defaults().withCovarianceType(CovarianceType.TIED)));
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 200; i++) {
            double[] x = randomPoint(random, 3, 8);
            assertSamePosterior(full.score(x), tied.score(x), IDENTITY);
        }
    }

    @Test
    void shouldGiveDiagEqualToFullForDiagonalCovariances() {
        double[][] diagonal = {{4, 0, 0}, {0, 0.25, 0}, {0, 0, 9}};
        List<ClassSummary> classes = List.of(
                new ClassSummary("a", 20, new double[] {0, 0, 0}, times(diagonal, 20)),
                new ClassSummary("b", 50, new double[] {3, -1, 2}, times(diagonal, 100)));
        Discriminant full = Discriminant.compile(GaussianModel.fit(classes, FitOptions.defaults()));
        Discriminant diag = Discriminant.compile(GaussianModel.fit(classes,
                FitOptions.defaults().withCovarianceType(CovarianceType.DIAG)));
        SplittableRandom random = new SplittableRandom(SEED + 1);
        for (int i = 0; i < 200; i++) {
            double[] x = randomPoint(random, 3, 8);
            assertSamePosterior(full.score(x), diag.score(x), IDENTITY);
            x[1] = Double.NaN;
            assertSamePosterior(full.score(x), diag.score(x), IDENTITY);
        }
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldGivePosteriorsThatSumToOne(CovarianceType type) throws IOException {
        Discriminant discriminant = Discriminant.compile(GaussianModel.fit(
                IrisGoldenTest.summaries(Iris.rows(), new int[] {0, 1, 2, 3}),
                FitOptions.defaults().withCovarianceType(type)));
        SplittableRandom random = new SplittableRandom(SEED + 2);
        for (int i = 0; i < 1000; i++) {
            double[] x = randomPoint(random, 4, 10);
            if (i % 3 == 0) {
                x[random.nextInt(4)] = Double.NaN;
            }
            Posterior p = discriminant.score(x);
            double sum = 0;
            for (double v : p.probabilities()) {
                assertTrue(v >= 0 && v <= 1);
                sum += v;
            }
            assertEquals(1.0, sum, SUM_TO_ONE);
            assertTrue(Double.isFinite(p.logDensity()));
            assertEquals(LogSumExp.of(p.logJoint()), p.logDensity(), IDENTITY * Math.abs(p.logDensity()));
        }
    }

    /** The statistics of the Iris classes with column {@code drop} removed. */
    private static List<ClassSummary> withoutFeature(List<ClassSummary> classes, int drop) {
        List<ClassSummary> out = new ArrayList<>();
        for (ClassSummary c : classes) {
            int d = c.mean().length;
            double[] mean = new double[d - 1];
            double[][] scatter = new double[d - 1][d - 1];
            for (int i = 0, ii = 0; i < d; i++) {
                if (i == drop) {
                    continue;
                }
                mean[ii] = c.mean()[i];
                for (int j = 0, jj = 0; j < d; j++) {
                    if (j != drop) {
                        scatter[ii][jj++] = c.scatter()[i][j];
                    }
                }
                ii++;
            }
            out.add(new ClassSummary(c.label(), c.count(), mean, scatter));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldMarginaliseMissingFeatureLikeAModelBuiltWithoutIt(CovarianceType type) throws IOException {
        List<LabelledRow> rows = Iris.rows();
        List<ClassSummary> classes = IrisGoldenTest.summaries(Iris.rows(), new int[] {0, 1, 2, 3});
        for (Estimator estimator : Estimator.values()) {
            FitOptions options = FitOptions.defaults().withCovarianceType(type).withEstimator(estimator);
            Discriminant all = Discriminant.compile(GaussianModel.fit(classes, options));
            for (int drop = 0; drop < 4; drop++) {
                Discriminant reduced = Discriminant.compile(GaussianModel.fit(withoutFeature(classes, drop), options));
                for (LabelledRow row : rows) {
                    double[] x = row.x().clone();
                    x[drop] = Double.NaN;
                    double[] shorter = new double[3];
                    for (int j = 0, jj = 0; j < 4; j++) {
                        if (j != drop) {
                            shorter[jj++] = row.x()[j];
                        }
                    }
                    assertSamePosterior(reduced.score(shorter), all.score(x), IDENTITY);
                }
            }
            assertEquals(type == CovarianceType.DIAG ? 0 : 4, all.cachedPatterns());
        }
    }

    @Test
    void shouldReturnPriorsWhenEveryFeatureIsMissing() throws IOException {
        GaussianModel model = GaussianModel.fit(
                IrisGoldenTest.summaries(Iris.rows(), new int[] {0, 1}), FitOptions.defaults());
        Posterior p = Discriminant.compile(model).score(new double[] {Double.NaN, Double.NaN});
        assertArrayEquals(model.priors(), p.probabilities(), SUM_TO_ONE);
        assertEquals(0.0, p.logDensity(), SUM_TO_ONE);
    }

    @Test
    void shouldScoreTiedLikeItsLinearDiscriminants() throws IOException {
        GaussianModel model = GaussianModel.fit(IrisGoldenTest.summaries(Iris.rows(), new int[] {0, 1, 2, 3}),
                FitOptions.defaults().withCovarianceType(CovarianceType.TIED).withEstimator(Estimator.UNBIASED));
        Discriminant discriminant = Discriminant.compile(model);
        LinearDiscriminants linear = discriminant.linear().orElseThrow();
        double[][] sigma = model.covariance(0);
        double[][] means = model.means();
        for (int k = 0; k < 3; k++) {
            // Σ β_k = μ_k
            for (int i = 0; i < 4; i++) {
                double v = 0;
                for (int j = 0; j < 4; j++) {
                    v += sigma[i][j] * linear.beta()[k][j];
                }
                assertEquals(means[k][i], v, IDENTITY * 100);
            }
        }
        for (LabelledRow row : Iris.rows()) {
            double[] delta = new double[3];
            for (int k = 0; k < 3; k++) {
                delta[k] = linear.gamma()[k];
                for (int j = 0; j < 4; j++) {
                    delta[k] += linear.beta()[k][j] * row.x()[j];
                }
            }
            double norm = LogSumExp.of(delta);
            double[] softmax = new double[3];
            for (int k = 0; k < 3; k++) {
                softmax[k] = Math.exp(delta[k] - norm);
            }
            assertArrayEquals(softmax, discriminant.score(row.x()).probabilities(), 1e-10);
        }
        assertTrue(Discriminant.compile(GaussianModel.fit(IrisGoldenTest.summaries(Iris.rows(),
                new int[] {0, 1}), FitOptions.defaults())).linear().isEmpty());
    }

    /**
     * The cache is bounded by bytes as well as by count: at d = 64 with ten classes a pattern missing two coordinates
     * holds ten 62 × 62 factors (300 KiB), so 1024 of them held 300 MiB (a scorer ran out of memory on input whose
     * missing features varied). Scores past the bound are computed per call, bit for bit those of a fresh model.
     */
    @Test
    void shouldBoundThePatternCacheByBytesAndScoreTheSamePastIt() {
        int d = 64;
        int classes = 10;
        SplittableRandom random = new SplittableRandom(SEED + 4);
        GaussianModel model = GroupScoreTest.model(CovarianceType.FULL, classes, d, random);
        Discriminant discriminant = Discriminant.compile(model);
        long perPattern = (long) classes * (d - 2) * (d - 2) * Double.BYTES + (long) (d - 2) * Integer.BYTES;
        long fits = MarginalFactors.MAX_CACHED_PATTERN_BYTES / perPattern;
        int patterns = (int) fits + 40;
        double[][] xs = GroupScoreTest.points(patterns, d, random);
        for (int i = 0; i < patterns; i++) {
            xs[i][i % d] = Double.NaN;
            xs[i][(i / d + i % d + 1) % d] = Double.NaN; // pairs (i mod d, ·) all distinct for i < d(d−1)
        }
        Posterior[] first = new Posterior[patterns];
        for (int i = 0; i < patterns; i++) {
            first[i] = discriminant.score(xs[i]);
        }
        assertEquals(fits, discriminant.cachedPatterns(), "as many patterns as the bytes allow");
        assertEquals(fits * perPattern, discriminant.cachedPatternBytes());
        assertTrue(discriminant.cachedPatternBytes() <= MarginalFactors.MAX_CACHED_PATTERN_BYTES);
        for (int i = patterns - 1; i >= 0; i--) {
            Posterior again = discriminant.score(xs[i]);
            Posterior fresh = Discriminant.compile(model).score(xs[i]);
            assertArrayEquals(fresh.probabilities(), again.probabilities(), 0.0);
            assertArrayEquals(first[i].probabilities(), again.probabilities(), 0.0);
            assertEquals(fresh.logDensity(), again.logDensity(), 0.0);
        }
        assertEquals(fits, discriminant.cachedPatterns());
    }

    @Test
    void shouldBoundThePatternCacheAndScoreTheSameConcurrently() throws Exception {
        int d = 16;
        SplittableRandom random = new SplittableRandom(SEED + 3);
        List<ClassSummary> classes = new ArrayList<>();
        for (String label : List.of("a", "b", "c")) {
            RunningGaussian g = new RunningGaussian(d);
            for (double[] x : RunningGaussianTest.cloud(random, 200, d, 0, 1)) {
                g.update(x);
            }
            classes.add(ClassSummary.of(label, g));
        }
        Discriminant discriminant = Discriminant.compile(GaussianModel.fit(classes, FitOptions.defaults()));
        int points = 3000;
        double[][] xs = new double[points][];
        for (int i = 0; i < points; i++) {
            xs[i] = randomPoint(random, d, 3);
            for (int j = 0; j < d; j++) {
                if (random.nextInt(4) == 0) {
                    xs[i][j] = Double.NaN;
                }
            }
        }
        Posterior[] expected = new Posterior[points];
        Discriminant fresh = Discriminant.compile(discriminant.model());
        for (int i = 0; i < points; i++) {
            expected[i] = fresh.score(xs[i]);
        }
        assertEquals(MarginalFactors.MAX_CACHED_PATTERNS, fresh.cachedPatterns());

        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                futures.add(pool.submit(() -> {
                    for (int n = 0; n < points; n++) {
                        int i = (n * 7 + offset * 13) % points;
                        Posterior p = discriminant.score(xs[i]);
                        assertArrayEquals(expected[i].probabilities(), p.probabilities(), 0.0);
                        assertEquals(expected[i].logDensity(), p.logDensity(), 0.0);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(discriminant.cachedPatterns() <= MarginalFactors.MAX_CACHED_PATTERNS);
    }
}
