package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GaussianSamplerTest {

    private static final int DRAWS = 200_000;
    /** Statistical tolerance in standard errors; with a fixed seed the test is deterministic. */
    private static final double STANDARD_ERRORS = 5;
    private static final long SEED = 31;

    private static final double[][] SIGMA = {{4, 2, -1}, {2, 10, 3}, {-1, 3, 6}};
    private static final double[] MU = {1, -1, 1e6};

    private static GaussianModel model() {
        double[][] scatter = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                scatter[i][j] = 20 * SIGMA[i][j];
            }
        }
        return GaussianModel.fit(List.of(
                new ClassSummary("a", 20, MU, scatter),
                new ClassSummary("b", 60, new double[] {0, 0, 1e6}, new double[][] {{60, 0, 0}, {0, 60, 0}, {0, 0, 60}})),
                FitOptions.defaults());
    }

    @Test
    void shouldDrawWithTheModelMeanAndCovariance() {
        GaussianSampler sampler = new GaussianSampler(model());
        SplittableRandom random = new SplittableRandom(SEED);
        RunningGaussian stats = new RunningGaussian(3);
        for (int i = 0; i < DRAWS; i++) {
            stats.update(sampler.sample(0, random));
        }
        double[] mean = stats.mean();
        double[][] scatter = stats.scatter();
        for (int i = 0; i < 3; i++) {
            assertEquals(MU[i], mean[i], STANDARD_ERRORS * Math.sqrt(SIGMA[i][i] / DRAWS));
            for (int j = 0; j < 3; j++) {
                // Var of a sample covariance entry: (Σ_ij² + Σ_ii Σ_jj) / n
                double se = Math.sqrt((SIGMA[i][j] * SIGMA[i][j] + SIGMA[i][i] * SIGMA[j][j]) / DRAWS);
                assertEquals(SIGMA[i][j], scatter[i][j] / DRAWS, STANDARD_ERRORS * se, "Σ[" + i + "][" + j + "]");
            }
        }
    }

    @Test
    void shouldDrawClassesInProportionToThePriors() {
        GaussianSampler sampler = new GaussianSampler(model());
        SplittableRandom random = new SplittableRandom(SEED + 1);
        int first = 0;
        for (int i = 0; i < DRAWS; i++) {
            if (sampler.sampleClass(random) == 0) {
                first++;
            }
        }
        assertEquals(0.25, (double) first / DRAWS, STANDARD_ERRORS * Math.sqrt(0.25 * 0.75 / DRAWS));
    }

    @Test
    void shouldRefuseAModelWithoutClasses() {
        GaussianModel empty = GaussianModel.fit(List.of(new ClassSummary("a", 1, new double[1], new double[1][1])),
                FitOptions.defaults());
        assertThrows(IllegalArgumentException.class, () -> new GaussianSampler(empty));
    }
}
