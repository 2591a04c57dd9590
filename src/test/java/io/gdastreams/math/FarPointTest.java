package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A finite point beyond every class ({@link FarPoint}): every squared Mahalanobis distance overflows, so every
 * log-joint is −∞, yet the nearest class has probability 1 (the others are farther by more than 1e290), not its
 * prior. The references are by hand, on points X·x̂ (X = 1e150) against covariances V·Σ̂ (V = 1e-20) and means
 * near 0: q_k = 1e320·q̂_k with q̂_k = x̂ᵀΣ̂_k⁻¹x̂ to a relative 1e-150, and the q̂_k below are far enough apart
 * for the means not to matter. Every test here fails on the fallback to the priors the scores had before.
 *
 * <p>The three-class model (priors 0.6, 0.2, 0.2; a has the largest prior and is never the nearest): Σ̂_k is a 2 × 2
 * block on coordinates 1–2 and a variance on coordinate 3, a: [[1, ½], [½, 1]] ⊕ 1, b: 4·I ⊕ ¼,
 * c: [[2, −½], [−½, 1]] ⊕ 4 (DIAG: the diagonals, a: (1, 1, 1), b: (4, 4, ¼), c: (2, 1, 4)). At x̂ = (1, −0.3, 0.5),
 * with the block formula (t·x₁² − 2r·x₁x₂ + p·x₂²)/(pt − r²) for [[p, r], [r, t]]:
 * FULL q̂ = (1.39/0.75 + 0.25, 0.2725 + 1, 0.88/1.75 + 0.0625) = (2.103, 1.273, 0.565): c; coordinate 3 missing,
 * (1.853, 0.2725, 0.503): b. DIAG q̂ = (1.34, 1.2725, 0.6525): c; coordinate 3 missing, (1.09, 0.2725, 0.59): b.
 */
class FarPointTest {

    private static final double X = 1e150;
    private static final double V = 1e-20;
    /** Posterior probabilities where exp(−½(q_k − q_m)) is a number of order 1 (the split form's hand values). */
    private static final double POSTERIOR = 1e-12;
    /** Probabilities in exact ratios (2/5, ¼ …): a few roundings of exp and log. */
    private static final double RATIO = 1e-15;
    private static final double[] PRIORS = {0.6, 0.2, 0.2};

    @BeforeAll
    static void vectorKernels() throws InterruptedException {
        // The group kernels of DIAG and TIED run only once the warm-up is over.
        assertTrue(KernelChoice.awaitWarmUp(60_000), "the vector kernels' warm-up ended");
    }

    private static double[][] scaled(double[][] m) {
        double[][] out = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            out[i] = m[i].clone();
            for (int j = 0; j < m[i].length; j++) {
                out[i][j] *= V;
            }
        }
        return out;
    }

    private static Discriminant model(CovarianceType type, long[] counts, double[][] means, double[][][] covariances) {
        ClassSummary[] classes = new ClassSummary[counts.length];
        for (int k = 0; k < counts.length; k++) {
            classes[k] = ClassSummary.ofMleCovariance(String.valueOf((char) ('a' + k)), counts[k], means[k],
                    covariances[k]);
        }
        return Discriminant.compile(GaussianModel.fit(List.of(classes), FitOptions.defaults()
                .withCovarianceType(type).withVarianceFloor(0.0)));
    }

    /** The three-class model of the class comment, means (0, 0, 0), (1, 1, 1), (−1, 0, 2). */
    private static Discriminant threeClasses(CovarianceType type) {
        double[][][] sigma = {
                {{1, 0.5, 0}, {0.5, 1, 0}, {0, 0, 1}},
                {{4, 0, 0}, {0, 4, 0}, {0, 0, 0.25}},
                {{2, -0.5, 0}, {-0.5, 1, 0}, {0, 0, 4}}};
        for (double[][] s : sigma) {
            if (type == CovarianceType.DIAG) {
                s[0][1] = s[1][0] = 0;
            }
        }
        return model(type, new long[] {30, 10, 10}, new double[][] {{0, 0, 0}, {1, 1, 1}, {-1, 0, 2}},
                new double[][][] {scaled(sigma[0]), scaled(sigma[1]), scaled(sigma[2])});
    }

    /** q̂_k by the block formula of the class comment; {@code third} false leaves coordinate 3 out. */
    private static double[] handDistances(CovarianceType type, double[] x, boolean third) {
        double[][] blocks = {{1, 0.5, 1, 1}, {4, 0, 4, 0.25}, {2, -0.5, 1, 4}}; // p, r, t, variance 3
        double[] q = new double[3];
        for (int k = 0; k < 3; k++) {
            double p = blocks[k][0];
            double r = type == CovarianceType.DIAG ? 0 : blocks[k][1];
            double t = blocks[k][2];
            q[k] = (t * x[0] * x[0] - 2 * r * x[0] * x[1] + p * x[1] * x[1]) / (p * t - r * r)
                    + (third ? x[2] * x[2] / blocks[k][3] : 0);
        }
        return q;
    }

    private static int nearest(double[] q) {
        int m = 0;
        for (int k = 1; k < q.length; k++) {
            m = q[k] < q[m] ? k : m;
        }
        return m;
    }

    private static double[] oneHot(int k, int classCount) {
        double[] p = new double[classCount];
        p[k] = 1.0;
        return p;
    }

    /** Every form of scoring gives {@code expected} for x, with log p(x) and the log-joints −MAX_VALUE. */
    private static void assertScoredEverywhere(Discriminant discriminant, double[] x, double[] expected,
                                               double tolerance) {
        String where = Arrays.toString(x);
        Posterior p = discriminant.score(x);
        assertArrayEquals(expected, p.probabilities(), tolerance, where);
        assertEquals(-Double.MAX_VALUE, p.logDensity(), 0.0, where);
        double[] lowest = new double[expected.length];
        Arrays.fill(lowest, -Double.MAX_VALUE);
        assertArrayEquals(lowest, p.logJoint(), 0.0, where);

        double[] out = new double[expected.length];
        assertEquals(-Double.MAX_VALUE, discriminant.score(x, null, out), 0.0, where);
        assertArrayEquals(p.probabilities(), out, 0.0, where);

        Evidence e = discriminant.explain(x);
        assertArrayEquals(p.probabilities(), e.posterior().probabilities(), 0.0, where);
        assertEquals(-Double.MAX_VALUE, e.posterior().logDensity(), 0.0, where);
        double[] largest = new double[expected.length];
        Arrays.fill(largest, Double.MAX_VALUE);
        assertArrayEquals(largest, e.squaredDistances(), 0.0, where);
        assertArrayEquals(lowest, e.logLikelihoods(), 0.0, where);

        // Four at a time: the group kernel leaves the far point to the one-point score, beside a near point.
        double[] near = new double[x.length];
        double[][] points = {near, x, near, x};
        double[][] posteriors = new double[4][expected.length];
        double[] logDensities = new double[4];
        discriminant.score(points, 4, posteriors, logDensities);
        for (int i : new int[] {1, 3}) {
            assertArrayEquals(p.probabilities(), posteriors[i], 0.0, where + " in a group");
            assertEquals(-Double.MAX_VALUE, logDensities[i], 0.0, where + " in a group");
        }
        assertArrayEquals(discriminant.score(near).probabilities(), posteriors[0], 0.0, "near point in a group");
    }

    @ParameterizedTest
    @EnumSource(value = CovarianceType.class, names = {"DIAG", "FULL"})
    void shouldGiveTheNearestClassProbabilityOneWhenEveryDistanceOverflows(CovarianceType type) {
        Discriminant discriminant = threeClasses(type);
        double[] unit = {1, -0.3, 0.5};
        double[] x = {X * unit[0], X * unit[1], X * unit[2]};
        double[] partial = {x[0], x[1], Double.NaN};
        double[] q = handDistances(type, unit, true);
        double[] qPartial = handDistances(type, unit, false);
        // The premises: every distance overflows, and the nearest class is not the most probable a priori (a), and
        // differs with and without coordinate 3.
        for (double qk : qPartial) {
            assertEquals(Double.POSITIVE_INFINITY, qk * X * X / V, 0.0);
        }
        assertEquals(2, nearest(q), type + " " + Arrays.toString(q));
        assertEquals(1, nearest(qPartial), type + " " + Arrays.toString(qPartial));

        assertScoredEverywhere(discriminant, x, oneHot(2, 3), 0.0);
        assertScoredEverywhere(discriminant, partial, oneHot(1, 3), 0.0);
        assertEquals(1, discriminant.score(partial).predicted());
    }

    /**
     * An added log-likelihood of −∞ (a categorical value class c never had) takes c out: the next nearest, b, gets
     * the point (q̂ 1.2725 against a's 1.34, DIAG). Every class out: no class can have it, and the priors stand.
     */
    @Test
    void shouldGiveThePointToTheNearestClassThatCanHaveIt() {
        Discriminant discriminant = threeClasses(CovarianceType.DIAG);
        double[] x = {X, -0.3 * X, 0.5 * X};
        double[] out = new double[3];
        double minus = Double.NEGATIVE_INFINITY;
        assertEquals(-Double.MAX_VALUE, discriminant.score(x, new double[] {0, 0, minus}, out), 0.0);
        assertArrayEquals(oneHot(1, 3), out, 0.0);
        assertArrayEquals(oneHot(1, 3), discriminant.explain(x, new double[] {0, 0, minus}).posterior()
                .probabilities(), 0.0);
        assertEquals(-Double.MAX_VALUE, discriminant.score(x, new double[] {minus, minus, minus}, out), 0.0);
        assertArrayEquals(PRIORS, out, RATIO);
        // NaN takes a class out as −∞ does (as it does for a point near the classes, LogSumExp); it once gave the
        // far point back to the priors.
        assertEquals(-Double.MAX_VALUE, discriminant.score(x, new double[] {0, 0, Double.NaN}, out), 0.0);
        assertArrayEquals(oneHot(1, 3), out, 0.0);
    }

    /**
     * TIED, Σ = V·I, means a = 0, b = e₁, c = −e₂ (priors 0.6, 0.2, 0.2). Against a, q_b − q_a = (1 − 2x₁)/V and
     * q_c − q_a = (1 + 2x₂)/V: at x = X·(1, −0.3, 0.5), −2e170 and −6e169, so b is the nearest by 1.4e170; with x₁
     * missing only c is nearer than a. The scaled one-pass distances round alike here (the means are 1e-150 of x),
     * so this needs the differences taken from the means (the split form's), not a comparison of the distances.
     */
    @Test
    void shouldTakeTheNearestClassOfATiedModelFromTheDifferenceOfTheMeans() {
        double[][] identity = scaled(new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
        Discriminant discriminant = model(CovarianceType.TIED, new long[] {30, 10, 10},
                new double[][] {{0, 0, 0}, {1, 0, 0}, {0, -1, 0}}, new double[][][] {identity, identity, identity});
        assertScoredEverywhere(discriminant, new double[] {X, -0.3 * X, 0.5 * X}, oneHot(1, 3), 0.0);
        assertScoredEverywhere(discriminant, new double[] {Double.NaN, -0.3 * X, 0.5 * X}, oneHot(2, 3), 0.0);
    }

    /**
     * TiedSplitFormTest's model (Σ = I, a = 0, b = e₁, priors ¼ and ¾) at (0.7, 1e160, ·): q ≈ 1e320 overflows, but
     * along e₂ the classes do not differ, so the posterior is the one the split form gives at (0.7, 2000, ·), log-odds
     * of b log 3 + 0.2, and not the priors; the same with the third coordinate missing.
     */
    @Test
    void shouldKeepTheSplitFormsPosteriorOfATiedModelPastTheOverflow() {
        Discriminant discriminant = TiedSplitFormTest.model(CovarianceType.TIED);
        double pb = 1.0 / (1.0 + Math.exp(-(Math.log(3.0) + 0.2)));
        for (double[] x : new double[][] {{0.7, 1e160, 0}, {0.7, 1e160, Double.NaN}}) {
            assertScoredEverywhere(discriminant, x, new double[] {1 - pb, pb}, POSTERIOR);
        }
    }

    /**
     * A true tie: a with variances (1, 4), b (4, 4), c (¼, ¼), means 0, priors 0.2, 0.6, 0.2, at x = (0, 1e200):
     * q_a = q_b = x₂²/4 exactly, q_c = 4x₂². a and b share the point in proportion to π_k / √det Σ_k: 0.2/2 and
     * 0.6/4, i.e. 2/5 and 3/5; c gets 0. DIAG, and FULL with the same (diagonal) matrices.
     */
    @ParameterizedTest
    @EnumSource(value = CovarianceType.class, names = {"DIAG", "FULL"})
    void shouldShareAnExactTieInProportionToWhatIsLeftOfTheLogJoints(CovarianceType type) {
        Discriminant discriminant = model(type, new long[] {10, 30, 10}, new double[3][2], new double[][][] {
                {{1, 0}, {0, 4}}, {{4, 0}, {0, 4}}, {{0.25, 0}, {0, 0.25}}});
        assertScoredEverywhere(discriminant, new double[] {0, 1e200}, new double[] {0.4, 0.6, 0}, RATIO);
    }

    /** TIED on the mirror plane of means ∓e₁ (Σ = I, priors ¼ and ¾): q_a − q_b = 0 exactly, so the priors. */
    @Test
    void shouldShareAnExactTieOfATiedModelByThePriors() {
        double[][] identity = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        Discriminant discriminant = model(CovarianceType.TIED, new long[] {10, 30},
                new double[][] {{-1, 0, 0}, {1, 0, 0}}, new double[][][] {identity, identity});
        assertScoredEverywhere(discriminant, new double[] {0, 1e300, 1e300}, new double[] {0.25, 0.75}, RATIO);
    }
}
