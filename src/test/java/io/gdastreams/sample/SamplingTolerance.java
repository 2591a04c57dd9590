package io.gdastreams.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

/**
 * Whether statistics estimated from a sample agree with the parameters it was drawn from, within sampling error.
 *
 * <p>Each estimate is compared with a tolerance of {@value #STANDARD_ERRORS} standard errors of that estimate: a
 * prior (a proportion of N draws) has sd √(π(1−π)/N); a mean coordinate of n_k draws √(Σ_jj/n_k); an entry of the
 * sample covariance, for Gaussian data, √((Σ_ij² + Σ_ii·Σ_jj)/n_k) (the Wishart variance divided by n_k², to first
 * order in 1/n_k; the mean being estimated changes it by O(1/n_k²)). One comparison exceeds 5 sd with probability
 * 5.7e-7, so the about 150 comparisons of a test fail by chance with probability below 1e-4, while a wrong
 * parameter (a missed shrinkage, a transposed factor, a wrong divisor) is off by many sd at n = 200,000. The seeds
 * are fixed, so each test is deterministic.
 */
public final class SamplingTolerance {

    public static final double STANDARD_ERRORS = 5;

    private SamplingTolerance() {
    }

    /** Class statistics from a sample (or a model trained on one): count, mean, MLE covariance. */
    public record Estimate(String label, long count, double[] mean, double[][] covariance) {
    }

    /**
     * Asserts that {@code estimates} (in the order of {@code priors}) reproduce the priors, means and covariances
     * the sample was drawn from.
     */
    public static void assertReproduces(double[] priors, double[][] means, double[][][] covariances,
                                        List<Estimate> estimates, String context) {
        long total = 0;
        for (Estimate e : estimates) {
            total += e.count();
        }
        assertEquals(priors.length, estimates.size(), context + ": classes drawn");
        for (int k = 0; k < priors.length; k++) {
            Estimate e = estimates.get(k);
            String where = context + ", class " + e.label();
            assertEquals(priors[k], (double) e.count() / total,
                    STANDARD_ERRORS * Math.sqrt(priors[k] * (1 - priors[k]) / total), where + ": prior");
            assertClass(means[k], covariances[k], e, where);
        }
    }

    /**
     * Asserts that {@code observed} of {@code n} draws is the frequency of a value of probability {@code theta}:
     * within {@value #STANDARD_ERRORS} binomial standard errors √(θ(1−θ)/n), and exactly 0 when θ = 0.
     */
    public static void assertFrequency(double theta, long observed, long n, String where) {
        double frequency = (double) observed / n;
        assertEquals(theta, frequency, STANDARD_ERRORS * Math.sqrt(theta * (1 - theta) / n),
                where + ": frequency " + observed + "/" + n);
        if (theta == 0) {
            assertEquals(0, observed, where + ": a value of probability 0 is never drawn");
        }
    }

    /** Asserts that one class's statistics reproduce the mean and covariance it was drawn from. */
    public static void assertClass(double[] mean, double[][] covariance, Estimate e, String where) {
        int d = mean.length;
        long n = e.count();
        for (int i = 0; i < d; i++) {
            assertEquals(mean[i], e.mean()[i], STANDARD_ERRORS * Math.sqrt(covariance[i][i] / n),
                    where + ": mean[" + i + "]");
            for (int j = 0; j < d; j++) {
                double sd = Math.sqrt((covariance[i][j] * covariance[i][j] + covariance[i][i] * covariance[j][j]) / n);
                assertEquals(covariance[i][j], e.covariance()[i][j], STANDARD_ERRORS * sd,
                        where + ": covariance[" + i + "][" + j + "]");
            }
        }
    }
}
