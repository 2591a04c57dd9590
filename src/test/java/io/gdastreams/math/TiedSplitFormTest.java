package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TIED's split form ({@link TiedCovariance.Compiled#SPLIT_ABOVE}, {@link MarginalFactors} for a missing coordinate)
 * on a hand-computable model: Σ = I (d = 3), μ_a = 0, μ_b = e₁, priors ¼ and ¾. A point (0.7, y, 0) has
 * q_a = 0.49 + y², q_b = 0.09 + y², so log π_k + log N_k = log π_k − (3/2) log 2π − ½ q_k exactly, and the posterior
 * log-odds of b over a are log 3 + 0.2 whatever y is. At y = 2000 (q ≈ 4e6 &gt; 2^20) the split form runs and its
 * shared term −½ q_b is added back into every reported log-joint and log p(x); at y = 1e9 (q ≈ 1e18, ulp 128) the
 * one-pass q_a and q_b round to the same double, so only the split form can give the right posterior.
 * The GroupScoreTest's far point lies along the means' differences, where the one-pass form is already right.
 */
class TiedSplitFormTest {

    /** Rounding of −½q at q ≈ 4e6 (ulp 4.7e-10) and of the hand formula. */
    private static final double LOG_JOINT = 1e-8;
    /** Posterior probabilities: the split form keeps the difference 0.4 of q_a and q_b to rounding of 1e-16. */
    private static final double POSTERIOR = 1e-12;
    /** β and γ from one pair of triangular solves with L = I. */
    private static final double IDENTITY = 1e-15;
    private static final double LOG_2PI = Math.log(2 * Math.PI);
    private static final double[] PRIORS = {0.25, 0.75};
    /** p(b | x) for every point (0.7, y, ·): log-odds log 3 + 0.2. */
    private static final double P_B = 1.0 / (1.0 + Math.exp(-(Math.log(3.0) + 0.2)));

    @BeforeAll
    static void vectorKernels() throws InterruptedException {
        // The group kernel (TiedCovariance.Compiled.observedLogJoints) runs only once the warm-up is over.
        assertTrue(KernelChoice.awaitWarmUp(60_000), "the vector kernels' warm-up ended");
    }

    static Discriminant model(CovarianceType type) {
        double[][] identity = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        List<ClassSummary> classes = List.of(
                ClassSummary.ofMleCovariance("a", 10, new double[] {0, 0, 0}, identity),
                ClassSummary.ofMleCovariance("b", 30, new double[] {1, 0, 0}, identity));
        GaussianModel model = GaussianModel.fit(classes, FitOptions.defaults().withCovarianceType(type)
                .withVarianceFloor(0.0));
        assertArrayEquals(PRIORS, model.priors(), 0.0);
        return Discriminant.compile(model);
    }

    /** log π_k − (observed/2) log 2π − ½ q_k, with ½ q_k given exactly as a decimal. */
    private static double logJoint(int k, int observed, double halfQ) {
        return Math.log(PRIORS[k]) - 0.5 * observed * LOG_2PI - halfQ;
    }

    @Test
    void shouldReportLogJointsAndDensityOfAModeratelyFarPointWithTheSharedTermAddedBack() {
        Discriminant discriminant = model(CovarianceType.TIED);
        double[] x = {0.7, 2000, 0};
        double[] expectedJoint = {logJoint(0, 3, 2_000_000.245), logJoint(1, 3, 2_000_000.045)};
        double expectedDensity = Math.log(0.75 + 0.25 * Math.exp(-0.2)) - 1.5 * LOG_2PI - 2_000_000.045;

        Posterior p = discriminant.score(x);
        assertArrayEquals(expectedJoint, p.logJoint(), LOG_JOINT);
        assertEquals(expectedDensity, p.logDensity(), LOG_JOINT);
        assertEquals(P_B, p.probabilities()[1], POSTERIOR);

        Evidence e = discriminant.explain(x);
        assertArrayEquals(expectedJoint, e.posterior().logJoint(), LOG_JOINT);
        assertEquals(expectedDensity, e.posterior().logDensity(), LOG_JOINT);
        assertEquals(P_B, e.posterior().probabilities()[1], POSTERIOR);
        for (int k = 0; k < 2; k++) {
            assertEquals(expectedJoint[k] - Math.log(PRIORS[k]), e.logLikelihoods()[k], LOG_JOINT, "log N_" + k);
        }

        // The third coordinate missing: the marginal over the first two (MarginalFactors' split form), whose
        // nearest class is b, so that the residual is taken from μ_b ≠ 0.
        double[] partial = {0.7, 2000, Double.NaN};
        Posterior q = discriminant.score(partial);
        assertArrayEquals(new double[] {logJoint(0, 2, 2_000_000.245), logJoint(1, 2, 2_000_000.045)}, q.logJoint(),
                LOG_JOINT);
        assertEquals(expectedDensity + 0.5 * LOG_2PI, q.logDensity(), LOG_JOINT);
        assertEquals(P_B, q.probabilities()[1], POSTERIOR);
    }

    @Test
    void shouldKeepTheClassesApartWhereTheOnePassDistancesRoundToTheSameDouble() {
        Discriminant discriminant = model(CovarianceType.TIED);
        double[] far = {0.7, 1e9, 0};
        double[] farWithMissing = {0.7, 1e9, Double.NaN};
        // The premise: one pass cannot tell the classes apart here.
        assertEquals(0.49 + 1e18, 0.09 + 1e18, 0.0);

        for (double[] x : new double[][] {far, farWithMissing}) {
            Posterior p = discriminant.score(x);
            assertEquals(P_B, p.probabilities()[1], POSTERIOR, java.util.Arrays.toString(x));
            assertEquals(1, p.predicted());
            double expectedDensity = -5e17; // −½ q_b; the O(1) terms are below its ulp (64)
            assertEquals(expectedDensity, p.logDensity(), 4 * Math.ulp(expectedDensity));
        }

        // Four at a time through the group kernel: the far point must be left to be scored alone (split form).
        double[][] points = {far, {0.7, 2000, 0}, far, {0.7, 0.5, 0}};
        double[][] posteriors = new double[4][2];
        double[] logDensities = new double[4];
        discriminant.score(points, 4, posteriors, logDensities);
        assertEquals(P_B, posteriors[0][1], POSTERIOR, "far point in a group");
        assertEquals(P_B, posteriors[1][1], POSTERIOR);
        assertEquals(P_B, posteriors[2][1], POSTERIOR);
        assertEquals(P_B, posteriors[3][1], POSTERIOR, "near point in a group");
        assertEquals(-5e17, logDensities[0], 4 * Math.ulp(5e17));
    }

    /**
     * β_k = Σ⁻¹μ_k and γ_k = −½ μ_kᵀΣ⁻¹μ_k + log π_k by hand: β_a = 0, γ_a = log ¼; β_b = e₁, γ_b = −½ + log ¾.
     * With unequal priors a wrong sign of log π_k no longer cancels in the softmax (Iris has equal priors).
     */
    @Test
    void shouldGiveTheLinearDiscriminantsOfUnequalPriorsByHand() {
        LinearDiscriminants linear = model(CovarianceType.TIED).linear().orElseThrow();
        assertArrayEquals(new double[] {0, 0, 0}, linear.beta()[0], IDENTITY);
        assertArrayEquals(new double[] {1, 0, 0}, linear.beta()[1], IDENTITY);
        assertArrayEquals(new double[] {Math.log(0.25), -0.5 + Math.log(0.75)}, linear.gamma(), IDENTITY);
    }
}
