package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The edges of {@link RunningGaussian}'s retraction and rescale and of {@link Forgetting}: the refusals of a
 * retraction are relative, so they judge data in millimetres as they judge it in metres; a coordinate without
 * spread (scatter 0) is no reason to refuse; the documented checks on arguments; Forgetting's category-count path
 * by hand (halving per half-life).
 */
class StatisticEdgeCasesTest {

    /** Means and scatters of three or four points, by hand. */
    private static final double HAND = 1e-15;
    /** A downdate whose cancellation loses five of the scatter's sixteen digits: 1e-9 relative is ample. */
    private static final double DOWNDATE = 1e-9;
    private static final long SEED = 17;

    private static RunningGaussian of(double[]... points) {
        RunningGaussian g = new RunningGaussian(points[0].length);
        for (double[] x : points) {
            g.update(x);
        }
        return g;
    }

    /**
     * 1-d: points 0 and s, then a retraction of 2s (never added): S' = S − (wW/W')δ² = s²/2 − 2·(1.5s)² &lt; 0, a
     * negative variance, refused at s = 1e-3 as at s = 1 (the tolerance is 1e-9 of the entry's scale, not an
     * absolute 1e-9).
     */
    @Test
    void shouldRefuseANegativeVarianceAtEveryScale() {
        for (double s : new double[] {1e-3, 1.0, 1e3}) {
            RunningGaussian g = of(new double[] {0}, new double[] {s});
            assertNotNull(g.retract(new double[] {2 * s}, 1.0), "scale " + s);
            assertEquals(2, g.count(), "refused: unchanged");
            assertArrayEquals(new double[] {s / 2}, g.mean(), HAND * s);
        }
    }

    /**
     * 2-d: the corners of a square of side s (S = s²I, μ = (s/2, s/2)) and a retraction of μ + 0.8s·(1, 1), never
     * added: S' = s²I − (4/3)(0.8s)²·11ᵀ keeps both variances positive (0.147s²) but its 2×2 minor is −0.707s⁴:
     * refused at every scale.
     */
    @Test
    void shouldRefuseALostCorrelationBoundAtEveryScale() {
        for (double s : new double[] {1e-3, 1.0, 1e3}) {
            RunningGaussian g = of(new double[] {0, 0}, new double[] {s, 0}, new double[] {0, s},
                    new double[] {s, s});
            assertNotNull(g.retract(new double[] {1.3 * s, 1.3 * s}, 1.0), "scale " + s);
            assertEquals(4, g.count(), "refused: unchanged");
        }
    }

    /**
     * A coordinate without spread: (1, 5), (2, 5), (4, 5); retracting (4, 5) leaves (1, 5), (2, 5): mean (1.5, 5),
     * scatter [[0.5, 0], [0, 0]]. The zero variance (and the zero minor it makes) is no loss of semi-definiteness.
     */
    @Test
    void shouldRetractFromAStatisticWithAConstantCoordinate() {
        RunningGaussian g = of(new double[] {1, 5}, new double[] {2, 5}, new double[] {4, 5});
        assertNull(g.retract(new double[] {4, 5}, 1.0));
        assertEquals(2, g.count());
        assertArrayEquals(new double[] {1.5, 5}, g.mean(), HAND);
        assertArrayEquals(new double[] {0.5, 0}, g.scatter()[0], HAND);
        assertArrayEquals(new double[] {0, 0}, g.scatter()[1], HAND);
    }

    /**
     * A glitch of 1e9 among 1000 values near 1 (sd 0.01): its scatter, about 1e15, rounded the others' 0.1 away
     * when it came, so retracting it cannot give their scatter back (it came out 0, a variance at the floor and
     * posteriors of 0 for the class's own values): refused, the statistic unchanged. The same glitch as the class's
     * first observation (its pivot) is refused too.
     */
    @Test
    void shouldRefuseARetractionWhoseDowndateIsMostlyRounding() {
        for (boolean glitchFirst : new boolean[] {false, true}) {
            RunningGaussian g = new RunningGaussian(1);
            if (glitchFirst) {
                g.update(new double[] {1e9});
            }
            Random random = new Random(SEED);
            for (int i = 0; i < 1000; i++) {
                g.update(new double[] {1 + 0.01 * random.nextGaussian()});
            }
            if (!glitchFirst) {
                g.update(new double[] {1e9});
            }
            double[] scatter = g.scatter()[0].clone();
            String refusal = g.retract(new double[] {1e9}, 1.0);
            assertNotNull(refusal, "glitch first: " + glitchFirst);
            assertTrue(refusal.startsWith("the observation is so far from the class's others in coordinate 0 that"
                    + " the downdate would multiply rounding errors by "), refusal);
            assertEquals(1001, g.count());
            assertArrayEquals(scatter, g.scatter()[0], 0.0);
        }
    }

    /**
     * An outlier of 100 among the same 1000 values: its scatter (1e4) keeps the others' to some 1e-12, so the
     * retraction is applied and gives the statistic of the 1000 alone (to {@link #DOWNDATE} relative); and a flag
     * seen once (0, 0, 1), retracted, leaves a coordinate exactly zero (mean and scatter 0), which is no reason to
     * refuse.
     */
    @Test
    void shouldRetractAnOutlierThatKeepsTheOthersScatterAndAFlagSeenOnce() {
        RunningGaussian g = new RunningGaussian(1);
        RunningGaussian without = new RunningGaussian(1);
        Random random = new Random(SEED);
        for (int i = 0; i < 1000; i++) {
            double[] x = {1 + 0.01 * random.nextGaussian()};
            g.update(x);
            without.update(x);
        }
        g.update(new double[] {100});
        assertNull(g.retract(new double[] {100}, 1.0));
        assertEquals(without.mean()[0], g.mean()[0], DOWNDATE * Math.abs(without.mean()[0]));
        assertEquals(without.scatter()[0][0], g.scatter()[0][0], DOWNDATE * without.scatter()[0][0]);

        RunningGaussian flag = of(new double[] {0, 2}, new double[] {0, 3}, new double[] {1, 5});
        assertNull(flag.retract(new double[] {1, 5}, 1.0));
        assertArrayEquals(new double[] {0, 2.5}, flag.mean(), HAND);
        assertArrayEquals(new double[] {0, 0}, flag.scatter()[0], 0.0);
        assertEquals(0.5, flag.scatter()[1][1], HAND);
    }

    @Test
    void shouldRefuseARetractionOfANonFinitePointOrANegativeWeight() {
        RunningGaussian g = of(new double[] {1, 2}, new double[] {3, 4});
        assertThrows(IllegalArgumentException.class, () -> g.retract(new double[] {Double.NaN, 2}, 1.0));
        assertThrows(IllegalArgumentException.class, () -> g.retract(new double[] {1, 2}, -1.0));
        assertThrows(IllegalArgumentException.class, () -> g.retract(new double[] {1}, 1.0));
        assertEquals(2, g.count());
        assertEquals(2.0, g.weight(), 0.0);
    }

    /**
     * The factor of a rescale is in [0, 1]: 1 only sets the reference time; 0 (a gap of over 1075 half-lives)
     * forgets everything before, the count kept; outside [0, 1] or NaN is refused, the statistic unchanged.
     */
    @Test
    void shouldRescaleByOneForgetAtZeroAndRefuseTheRest() {
        RunningGaussian g = of(new double[] {1}, new double[] {3});
        for (double refused : new double[] {-0.5, 1.5, Double.NaN}) {
            assertThrows(IllegalArgumentException.class, () -> g.rescale(refused, 5), "factor " + refused);
        }
        assertEquals(RunningGaussian.NO_REFERENCE_TIME, g.referenceTime());
        g.rescale(1.0, 5);
        assertEquals(5, g.referenceTime());
        assertEquals(2.0, g.weight(), 0.0);
        assertEquals(2.0, g.scatter()[0][0], 0.0);
        g.rescale(0.0, 6);
        assertEquals(6, g.referenceTime());
        assertEquals(2, g.count());
        assertEquals(0.0, g.weight(), 0.0);
        assertEquals(0.0, g.scatter()[0][0], 0.0);
        g.update(new double[] {7}, 1.0);
        assertArrayEquals(new double[] {7}, g.mean(), 0.0, "the next observation is the new pivot");
        assertEquals(1.0, g.weight(), 0.0);

        CategoryCounts counts = new CategoryCounts(List.of("f"));
        counts.update(new String[] {"u"});
        counts.rescale(0.0, 6);
        assertEquals(Map.of("u", 0.0), counts.weights(0));
        assertEquals(0.0, counts.weight(), 0.0);
        assertThrows(IllegalArgumentException.class, () -> counts.rescale(-1.0, 7));
    }

    /**
     * Under forgetting, retracting an event 55 half-lives older than the class's last (its weight 2^−55 ≈ 3e-17 of
     * W): West's update rounded its share of the scatter away when the last came, so the downdate came out −4e-16
     * and was refused as a loss of semi-definiteness. Forgotten in all but name: applied, its weight leaves W, the
     * mean and scatter stay the others'.
     */
    @Test
    void shouldRetractAnEventDecayedBeyondTheTolerance() {
        Forgetting forgetting = new Forgetting(1000);
        RunningGaussian g = new RunningGaussian(1);
        forgetting.update(g, new double[] {1}, 1.0, 0);
        forgetting.update(g, new double[] {2}, 1.0, 0);
        forgetting.update(g, new double[] {3}, 1.0, 0);
        forgetting.update(g, new double[] {5}, 1.0, 55_000);
        double[] mean = g.mean();
        double[][] scatter = g.scatter();
        double weight = g.weight();
        assertNull(forgetting.retract(g, new double[] {1}, 1.0, 0));
        assertEquals(3, g.count());
        assertEquals(weight - Math.pow(2, -55), g.weight(), 0.0);
        assertArrayEquals(mean, g.mean(), 0.0);
        assertArrayEquals(scatter[0], g.scatter()[0], 0.0);
    }

    /** 2^(−0/h) = 1: advancing from a time to itself changes nothing. */
    @Test
    void shouldGiveAFactorOfOneForNoTimeElapsed() {
        assertEquals(1.0, new Forgetting(1000).factor(5, 5), 0.0);
        assertEquals(0.5, new Forgetting(1000).factor(5, 1005), 0.0);
    }

    /**
     * Category counts under a half-life of 1000 ms: u at t = 1000, then v late at t = 0 (weight ½), then w at 3000
     * (everything before it halved twice): u ¼, v ⅛, w 1. decayedWeight gives what a retraction would remove.
     */
    @Test
    void shouldDecayCategoryCountsByHalfLives() {
        Forgetting forgetting = new Forgetting(1000);
        CategoryCounts counts = new CategoryCounts(List.of("f"));
        forgetting.update(counts, new String[] {"u"}, 1.0, 1000);
        forgetting.update(counts, new String[] {"v"}, 1.0, 0);
        assertEquals(Map.of("u", 1.0, "v", 0.5), counts.weights(0));
        assertEquals(1.0, forgetting.decayedWeight(counts, 2.0, 0), 0.0);
        assertEquals(2.0, forgetting.decayedWeight(counts, 2.0, 1000), 0.0);
        forgetting.update(counts, new String[] {"w"}, 1.0, 3000);
        assertEquals(Map.of("u", 0.25, "v", 0.125, "w", 1.0), counts.weights(0));
        assertEquals(3000, counts.referenceTime());
        forgetting.alignTo(counts, 4000);
        assertEquals(Map.of("u", 0.125, "v", 0.0625, "w", 0.5), counts.weights(0));
        forgetting.alignTo(counts, 2000); // earlier: nothing
        assertEquals(4000, counts.referenceTime());
        assertEquals(1.375 / 2, counts.weight(), 0.0);
    }
}
