package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fit with weighted class statistics, on hand values: priors W_k/ΣW, MLE S/W, unbiased S/(W − V/W) (tied:
 * Σ S_k / Σ (W_k − V_k/W_k)) and the minimum count on the effective sample size W²/V.
 */
class WeightedFitTest {

    private static final double HAND = 1e-14;

    /** x = 1 (w 1), x = 3 (w 3): W = 4, V = 10, n_eff = 1.6, μ = 2.5, S = 3. */
    private static ClassSummary weighted() {
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {1}, 1);
        g.update(new double[] {3}, 3);
        return ClassSummary.of("a", g);
    }

    /** x = 6, 8, unweighted: n = W = V = 2, μ = 7, S = 2. */
    private static ClassSummary plain() {
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {6});
        g.update(new double[] {8});
        return ClassSummary.of("b", g);
    }

    private static FitOptions options(CovarianceType type, Estimator estimator, long minCount) {
        return FitOptions.defaults().withCovarianceType(type).withEstimator(estimator).withMinCount(minCount)
                .withVarianceFloor(0);
    }

    @Test
    void mlePriorsAndCovariancesUseTheWeights() {
        GaussianModel model = GaussianModel.fit(List.of(weighted(), plain()),
                options(CovarianceType.FULL, Estimator.MLE, 1));
        assertArrayEquals(new double[] {4.0 / 6, 2.0 / 6}, model.priors(), HAND);
        assertEquals(0.75, model.covariance(0)[0][0], HAND);
        assertEquals(1.0, model.covariance(1)[0][0], HAND);
        assertArrayEquals(new long[] {2, 2}, model.counts(), "the raw counts");
    }

    @Test
    void unbiasedUsesReliabilityWeights() {
        GaussianModel full = GaussianModel.fit(List.of(weighted(), plain()),
                options(CovarianceType.FULL, Estimator.UNBIASED, 1));
        assertEquals(3.0 / (4 - 10.0 / 4), full.covariance(0)[0][0], HAND);
        assertEquals(2.0, full.covariance(1)[0][0], HAND, "n − 1 unweighted");
        GaussianModel tied = GaussianModel.fit(List.of(weighted(), plain()),
                options(CovarianceType.TIED, Estimator.UNBIASED, 1));
        assertEquals((3.0 + 2.0) / (1.5 + 1.0), tied.covariance(0)[0][0], HAND);
    }

    @Test
    void theMinimumCountAppliesToTheEffectiveSampleSize() {
        GaussianModel model = GaussianModel.fit(List.of(weighted(), plain()),
                options(CovarianceType.FULL, Estimator.MLE, 2));
        assertEquals(List.of("b"), model.labels());
        assertEquals(List.of(new Exclusion("a", "effective sample size 1.6 (W = 4.0 over 2 events) below minimum 2")),
                model.excluded());
    }

    @Test
    void aClassWhoseWeightIsGoneIsExcluded() {
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {1}, 0.0);
        ClassSummary empty = ClassSummary.of("z", g);
        assertArrayEquals(new double[][] {{0.0}}, empty.mleCovariance(), "finite: zero, not NaN");
        GaussianModel model = GaussianModel.fit(List.of(empty, plain()), options(CovarianceType.FULL, Estimator.MLE, 1));
        assertEquals(List.of("b"), model.labels());
        assertEquals(new Exclusion("z", "effective sample size 0.0 (W = 0.0 over 1 events) below minimum 1"),
                model.excluded().get(0));
    }
}
