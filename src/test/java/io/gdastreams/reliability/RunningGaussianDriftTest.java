package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.RunningGaussian;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Ten million events through one {@link RunningGaussian}: the streamed covariance must not drift from a
 * two-pass reference with Neumaier-compensated sums by more than {@link #RELATIVE_TOLERANCE}, relative to the
 * scale sqrt(Σ_ii Σ_jj) of each entry (so that near-zero correlations are judged fairly).
 *
 * <p>The data are regenerated from the seed for each pass instead of being held (10⁷ × 4 doubles = 320 MB).
 * Features have very different offsets (up to 1e9) and scales (1e-3 to 10) and are correlated.
 */
class RunningGaussianDriftTest {

    private static final long SEED = 20_261_122L;
    private static final int N = 10_000_000;
    private static final int D = 4;
    private static final double RELATIVE_TOLERANCE = 1e-9;

    private static final double[] OFFSET = {0.0, -1e3, 1e6, 1e9};
    /** Lower-triangular mixing: x = OFFSET + A z with z standard normal, so Σ = A Aᵀ. */
    private static final double[][] A = {
            {1e-3, 0, 0, 0},
            {0.5, 1.0, 0, 0},
            {-2.0, 3.0, 10.0, 0},
            {0.0, 0.7, -0.1, 0.5}};

    /** Fills {@code x} with the next point of the stream. */
    private static void next(SplittableRandom random, double[] z, double[] x) {
        for (int i = 0; i < D; i++) {
            z[i] = random.nextGaussian();
        }
        for (int i = 0; i < D; i++) {
            double v = 0;
            for (int k = 0; k <= i; k++) {
                v += A[i][k] * z[k];
            }
            x[i] = OFFSET[i] + v;
        }
    }

    /** Neumaier's compensated summation. */
    private static final class CompensatedSum {
        private double sum;
        private double compensation;

        void add(double v) {
            double t = sum + v;
            if (Math.abs(sum) >= Math.abs(v)) {
                compensation += (sum - t) + v;
            } else {
                compensation += (v - t) + sum;
            }
            sum = t;
        }

        double value() {
            return sum + compensation;
        }
    }

    @Test
    void shouldKeepCovarianceOfTenMillionEventsWithinOneBillionthOfTwoPassReference() {
        double[] z = new double[D];
        double[] x = new double[D];

        RunningGaussian streamed = new RunningGaussian(D);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int n = 0; n < N; n++) {
            next(random, z, x);
            streamed.update(x);
        }

        CompensatedSum[] sums = new CompensatedSum[D];
        for (int i = 0; i < D; i++) {
            sums[i] = new CompensatedSum();
        }
        random = new SplittableRandom(SEED);
        for (int n = 0; n < N; n++) {
            next(random, z, x);
            for (int i = 0; i < D; i++) {
                sums[i].add(x[i]);
            }
        }
        double[] mean = new double[D];
        for (int i = 0; i < D; i++) {
            mean[i] = sums[i].value() / N;
        }
        CompensatedSum[][] scatter = new CompensatedSum[D][D];
        for (int i = 0; i < D; i++) {
            for (int j = i; j < D; j++) {
                scatter[i][j] = new CompensatedSum();
            }
        }
        random = new SplittableRandom(SEED);
        for (int n = 0; n < N; n++) {
            next(random, z, x);
            for (int i = 0; i < D; i++) {
                double di = x[i] - mean[i];
                for (int j = i; j < D; j++) {
                    scatter[i][j].add(di * (x[j] - mean[j]));
                }
            }
        }

        assertEquals(N, streamed.count());
        double[][] s = streamed.scatter();
        double[] m = streamed.mean();
        double worst = 0;
        for (int i = 0; i < D; i++) {
            double sigmaI = Math.sqrt(scatter[i][i].value() / N);
            // A mean near 1e9 cannot be nearer than an ulp (1.2e-7), however good the algorithm.
            assertTrue(Math.abs(m[i] - mean[i]) <= RELATIVE_TOLERANCE * sigmaI + Math.ulp(mean[i]),
                    "mean " + i + ": " + m[i] + " vs " + mean[i]);
            for (int j = i; j < D; j++) {
                double reference = scatter[i][j].value() / N;
                double scale = Math.sqrt(scatter[i][i].value() / N * scatter[j][j].value() / N);
                double error = Math.abs(s[i][j] / N - reference) / scale;
                worst = Math.max(worst, error);
                assertTrue(error <= RELATIVE_TOLERANCE,
                        "covariance (" + i + "," + j + "): " + s[i][j] / N + " vs " + reference + ", relative " + error);
            }
        }
        // The reference itself must be the intended covariance A Aᵀ (to sampling error), or it proves nothing.
        for (int i = 0; i < D; i++) {
            double expected = 0;
            for (int k = 0; k < D; k++) {
                expected += A[i][k] * A[i][k];
            }
            assertEquals(expected, scatter[i][i].value() / N, 0.01 * expected, "variance " + i);
        }
        System.out.printf("drift: worst relative covariance error after %d events: %.3g%n", N, worst);
    }
}
