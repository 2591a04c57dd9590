package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The documented edges of {@link Discriminant} (every class underflowing, ties, the checks on its inputs, explain
 * with added log-likelihoods), the scale invariance of {@link CholeskyFactor}'s relative pivot test, the pattern
 * cache of {@link MarginalFactors} under a hash collision, and {@link GaussianModel}'s checks of finiteness, on
 * models whose numbers are worked out by hand.
 */
class ScoringEdgeCasesTest {

    /** Rounding of a handful of logarithms and exponentials. */
    private static final double HAND = 1e-12;
    private static final double LOG_2PI = Math.log(2 * Math.PI);

    private static double[][] identity(int d) {
        double[][] m = new double[d][d];
        for (int i = 0; i < d; i++) {
            m[i][i] = 1.0;
        }
        return m;
    }

    /** FULL, Σ = I, classes a and b with the given counts and means. */
    private static Discriminant full(long countA, double[] meanA, long countB, double[] meanB) {
        int d = meanA.length;
        return Discriminant.compile(GaussianModel.fit(List.of(
                ClassSummary.ofMleCovariance("a", countA, meanA, identity(d)),
                ClassSummary.ofMleCovariance("b", countB, meanB, identity(d))), FitOptions.defaults()
                .withVarianceFloor(0.0)));
    }

    /**
     * Every class's distance overflows (q = ¼ + 2e600), by the same amount: x lies on the mirror plane x₁ = ½ of the
     * two means, so the exact posterior is the priors (one Σ; elsewhere the nearest class takes the point:
     * FarPointTest); log p(x) = −MAX_VALUE, log-joints −MAX_VALUE.
     */
    @Test
    void shouldGiveThePriorsAndTheLowestLogDensityWhenEveryClassUnderflowsAlike() {
        Discriminant discriminant = full(10, new double[] {0, 0, 0}, 30, new double[] {1, 0, 0});
        double[] x = {0.5, 1e300, 1e300};
        Posterior p = discriminant.score(x);
        assertArrayEquals(new double[] {0.25, 0.75}, p.probabilities(), HAND);
        assertEquals(-Double.MAX_VALUE, p.logDensity(), 0.0);
        assertArrayEquals(new double[] {-Double.MAX_VALUE, -Double.MAX_VALUE}, p.logJoint(), 0.0);
        assertEquals(1, p.predicted());
        double[] out = new double[2];
        assertEquals(-Double.MAX_VALUE, discriminant.score(x, null, out), 0.0);
        assertArrayEquals(new double[] {0.25, 0.75}, out, HAND);
    }

    /** Means ∓e₁, equal priors, x on the mirror plane: q_a = q_b to the bit, p = (½, ½), and the first class wins. */
    @Test
    void shouldPredictTheFirstClassOnAnExactTie() {
        Discriminant discriminant = full(10, new double[] {-1, 0, 0}, 10, new double[] {1, 0, 0});
        Posterior p = discriminant.score(new double[] {0, 0.3, -0.2});
        assertArrayEquals(new double[] {0.5, 0.5}, p.probabilities(), 0.0);
        assertEquals(0, p.predicted());
    }

    /**
     * explain(x, added): log N_k(x) + added_k per class, and the posterior of score(x, added). By hand at x = (½, 0):
     * q_a = q_b = ¼, so log N_k = −log 2π − ⅛ and p_b ∝ ¾·e^{added_b}.
     */
    @Test
    void shouldExplainWithAddedLogLikelihoodsAsItScores() {
        Discriminant discriminant = full(10, new double[] {0, 0}, 30, new double[] {1, 0});
        double[] x = {0.5, 0};
        double[] added = {Math.log(0.6), Math.log(0.1)};
        Evidence e = discriminant.explain(x, added);
        for (int k = 0; k < 2; k++) {
            assertEquals(-LOG_2PI - 0.125 + added[k], e.logLikelihoods()[k], HAND, "log-likelihood " + k);
            assertEquals(0.25, e.squaredDistances()[k], HAND, "the distance is the Gaussian part's");
        }
        double pb = 0.75 * 0.1 / (0.75 * 0.1 + 0.25 * 0.6);
        assertArrayEquals(new double[] {1 - pb, pb}, e.posterior().probabilities(), HAND);
        // The same numbers as score(x, added), to rounding: the two add log π_k and added_k in another order.
        assertArrayEquals(discriminant.score(x, added).probabilities(), e.posterior().probabilities(), HAND);
        assertEquals(discriminant.score(x, added).logDensity(), e.posterior().logDensity(), HAND);
    }

    @Test
    void shouldRefuseAddedLogLikelihoodsOrPointsOfTheWrongLength() {
        Discriminant discriminant = full(10, new double[] {0, 0}, 30, new double[] {1, 0});
        double[] x = {0.5, 0};
        double[] tooMany = {0, 0, 0};
        assertThrows(IllegalArgumentException.class, () -> discriminant.score(x, tooMany));
        assertThrows(IllegalArgumentException.class, () -> discriminant.score(x, tooMany, new double[2]));
        assertThrows(IllegalArgumentException.class, () -> discriminant.explain(x, tooMany));
        assertThrows(IllegalArgumentException.class, () -> discriminant.explain(new double[] {0.5, 0, 1}));
        assertThrows(IllegalArgumentException.class, () -> discriminant.explain(new double[] {0.5, Double.NaN, 1}));
    }

    /**
     * d = 33: the missing patterns {0} and {32} are the words 1 and 2³², whose Arrays.hashCode is the same (32). The
     * cache must still tell them apart. Σ = I, μ_a = 0, μ_b = ½·1, every observed coordinate 0: over the 32 observed
     * coordinates q_a = 0 and q_b = 32·¼ = 8, so p_a = 1/(1 + e^{−4}) (equal priors) for both patterns.
     */
    @Test
    void shouldTellApartMissingPatternsWhoseHashesCollide() {
        int d = 33;
        double[] half = new double[d];
        java.util.Arrays.fill(half, 0.5);
        Discriminant discriminant = full(10, new double[d], 10, half);
        double pa = 1 / (1 + Math.exp(-4));
        double logDensity = -16 * LOG_2PI + Math.log(0.5 + 0.5 * Math.exp(-4));
        for (int missing : new int[] {0, 32}) {
            double[] x = new double[d];
            x[missing] = Double.NaN;
            Posterior p = discriminant.score(x);
            assertArrayEquals(new double[] {pa, 1 - pa}, p.probabilities(), HAND, "missing " + missing);
            assertEquals(logDensity, p.logDensity(), HAND, "missing " + missing);
        }
        assertEquals(2, discriminant.cachedPatterns());
    }

    /**
     * The pivot test is relative (L_ii² ≥ 1e-12·A_ii): s·[[1, 1−ε], [1−ε, 1]] has L_11² ≈ 2εs, so with ε = 1e-13 it
     * is rejected and with ε = 1e-3 accepted at every scale s.
     */
    @Test
    void shouldJudgeNearSingularityTheSameAtEveryScale() {
        for (double s : new double[] {1e-6, 1.0, 1e6}) {
            double[][] nearlySingular = {{s, s * (1 - 1e-13)}, {s * (1 - 1e-13), s}};
            double[][] wellPosed = {{s, s * (1 - 1e-3)}, {s * (1 - 1e-3), s}};
            assertTrue(CholeskyFactor.of(nearlySingular).isEmpty(), "ε = 1e-13 at scale " + s);
            assertTrue(CholeskyFactor.of(wellPosed).isPresent(), "ε = 1e-3 at scale " + s);
        }
    }

    @Test
    void shouldRefuseNonFiniteStatisticsWhenFitting() {
        double[][] scatter = {{2, 0}, {0, 2}};
        assertThrows(IllegalArgumentException.class, () -> GaussianModel.fit(List.of(
                new ClassSummary("a", 3, new double[] {Double.NaN, 0}, scatter)), FitOptions.defaults()));
        assertThrows(IllegalArgumentException.class, () -> GaussianModel.fit(List.of(
                new ClassSummary("a", 3, new double[] {0, 0}, new double[][] {{2, 0}, {0, Double.POSITIVE_INFINITY}})),
                FitOptions.defaults()));
    }
}
