package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The degenerate-data policy of GaussianModel: finite posteriors that sum to 1, or a documented exclusion. */
class DegenerateDataTest {

    private static final double SUM_TO_ONE = 1e-15;
    private static final double EXACT = 1e-14;
    private static final long SEED = 23;

    private static ClassSummary summary(String label, double[][] points) {
        RunningGaussian g = new RunningGaussian(points[0].length);
        for (double[] x : points) {
            g.update(x);
        }
        return ClassSummary.of(label, g);
    }

    /** Scores many points, including far-away and partially missing ones, and checks the output contract. */
    private static void assertFiniteAndNormalised(Discriminant discriminant) {
        int d = discriminant.dimension();
        SplittableRandom random = new SplittableRandom(SEED);
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            double[] x = new double[d];
            double scale = Math.pow(10, random.nextInt(-3, 160));
            for (int j = 0; j < d; j++) {
                x[j] = random.nextDouble(-1, 1) * scale;
            }
            points.add(x);
            double[] partial = x.clone();
            partial[random.nextInt(d)] = Double.NaN;
            points.add(partial);
        }
        for (double[] x : points) {
            Posterior p = discriminant.score(x);
            double sum = 0;
            for (double v : p.probabilities()) {
                assertTrue(Double.isFinite(v) && v >= 0, "probability " + v);
                sum += v;
            }
            assertEquals(1.0, sum, SUM_TO_ONE);
            assertTrue(Double.isFinite(p.logDensity()), "logDensity " + p.logDensity());
            for (double v : p.logJoint()) {
                assertTrue(Double.isFinite(v));
            }
            // Explanations and imputation keep the same contract: finite, and consistent with the posterior.
            Evidence e = discriminant.explain(x);
            assertArrayEquals(p.probabilities(), e.posterior().probabilities(), 0.0);
            for (int k = 0; k < p.probabilities().length; k++) {
                assertTrue(Double.isFinite(e.logLikelihoods()[k]) && e.squaredDistances()[k] >= 0
                        && Double.isFinite(e.squaredDistances()[k]), "terms of class " + k);
            }
            double tail = e.tailProbability();
            assertTrue(tail >= 0 && tail <= 1, "tail " + tail);
            double[] completed = discriminant.impute(x, p);
            for (int j = 0; j < d; j++) {
                assertTrue(Double.isFinite(completed[j]), "imputed " + completed[j]);
                if (!Double.isNaN(x[j])) {
                    assertEquals(x[j], completed[j], 0.0);
                }
            }
        }
    }

    /**
     * A conditional mean that overflows: variances of 1e-300 with correlation ½ and an observed value 1e100 away
     * make Σ_OO⁻¹(x_O − μ_O) = 4/3·1e400; the imputed value is reported as the largest double, not ∞.
     */
    @Test
    void shouldReportAnOverflowingConditionalMeanAsTheLargestDouble() {
        double[][] tiny = {{1e-300, 0.5e-300}, {0.5e-300, 1e-300}};
        ClassSummary c = ClassSummary.ofMleCovariance("a", 10, new double[] {0, 0}, tiny);
        Discriminant discriminant = Discriminant.compile(GaussianModel.fit(List.of(c), FitOptions.defaults()
                .withVarianceFloor(0.0)));
        double[] x = {1e100, Double.NaN};
        Posterior p = discriminant.score(x);
        assertArrayEquals(new double[] {1e100, Double.MAX_VALUE}, discriminant.impute(x, p), 0.0);
        assertArrayEquals(new double[] {-1e100, -Double.MAX_VALUE},
                discriminant.impute(new double[] {-1e100, Double.NaN}, p), 0.0);
        // Near the mean the same model imputes ρ·x_O exactly (Σ_MO/Σ_OO = ½).
        double[] near = {3e-150, Double.NaN};
        assertEquals(1.5e-150, discriminant.impute(near, discriminant.score(near))[1], 1e-150 * 1e-12);
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldExcludeSingleSampleClassesBelowTheDefaultMinimum(CovarianceType type) {
        List<ClassSummary> classes = List.of(summary("a", new double[][] {{1, 2}}),
                summary("b", new double[][] {{3, 1}}));
        GaussianModel model = GaussianModel.fit(classes, FitOptions.defaults().withCovarianceType(type));
        assertEquals(List.of(), model.labels());
        assertEquals(List.of(new Exclusion("a", "count 1 below minimum 2"), new Exclusion("b", "count 1 below minimum 2")),
                model.excluded());
        Discriminant discriminant = Discriminant.compile(model);
        assertThrows(IllegalStateException.class, () -> discriminant.score(new double[] {1, 2}));
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldScoreSingleSampleClassesOnTheVarianceFloorWhenAllowed(CovarianceType type) {
        List<ClassSummary> classes = List.of(summary("a", new double[][] {{1, 2}}),
                summary("b", new double[][] {{3, 1}}), summary("c", new double[][] {{3, 5}}));
        GaussianModel model = GaussianModel.fit(classes,
                FitOptions.defaults().withCovarianceType(type).withMinCount(1));
        assertEquals(3, model.labels().size());
        // S_k = 0, so no within-class variance: the floor falls back to all data.
        // x0 ∈ {1, 3, 3} → v0 = 8/9; x1 ∈ {2, 1, 5} → v1 = 26/9; Σ_k = floor = 1e-9 v_j.
        assertArrayEquals(new double[] {1e-9 * 8 / 9, 0}, model.covariance(0)[0], EXACT * 1e-9);
        assertArrayEquals(new double[] {0, 1e-9 * 26 / 9}, model.covariance(0)[1], EXACT * 1e-9);
        assertEquals(0.0, model.jitter(0));
        assertFiniteAndNormalised(Discriminant.compile(model));
    }

    @Test
    void shouldExcludeClassesThatCannotGiveAnUnbiasedEstimate() {
        List<ClassSummary> classes = List.of(summary("a", new double[][] {{1, 2}}),
                summary("b", new double[][] {{3, 1}, {2, 2}, {0, 0}}));
        FitOptions unbiased = FitOptions.defaults().withEstimator(Estimator.UNBIASED).withMinCount(1);
        GaussianModel full = GaussianModel.fit(classes, unbiased);
        assertEquals(List.of("b"), full.labels());
        assertEquals(List.of(new Exclusion("a", "unbiased covariance needs a count of at least 2, got 1")),
                full.excluded());
        assertArrayEquals(new double[] {1.0}, full.priors(), EXACT);

        GaussianModel tied = GaussianModel.fit(classes, unbiased.withCovarianceType(CovarianceType.TIED));
        assertEquals(List.of("a", "b"), tied.labels());
        // S_b = [[42/9, 2], [2, 2]], S_a = 0, n − K = 2
        assertArrayEquals(new double[] {7.0 / 3, 1}, tied.covariance(0)[0], EXACT);
        assertArrayEquals(new double[] {1, 1}, tied.covariance(1)[1], EXACT);
        assertEquals(0.0, tied.jitter(0));

        GaussianModel tooFew = GaussianModel.fit(List.of(summary("a", new double[][] {{1, 2}}),
                summary("b", new double[][] {{3, 1}})), unbiased.withCovarianceType(CovarianceType.TIED));
        assertEquals(List.of(), tooFew.labels());
        assertEquals("unbiased pooled covariance needs a total count above the number of classes (n=2, K=2)",
                tooFew.excluded().get(0).reason());
    }

    @Test
    void shouldExcludeAnEmptyClass() {
        GaussianModel model = GaussianModel.fit(List.of(new ClassSummary("empty", 0, new double[2], new double[2][2]),
                summary("b", new double[][] {{3, 1}, {2, 2}, {0, 0}})), FitOptions.defaults());
        assertEquals(List.of("b"), model.labels());
        assertEquals("count 0 below minimum 2", model.excluded().get(0).reason());
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldClampDuplicatedPointsToTheFloorOfThePooledVariance(CovarianceType type) {
        double[][] same = {{5, 5, 5}, {5, 5, 5}, {5, 5, 5}, {5, 5, 5}};
        double[][] spread = {{0, 1, 2}, {2, 3, 1}, {4, 2, 0}, {1, 1, 1}, {3, 0, 2}};
        List<ClassSummary> classes = List.of(summary("same", same), summary("spread", spread));
        GaussianModel model = GaussianModel.fit(classes, FitOptions.defaults().withCovarianceType(type));
        assertEquals(2, model.labels().size());
        if (type != CovarianceType.TIED) {
            // pooled within-class variance: only "spread" scatters, S_jj = 10, 5.2, 2.8 (by hand); n = 9
            double[] w = Regularisation.floorScale(classes, 3);
            assertArrayEquals(new double[] {10.0 / 9, 5.2 / 9, 2.8 / 9}, w, EXACT);
            for (int j = 0; j < 3; j++) {
                assertEquals(1e-9 * w[j], model.covariance(0)[j][j], EXACT * 1e-9);
            }
        }
        assertFiniteAndNormalised(Discriminant.compile(model));
    }

    @Test
    void shouldUseTheAbsoluteFloorForAFeatureThatIsConstantEverywhere() {
        double[][] a = {{7, 1}, {7, 2}, {7, 4}};
        double[][] b = {{7, 3}, {7, 5}};
        GaussianModel model = GaussianModel.fit(List.of(summary("a", a), summary("b", b)),
                FitOptions.defaults().withCovarianceType(CovarianceType.DIAG));
        assertEquals(1e-9, model.covariance(0)[0][0], 0.0);
        assertEquals(1e-9, model.covariance(1)[0][0], 0.0);
        Discriminant discriminant = Discriminant.compile(model);
        assertFiniteAndNormalised(discriminant);
        // The constant feature is equally (un)likely under both classes: it must not change the posterior, up to
        // the rounding of the shared term 0.09 / 1e-9 / 2 = 4.5e7 in each log-joint (ulp 7.5e-9).
        assertArrayEquals(discriminant.score(new double[] {Double.NaN, 2.5}).probabilities(),
                discriminant.score(new double[] {7.3, 2.5}).probabilities(), 1e-7);
    }

    @Test
    void shouldNotDependOnTheLastBatchForTheFloor() {
        // The floor comes from all data (pooled within-class variance over every class), not from any one batch.
        double[][] a = {{0, 0}, {0, 0}, {0, 0}};
        double[][] b = {{10, 10}, {10, 12}, {12, 10}};
        List<ClassSummary> classes = List.of(summary("a", a), summary("b", b));
        FitOptions options = FitOptions.defaults().withVarianceFloor(0.01);
        GaussianModel model = GaussianModel.fit(classes, options);
        // hand check: S_b,00 = (2/3)² + (2/3)² + (4/3)² = 8/3, n = 6 → w_0 = 4/9
        assertEquals(4.0 / 9, Regularisation.floorScale(classes, 2)[0], 1e-15);
        assertEquals(0.01 * 4.0 / 9, model.covariance(0)[0][0], 1e-15);
        assertEquals(0.0, model.covariance(0)[0][1], 0.0);
        // class b's variances (8/9) are above the floor: unchanged, a clamp, not additive smoothing
        assertEquals(8.0 / 9, model.covariance(1)[0][0], 1e-15);
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldNotLiftWithinClassVariancesOfFarApartClasses(CovarianceType type) {
        // Class means 1e6 standard deviations apart: the variance of all data is ~2.5e11, and a floor relative to
        // it would be 250 × the true within-class variance. Relative to the pooled variance it stays harmless.
        double[][] near = {{-1, 0}, {1, 1}, {0, -1}, {0, 0}};
        double[][] far = {{1e6 - 1, 0}, {1e6 + 1, 1}, {1e6, -1}, {1e6, 0}};
        List<ClassSummary> classes = List.of(summary("near", near), summary("far", far));
        GaussianModel model = GaussianModel.fit(classes, FitOptions.defaults().withCovarianceType(type));
        assertEquals(0.5, model.covariance(0)[0][0], 1e-12);
        assertEquals(0.5, model.covariance(1)[1][1], 1e-12);
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldStayFiniteForCollinearFeatures(CovarianceType type) {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        List<ClassSummary> classes = new ArrayList<>();
        for (String label : List.of("a", "b", "c")) {
            double[][] x = new double[30][3];
            double shift = label.charAt(0) - 'a';
            for (double[] row : x) {
                row[0] = random.nextGaussian() + shift;
                row[1] = 2 * row[0] + 3;
                row[2] = random.nextGaussian();
            }
            classes.add(summary(label, x));
        }
        GaussianModel model = GaussianModel.fit(classes, FitOptions.defaults().withCovarianceType(type));
        assertEquals(3, model.labels().size());
        if (type != CovarianceType.DIAG) {
            assertTrue(model.jitter(0) > 0, "the exactly singular covariance needs jitter");
            assertTrue(model.jitter(0) <= GaussianModel.MAX_JITTER * 10);
        }
        assertFiniteAndNormalised(Discriminant.compile(model));
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldStayFiniteWhenDimensionExceedsClassCount(CovarianceType type) {
        int d = 12;
        SplittableRandom random = new SplittableRandom(SEED + 2);
        List<ClassSummary> classes = new ArrayList<>();
        for (String label : List.of("a", "b", "c")) {
            classes.add(summary(label, RunningGaussianTest.cloud(random, 4, d, 100, 1)));
        }
        for (Estimator estimator : Estimator.values()) {
            GaussianModel model = GaussianModel.fit(classes,
                    FitOptions.defaults().withCovarianceType(type).withEstimator(estimator));
            assertEquals(3, model.labels().size());
            assertFiniteAndNormalised(Discriminant.compile(model));
        }
    }

    @Test
    void shouldShrinkTowardsTheAverageVariance() {
        double[][] sigma = {{4, 2}, {2, 10}};
        ClassSummary a = new ClassSummary("a", 10, new double[2], new double[][] {{40, 20}, {20, 100}});
        GaussianModel model = GaussianModel.fit(List.of(a), FitOptions.defaults().withRegParam(0.5));
        // (1 − r)Σ + r·(tr Σ / d)·I = 0.5Σ + 0.5·7·I
        assertArrayEquals(new double[] {0.5 * sigma[0][0] + 3.5, 1}, model.covariance(0)[0], EXACT);
        assertArrayEquals(new double[] {1, 0.5 * sigma[1][1] + 3.5}, model.covariance(0)[1], EXACT);
    }

    @Test
    void shouldExcludeAClassWhoseScatterIsNotPositiveSemidefinite() {
        // A damaged input (eigenvalues 6 and −4) that no small jitter repairs.
        ClassSummary bad = new ClassSummary("bad", 10, new double[2], new double[][] {{10, 50}, {50, 10}});
        ClassSummary good = new ClassSummary("good", 10, new double[] {1, 1}, new double[][] {{10, 0}, {0, 10}});
        GaussianModel model = GaussianModel.fit(List.of(bad, good), FitOptions.defaults());
        assertEquals(List.of("good"), model.labels());
        assertTrue(model.excluded().get(0).reason().startsWith("covariance not positive definite"));
        assertArrayEquals(new double[] {1.0}, model.priors(), 0.0);
        assertFiniteAndNormalised(Discriminant.compile(model));
    }

    @Test
    void shouldRejectMalformedInputToScore() {
        ClassSummary a = new ClassSummary("a", 10, new double[2], new double[][] {{10, 0}, {0, 10}});
        Discriminant discriminant = Discriminant.compile(GaussianModel.fit(List.of(a), FitOptions.defaults()));
        assertThrows(IllegalArgumentException.class, () -> discriminant.score(new double[3]));
        assertThrows(IllegalArgumentException.class,
                () -> discriminant.score(new double[] {Double.POSITIVE_INFINITY, 0}));
    }
}
