package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ScoringKernel#FAST} against {@link ScoringKernel#EXACT}, an order of operations that is the reference
 * elsewhere ({@code VectorKernelTest}, {@code ClassLanesTest}, the golden files): on correlated, ill-conditioned and
 * far-offset data, K = 1 … 9 (one to three vector groups of classes) and d = 1 … 70, with and without added
 * log-likelihoods; that FAST really took its own path (some outputs differ in their bits); and that it hands every
 * case it does not define the same way to EXACT (missing coordinates, non-finite log-joints) with EXACT's bits.
 */
class FastKernelTest {

    private static final long SEED = 20261127L;
    private static final int[] DIMENSIONS = {1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 33, 64, 70};
    private static final int[] CLASS_COUNTS = {1, 2, 3, 4, 5, 8, 9};
    /**
     * Relative agreement of log-densities and log-joints. Both kernels are within ≈ d·u·cond(L)·q of the exact q
     * (EXACT: a sequential sum, γ_d; FAST: four partial sums with FMA, γ_{d/4+2}); with cond(L) ≤ 1e3 and d ≤ 70 the
     * difference is below 2·70·1.1e-16·1e3 ≈ 1.6e-11 relative to q, and the log-joint is at least ½q in size
     * beyond a constant that both compute from the same inputs. 1e-9 leaves a margin of 60.
     */
    private static final double RELATIVE = 1e-9;
    /**
     * Absolute agreement of probabilities: they inherit the log-joints' absolute error (≤ 1e-9·|joint| for the
     * joints here, |joint| ≤ 1e3) times p ≤ 1, plus 1 ulp of the vector exponential and the reciprocal.
     */
    private static final double PROBABILITY = 1e-9;

    @BeforeAll
    static void vectorKernelsCompiled() throws InterruptedException {
        assertTrue(KernelChoice.VECTOR, "the tests run with --add-modules=jdk.incubator.vector (pom.xml argLine)");
        assertTrue(KernelChoice.awaitWarmUp(120_000), "the vector kernels were not warmed up in 120 s");
    }

    /** K classes in d dimensions around {@code offset}, each a random correlated Gaussian with the given spread. */
    static GaussianModel model(CovarianceType type, int classes, int d, double offset, double spread, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<ClassSummary> summaries = new ArrayList<>();
        for (int k = 0; k < classes; k++) {
            double[][] mixing = new double[d][d];
            for (int i = 0; i < d; i++) {
                mixing[i][i] = Math.pow(spread, (double) i / Math.max(1, d - 1));
                for (int j = 0; j < i; j++) {
                    mixing[i][j] = 0.5 * random.nextGaussian();
                }
            }
            RunningGaussian g = new RunningGaussian(d);
            for (int e = 0; e < 4 * d + 20; e++) {
                double[] u = new double[d];
                for (int j = 0; j < d; j++) {
                    u[j] = random.nextGaussian();
                }
                double[] x = new double[d];
                for (int i = 0; i < d; i++) {
                    x[i] = offset + 1.5 * k;
                    for (int j = 0; j <= i; j++) {
                        x[i] += mixing[i][j] * u[j];
                    }
                }
                g.update(x);
            }
            summaries.add(ClassSummary.of("c" + k, g));
        }
        return GaussianModel.fit(summaries, FitOptions.defaults().withCovarianceType(type));
    }

    static double[] point(int d, double offset, SplittableRandom random) {
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] = offset + 2.0 * random.nextGaussian();
        }
        return x;
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldAgreeWithTheExactKernelWithinTheStatedBound(CovarianceType type) {
        SplittableRandom random = new SplittableRandom(SEED + type.ordinal());
        int scores = 0;
        int differingInBits = 0;
        for (int classes : CLASS_COUNTS) {
            for (int d : DIMENSIONS) {
                for (double[] shape : new double[][] {{0.0, 1.0}, {0.0, 1e3}, {1e6, 10.0}}) {
                    GaussianModel model = model(type, classes, d, shape[0], shape[1], random.nextLong());
                    Discriminant exact = Discriminant.compile(model, ScoringKernel.EXACT);
                    Discriminant fast = Discriminant.compile(model, ScoringKernel.FAST);
                    double[] pExact = new double[classes];
                    double[] pFast = new double[classes];
                    for (int i = 0; i < 20; i++) {
                        double[] x = point(d, shape[0], random);
                        double[] added = i % 3 == 0 ? added(classes, random) : null;
                        double lExact = exact.score(x, added, pExact);
                        double lFast = fast.score(x, added, pFast);
                        String where = type + " K=" + classes + " d=" + d + " shape=" + shape[1] + " point " + i;
                        assertEquals(lExact, lFast, RELATIVE * Math.max(1.0, Math.abs(lExact)), where);
                        assertArrayEquals(pExact, pFast, PROBABILITY, where);
                        Posterior allocating = fast.score(x, added);
                        Posterior reference = exact.score(x, added);
                        assertArrayEquals(pFast, allocating.probabilities(), 0.0, "allocating form, " + where);
                        assertEquals(lFast, allocating.logDensity(), 0.0, "allocating form, " + where);
                        for (int k = 0; k < classes; k++) {
                            double expected = reference.logJoint()[k];
                            assertEquals(expected, allocating.logJoint()[k],
                                    RELATIVE * Math.max(1.0, Math.abs(expected)), "log-joint " + k + ", " + where);
                        }
                        scores++;
                        if (Double.doubleToRawLongBits(lExact) != Double.doubleToRawLongBits(lFast)) {
                            differingInBits++;
                        }
                    }
                }
            }
        }
        // FAST is a different order of operations: if no output differed, it was not the path taken.
        assertTrue(differingInBits > scores / 4, differingInBits + " of " + scores + " log-densities differ in bits");
    }

    /** Categorical-like added log-likelihoods: log-probabilities, one of them −∞ now and then. */
    private static double[] added(int classes, SplittableRandom random) {
        double[] added = new double[classes];
        for (int k = 0; k < classes; k++) {
            added[k] = Math.log(0.05 + random.nextDouble());
        }
        if (classes > 1 && random.nextBoolean()) {
            added[random.nextInt(classes)] = Double.NEGATIVE_INFINITY;
        }
        return added;
    }

    @Test
    void shouldGiveAClassWhoseAddedLikelihoodIsZeroProbabilityZero() {
        GaussianModel model = model(CovarianceType.DIAG, 3, 16, 0.0, 1.0, SEED);
        Discriminant fast = Discriminant.compile(model, ScoringKernel.FAST);
        double[] p = new double[3];
        fast.score(point(16, 0.0, new SplittableRandom(SEED)), new double[] {0.0, Double.NEGATIVE_INFINITY, 0.0}, p);
        assertEquals(0.0, p[1]);
        assertEquals(1.0, p[0] + p[2], 1e-15);
    }

    @ParameterizedTest
    @EnumSource(CovarianceType.class)
    void shouldHandMissingCoordinatesAndNonFiniteLogJointsToTheExactKernel(CovarianceType type) {
        int d = 16;
        GaussianModel model = model(type, 5, d, 0.0, 10.0, SEED + 7);
        Discriminant exact = Discriminant.compile(model, ScoringKernel.EXACT);
        Discriminant fast = Discriminant.compile(model, ScoringKernel.FAST);
        SplittableRandom random = new SplittableRandom(SEED);
        double[] missing = point(d, 0.0, random);
        missing[3] = Double.NaN;
        // So far out that every class's q overflows: every log-joint −∞, the priors and −MAX_VALUE (EXACT's rule).
        double[] far = point(d, 0.0, random);
        java.util.Arrays.fill(far, 1e300);
        // One class's added likelihood +∞ would be a NaN posterior: EXACT's rule again.
        double[] plusInfinity = {0.0, Double.POSITIVE_INFINITY, 0.0, 0.0, 0.0};
        for (Object[] c : new Object[][] {{missing, null}, {far, null}, {point(d, 0.0, random), plusInfinity}}) {
            double[] x = (double[]) c[0];
            double[] added = (double[]) c[1];
            double[] pExact = new double[5];
            double[] pFast = new double[5];
            double lExact = exact.score(x, added, pExact);
            double lFast = fast.score(x, added, pFast);
            assertEquals(Double.doubleToRawLongBits(lExact), Double.doubleToRawLongBits(lFast), type + " log p(x)");
            for (int k = 0; k < 5; k++) {
                assertEquals(Double.doubleToRawLongBits(pExact[k]), Double.doubleToRawLongBits(pFast[k]),
                        type + " p(" + k + ")");
            }
        }
        double[] priors = new double[5];
        assertEquals(-Double.MAX_VALUE, fast.score(far, null, priors));
        assertArrayEquals(model.priors(), priors, 1e-15);
    }

    @Test
    void shouldKeepTheKernelItWasCompiledWith() {
        GaussianModel model = model(CovarianceType.FULL, 2, 4, 0.0, 1.0, SEED);
        assertEquals(ScoringKernel.EXACT, Discriminant.compile(model).kernel());
        assertEquals(ScoringKernel.FAST, Discriminant.compile(model, ScoringKernel.FAST).kernel());
    }
}
