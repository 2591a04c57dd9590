package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hand fixtures of θ_kjv = (n_kjv + α) / (n_kj + α·V_j) and of the Gaussian–categorical posterior.
 * Class a saw colour red 3 times and blue once; class b saw blue twice (V = 2).
 * α = 1: θ_a = (4/6, 2/6), θ_b = (1/4, 3/4). α = 0: θ_a = (3/4, 1/4), θ_b = (0, 1).
 */
class CategoricalLikelihoodTest {

    private static final double EXACT = 1e-15;
    private static final double CLOSE = 1e-14;
    private static final List<String> COLOUR = List.of("colour");
    private static final List<List<String>> VALUES = List.of(List.of("red", "blue"));
    private static final long[][][] COUNTS = {{{3, 1}}, {{0, 2}}};

    @Test
    void shouldSmoothWithLaplace() {
        CategoricalLikelihood one = CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, 1.0);
        assertEquals(Math.log(4.0 / 6.0), one.logTheta(0, 0, 0), EXACT);
        assertEquals(Math.log(2.0 / 6.0), one.logTheta(0, 0, 1), EXACT);
        assertEquals(Math.log(1.0 / 4.0), one.logTheta(1, 0, 0), EXACT);
        assertEquals(Math.log(3.0 / 4.0), one.logTheta(1, 0, 1), EXACT);
        double[] logLikelihood = {0, 0};
        one.addTo(new int[] {one.valueIndex(0, "blue")}, logLikelihood);
        assertArrayEquals(new double[] {Math.log(2.0 / 6.0), Math.log(3.0 / 4.0)}, logLikelihood, EXACT);
        assertEquals(-1, one.valueIndex(0, "green"));
    }

    @Test
    void shouldGiveProbabilityZeroNotNaNForAnUnseenPairAtAlphaZero() {
        CategoricalLikelihood zero = CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, 0.0);
        assertEquals(Math.log(0.75), zero.logTheta(0, 0, 0), EXACT);
        assertEquals(Double.NEGATIVE_INFINITY, zero.logTheta(1, 0, 0));
        Discriminant discriminant = twoClasses();
        double[] added = {0, 0};
        zero.addTo(new int[] {0}, added);
        Posterior p = discriminant.score(new double[] {0.5}, added);
        assertArrayEquals(new double[] {1.0, 0.0}, p.probabilities(), EXACT);
        assertFalse(Double.isNaN(p.logDensity()));
        // log p(x) = log π_a + log N_a(x) + log θ_a,red: class b contributes nothing.
        double expected = Math.log(0.5) + logNormal(0.5, 0.0, 1.0) + Math.log(0.75);
        assertEquals(expected, p.logDensity(), CLOSE);
    }

    @Test
    void shouldLeaveAnUnseenValueOutAsMissing() {
        CategoricalLikelihood one = CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, 1.0);
        double[] added = {0, 0};
        one.addTo(new int[] {-1}, added);
        assertArrayEquals(new double[] {0, 0}, added);
        Discriminant discriminant = twoClasses();
        assertArrayEquals(discriminant.score(new double[] {0.3}).probabilities(),
                discriminant.score(new double[] {0.3}, added).probabilities(), EXACT);
    }

    @Test
    void shouldMultiplyTheGaussianAndCategoricalFactors() {
        // Two unit-variance classes at 0 and 2 with equal priors; x = 0.5, colour = blue under α = 1.
        CategoricalLikelihood one = CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, 1.0);
        double[] added = {0, 0};
        one.addTo(new int[] {1}, added);
        Posterior p = twoClasses().score(new double[] {0.5}, added);
        double ja = Math.log(0.5) + logNormal(0.5, 0.0, 1.0) + Math.log(2.0 / 6.0);
        double jb = Math.log(0.5) + logNormal(0.5, 2.0, 1.0) + Math.log(3.0 / 4.0);
        double pa = 1.0 / (1.0 + Math.exp(jb - ja));
        assertArrayEquals(new double[] {pa, 1.0 - pa}, p.probabilities(), CLOSE);
        double logDensity = Math.max(ja, jb) + Math.log(Math.exp(ja - Math.max(ja, jb)) + Math.exp(jb - Math.max(ja, jb)));
        assertEquals(logDensity, p.logDensity(), CLOSE);
        // Every continuous coordinate missing: prior times θ.
        Posterior onlyCategorical = twoClasses().score(new double[] {Double.NaN}, added);
        double qa = 0.5 * 2.0 / 6.0;
        double qb = 0.5 * 3.0 / 4.0;
        assertArrayEquals(new double[] {qa / (qa + qb), qb / (qa + qb)}, onlyCategorical.probabilities(), CLOSE);
        assertEquals(Math.log(qa + qb), onlyCategorical.logDensity(), CLOSE);
    }

    /**
     * A Bernoulli feature is a categorical one of two values: θ_k(x) = p_k^x (1 − p_k)^(1−x) with
     * p_k = (n_k1 + α) / (n_k + 2α), the smoothed Bernoulli naive Bayes.
     */
    @Test
    void shouldBeTheSmoothedBernoulliForTwoValues() {
        long[][][] counts = {{{7, 3}}, {{1, 9}}}; // values "0", "1"
        double alpha = 0.5;
        CategoricalLikelihood bernoulli = CategoricalLikelihood.of(List.of("flag"), List.of(List.of("0", "1")),
                counts, alpha);
        for (int k = 0; k < 2; k++) {
            double p = (counts[k][0][1] + alpha) / (10 + 2 * alpha);
            for (int x = 0; x <= 1; x++) {
                assertEquals(x * Math.log(p) + (1 - x) * Math.log(1 - p), bernoulli.logTheta(k, 0, x), CLOSE);
            }
        }
    }

    /**
     * Exact ties in cyclic tables (each value's θ the same three numbers over three classes, each class 1/3): every
     * mass is 1/3 in exact arithmetic, and the first value wins, whatever the rounding of each sum (it went to v1 in
     * 32 of 90 such tables). The tables the audit found, K = V = 3 to 7, α = 0, 0.3, 1.
     */
    @Test
    void shouldSendExactTiesOfRoundedMassesToTheFirstValue() {
        java.util.Random random = new java.util.Random(11);
        for (int size = 3; size <= 7; size++) {
            for (double alpha : new double[] {0, 0.3, 1}) {
                for (int trial = 0; trial < 6; trial++) {
                    long[] row = new long[size];
                    for (int v = 0; v < size; v++) {
                        row[v] = 1 + random.nextInt(20);
                    }
                    long[][][] counts = new long[size][1][size]; // class k: the row shifted by k (a cyclic table)
                    List<String> values = new java.util.ArrayList<>();
                    for (int v = 0; v < size; v++) {
                        values.add("v" + v);
                        for (int k = 0; k < size; k++) {
                            counts[k][0][(v + k) % size] = row[v];
                        }
                    }
                    double[] p = new double[size];
                    java.util.Arrays.fill(p, 1.0 / size);
                    CategoricalLikelihood cyclic = CategoricalLikelihood.of(COLOUR, List.of(values), counts, alpha);
                    assertEquals(0, cyclic.mostProbableValue(0, p), size + " values, α " + alpha + ", row "
                            + java.util.Arrays.toString(row));
                }
            }
        }
    }

    /** argmax_v Σ_k p_k θ_kv by hand at α = 0: θ_0 = (¾, ¼), θ_1 = (0, 1) over (red, blue). */
    @Test
    void shouldImputeTheValueOfLargestMixtureProbability() {
        CategoricalLikelihood likelihood = CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, 0.0);
        assertEquals(1, likelihood.mostProbableValue(0, new double[] {0.5, 0.5}), "blue: 0.625 against 0.375");
        assertEquals(0, likelihood.mostProbableValue(0, new double[] {0.8, 0.2}), "red: 0.6 against 0.4");
        assertEquals(0, likelihood.mostProbableValue(0, new double[] {1.0, 0.0}), "a θ of 0 adds nothing");
        assertEquals("blue", likelihood.value(0, 1));
        // An exact tie (every θ is ½) goes to the first value of the vocabulary as given, red, not String order.
        CategoricalLikelihood even = CategoricalLikelihood.of(COLOUR, VALUES, new long[][][] {{{2, 2}}, {{1, 1}}},
                1.0);
        assertEquals(0, even.mostProbableValue(0, new double[] {0.3, 0.7}));
    }

    /**
     * The sampler draws θ_kv: 100,000 draws of each class within 5 binomial standard errors (α = 1: θ_0(red) = 4/6,
     * θ_1(red) = 1/4), and never a value of θ = 0 (α = 0: class 1 never had red).
     */
    @Test
    void shouldSampleTheSmoothedProbabilities() {
        int draws = 100_000;
        java.util.random.RandomGenerator random = new java.util.SplittableRandom(3);
        CategoricalSampler smoothed = new CategoricalSampler(CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, 1.0));
        double[] red = {4.0 / 6, 1.0 / 4};
        for (int k = 0; k < 2; k++) {
            int reds = 0;
            for (int i = 0; i < draws; i++) {
                reds += smoothed.sample(k, 0, random) == 0 ? 1 : 0;
            }
            assertEquals(red[k], (double) reds / draws, 5 * Math.sqrt(red[k] * (1 - red[k]) / draws), "class " + k);
        }
        CategoricalSampler unsmoothed = new CategoricalSampler(CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, 0.0));
        for (int i = 0; i < draws; i++) {
            assertEquals(1, unsmoothed.sample(1, 0, random));
        }
    }

    @Test
    void shouldRefuseWhatIsNotATable() {
        assertThrows(IllegalArgumentException.class, () -> CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, -1));
        assertThrows(IllegalArgumentException.class,
                () -> CategoricalLikelihood.of(COLOUR, VALUES, COUNTS, Double.NaN));
        assertThrows(IllegalArgumentException.class,
                () -> CategoricalLikelihood.of(COLOUR, List.of(List.of("red")), COUNTS, 1));
        assertThrows(IllegalArgumentException.class,
                () -> CategoricalLikelihood.of(COLOUR, List.of(List.of("red", "red")), COUNTS, 1));
        assertThrows(IllegalArgumentException.class,
                () -> CategoricalLikelihood.of(COLOUR, VALUES, new long[][][] {{{0, 0}}}, 0));
        assertThrows(IllegalArgumentException.class,
                () -> CategoricalLikelihood.of(COLOUR, VALUES, new long[][][] {{{-1, 2}}}, 1));
    }

    private static Discriminant twoClasses() {
        ClassSummary a = new ClassSummary("a", 10, new double[] {0}, new double[][] {{10}});
        ClassSummary b = new ClassSummary("b", 10, new double[] {2}, new double[][] {{10}});
        return Discriminant.compile(GaussianModel.fit(List.of(a, b), FitOptions.defaults()));
    }

    private static double logNormal(double x, double mean, double variance) {
        return -0.5 * (Math.log(2 * Math.PI * variance) + (x - mean) * (x - mean) / variance);
    }
}
