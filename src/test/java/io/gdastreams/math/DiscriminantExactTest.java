package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exact hand fixtures: Σ = LLᵀ with an integer L, so every quantity of the log-density has a closed form.
 * L = [[2, 0], [1, 3]] gives Σ = [[4, 2], [2, 10]], log det Σ = log 36; for x − μ = (2, 5): L⁻¹(x − μ) = (1, 4/3)
 * and the squared Mahalanobis distance is 25/9.
 */
class DiscriminantExactTest {

    private static final double EXACT = 1e-14;
    private static final double LOG_2PI = Math.log(2 * Math.PI);

    private static final double[][] SIGMA = {{4, 2}, {2, 10}};
    private static final long COUNT = 10;

    private static double[][] scatterOf(double[][] sigma, double divisor) {
        double[][] s = new double[sigma.length][sigma.length];
        for (int i = 0; i < sigma.length; i++) {
            for (int j = 0; j < sigma.length; j++) {
                s[i][j] = sigma[i][j] * divisor;
            }
        }
        return s;
    }

    @Test
    void shouldMatchClosedFormLogDensityForIntegerCholeskyFactor() {
        ClassSummary a = new ClassSummary("a", COUNT, new double[] {1, -1}, scatterOf(SIGMA, COUNT));
        GaussianModel model = GaussianModel.fit(List.of(a), FitOptions.defaults());
        assertArrayEquals(SIGMA[0], model.covariance(0)[0], EXACT);
        assertArrayEquals(SIGMA[1], model.covariance(0)[1], EXACT);

        Posterior p = Discriminant.compile(model).score(new double[] {3, 4});

        double expected = -0.5 * (2 * LOG_2PI + Math.log(36) + 25.0 / 9.0);
        assertEquals(expected, p.logDensity(), EXACT);
        assertEquals(expected, p.logJoint()[0], EXACT);
        assertArrayEquals(new double[] {1.0}, p.probabilities(), EXACT);
    }

    @Test
    void shouldWeighTwoClassesByPriorAndDensity() {
        // Same Σ, means 6 apart along the first axis, counts 10 and 30.
        ClassSummary a = new ClassSummary("a", 10, new double[] {0, 0}, scatterOf(SIGMA, 10));
        ClassSummary b = new ClassSummary("b", 30, new double[] {6, 0}, scatterOf(SIGMA, 30));
        Discriminant discriminant = Discriminant.compile(GaussianModel.fit(List.of(a, b), FitOptions.defaults()));

        // x − μ_a = (2, 5) → q_a = 25/9; x − μ_b = (−4, 5) → z = (−2, 7/3) → q_b = 85/9.
        Posterior p = discriminant.score(new double[] {2, 5});

        double logNa = -0.5 * (2 * LOG_2PI + Math.log(36) + 25.0 / 9.0);
        double logNb = -0.5 * (2 * LOG_2PI + Math.log(36) + 85.0 / 9.0);
        double ja = Math.log(0.25) + logNa;
        double jb = Math.log(0.75) + logNb;
        double pa = 1.0 / (1.0 + Math.exp(jb - ja));
        assertArrayEquals(new double[] {pa, 1 - pa}, p.probabilities(), EXACT);
        assertEquals(Math.log(Math.exp(ja) + Math.exp(jb)), p.logDensity(), EXACT);
        assertEquals(0, p.predicted());
    }

    @Test
    void shouldDivideByCountMinusOneForUnbiasedFull() {
        ClassSummary a = new ClassSummary("a", COUNT, new double[] {0, 0}, scatterOf(SIGMA, COUNT - 1));
        GaussianModel model = GaussianModel.fit(List.of(a), FitOptions.defaults().withEstimator(Estimator.UNBIASED));
        assertArrayEquals(SIGMA[1], model.covariance(0)[1], EXACT);
    }

    @Test
    void shouldPoolScatterOverClassesForTied() {
        // Pooled: (S_a + S_b) / (n_a + n_b) with S_a = 10Σ, S_b = 30·2Σ → (10 + 60)/40 Σ = 1.75 Σ.
        ClassSummary a = new ClassSummary("a", 10, new double[] {0, 0}, scatterOf(SIGMA, 10));
        ClassSummary b = new ClassSummary("b", 30, new double[] {1, 1}, scatterOf(SIGMA, 60));
        GaussianModel mle = GaussianModel.fit(List.of(a, b),
                FitOptions.defaults().withCovarianceType(CovarianceType.TIED));
        assertArrayEquals(new double[] {7, 3.5}, mle.covariance(1)[0], EXACT);
        GaussianModel unbiased = GaussianModel.fit(List.of(a, b), FitOptions.defaults()
                .withCovarianceType(CovarianceType.TIED).withEstimator(Estimator.UNBIASED));
        assertArrayEquals(new double[] {4 * 70.0 / 38, 2 * 70.0 / 38}, unbiased.covariance(0)[0], EXACT);
    }

    @Test
    void shouldKeepOnlyTheDiagonalForDiag() {
        ClassSummary a = new ClassSummary("a", COUNT, new double[] {0, 0}, scatterOf(SIGMA, COUNT));
        GaussianModel model = GaussianModel.fit(List.of(a), FitOptions.defaults()
                .withCovarianceType(CovarianceType.DIAG));
        assertArrayEquals(new double[] {4, 0}, model.covariance(0)[0], EXACT);
        assertArrayEquals(new double[] {0, 10}, model.covariance(0)[1], EXACT);
        Posterior p = Discriminant.compile(model).score(new double[] {2, 5});
        double expected = -0.5 * (2 * LOG_2PI + Math.log(40) + 1.0 + 2.5);
        assertEquals(expected, p.logDensity(), EXACT);
    }

    /**
     * TIED far out: Σ⁻¹ = [[10, −2], [−2, 4]]/36, Σ⁻¹(μ_b − μ_a) = (5, 8)/18 with μ_a = 0, μ_b = (2, 5), so
     * log p(b|x) − log p(a|x) = (5x₁ + 8x₂)/18 − 25/18 whatever the distance. Beyond 10^16 standard deviations the
     * shared ½xᵀΣ⁻¹x swallowed that difference and both classes came out at 1/2; 10^8 out along the boundary (the
     * direction (8, −5) adds nothing to it), one ulp of the shared term moved the posterior by a quarter.
     */
    @Test
    void shouldKeepTheClassesApartForTiedPointsFarOut() {
        ClassSummary a = new ClassSummary("a", COUNT, new double[] {0, 0}, scatterOf(SIGMA, COUNT));
        ClassSummary b = new ClassSummary("b", COUNT, new double[] {2, 5}, scatterOf(SIGMA, COUNT));
        Discriminant tied = Discriminant.compile(GaussianModel.fit(List.of(a, b),
                FitOptions.defaults().withCovarianceType(CovarianceType.TIED)));

        double t = 1e18;
        Posterior far = tied.score(new double[] {3 * t, -t});
        assertEquals(1.0, far.probabilities()[1], "b by (15 − 8)/18·10^18 nats");
        assertEquals(0.0, far.probabilities()[0]);
        // log p(x) = log p(x | b) + log π_b + log p(b | x), the last 0: −½xᵀΣ⁻¹x + O(10^18), xᵀΣ⁻¹x = 106/36·t².
        assertEquals(-0.5 * 106 / 36 * t * t, far.logDensity(), 1e-15 * 106 / 36 * t * t);

        // 10^8 out along the boundary, 0.1 of Δμ to b's side of it: log-odds 0.1·25/9, up to x's own rounding
        // (about 1e-16 · 10^8 · |Σ⁻¹Δμ| nats).
        double[] x = {1e8 * 8 + 1 + 0.2, 1e8 * -5 + 2.5 + 0.5};
        double odds = (5 * x[0] + 8 * x[1]) / 18 - 25.0 / 18;
        Posterior boundary = tied.score(x);
        assertEquals(1 / (1 + Math.exp(-odds)), boundary.probabilities()[1], 1e-7);
        assertEquals(1 / (1 + Math.exp(-25.0 / 90)), boundary.probabilities()[1], 1e-7);
    }

    /**
     * The same far TIED points with a third coordinate missing: the marginal over the two observed ones is the
     * fixture above (Σ_OO = [[4, 2], [2, 10]], the third coordinate independent), so the same closed-form log-odds
     * hold. The missing-coordinate path summed each class's distance in one pass: at 10^18 both classes came out at
     * 1/2, and 10^8 out along the boundary the posterior was off by far more than the all-observed path's.
     */
    @Test
    void shouldKeepTheClassesApartForTiedPointsFarOutWithAMissingCoordinate() {
        double[][] sigma = {{4, 2, 0}, {2, 10, 0}, {0, 0, 1}};
        ClassSummary a = new ClassSummary("a", COUNT, new double[] {0, 0, 0}, scatterOf(sigma, COUNT));
        ClassSummary b = new ClassSummary("b", COUNT, new double[] {2, 5, 7}, scatterOf(sigma, COUNT));
        Discriminant tied = Discriminant.compile(GaussianModel.fit(List.of(a, b),
                FitOptions.defaults().withCovarianceType(CovarianceType.TIED)));

        double t = 1e18;
        Posterior far = tied.score(new double[] {3 * t, -t, Double.NaN});
        assertEquals(1.0, far.probabilities()[1], "b by (15 − 8)/18·10^18 nats");
        assertEquals(0.0, far.probabilities()[0]);
        assertEquals(-0.5 * 106 / 36 * t * t, far.logDensity(), 1e-15 * 106 / 36 * t * t);

        double[] x = {1e8 * 8 + 1 + 0.2, 1e8 * -5 + 2.5 + 0.5, Double.NaN};
        Posterior boundary = tied.score(x);
        assertEquals(1 / (1 + Math.exp(-25.0 / 90)), boundary.probabilities()[1], 1e-7);
        Posterior observed = tied.score(new double[] {x[0], x[1], 3.5}); // halfway: no term of the third
        assertEquals(observed.probabilities()[1], boundary.probabilities()[1], 1e-7);
    }

    /**
     * TIED with Σ = I and classes a = (0, 0), b = (F, 0), c = (F + 1, 0): a point beside b and c is scored as FULL
     * scores it however far class a is, p(b) = 1/(1 + e^−¼) (squared distances 5/16 and 13/16). A split measured
     * from class a, taken whenever any class was far, gave p(b) = p(c) = ½ at F = 10^8.
     */
    @Test
    void shouldScoreATiedPointBesideItsClassesExactlyHoweverFarTheOtherClassesAre() {
        for (double f : new double[] {1e6, 1e8, 1e12}) {
            double[][] identity = {{COUNT, 0}, {0, COUNT}};
            Discriminant tied = Discriminant.compile(GaussianModel.fit(List.of(
                    new ClassSummary("a", COUNT, new double[] {0, 0}, identity),
                    new ClassSummary("b", COUNT, new double[] {f, 0}, identity),
                    new ClassSummary("c", COUNT, new double[] {f + 1, 0}, identity)),
                    FitOptions.defaults().withCovarianceType(CovarianceType.TIED)));
            Posterior p = tied.score(new double[] {f + 0.25, 0.5});
            assertEquals(1 / (1 + Math.exp(-0.25)), p.probabilities()[1], EXACT, "F = " + f);
            double logDensity = Math.log((Math.exp(-0.5 * 5 / 16) + Math.exp(-0.5 * 13 / 16)) / 3) - LOG_2PI;
            assertEquals(logDensity, p.logDensity(), EXACT, "F = " + f);
        }
    }
}
