package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Weights, retractions and forgetting of {@link RunningGaussian} / {@link Forgetting} on hand-computed cases. */
class WeightedGaussianTest {

    /** Hand fixtures are exact in binary up to a few roundings. */
    private static final double HAND = 1e-14;

    @Test
    void weightedMeanAndScatterByHand() {
        // x = 1 (w 1), 3 (w 3): W = 4, μ = 10/4, S = 1·1.5² + 3·0.5² = 3, V = 10, n_eff = 16/10
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {1}, 1);
        g.update(new double[] {3}, 3);
        assertEquals(2, g.count());
        assertEquals(4.0, g.weight());
        assertEquals(10.0, g.squaredWeights());
        assertEquals(1.6, g.effectiveSampleSize(), HAND);
        assertEquals(2.5, g.mean()[0], HAND);
        assertEquals(3.0, g.scatter()[0][0], HAND);
        assertTrue(g.isWeighted());
    }

    @Test
    void forgettingWithALateEventByHand() {
        // h = 1 s: x = 1 at t = 0 and x = 3 at t = 1000 give weights 1/2 and 1 at T = 1000: W = 3/2, μ = 7/3,
        // S = ½(4/3)² + (2/3)² = 4/3, V = 5/4. A late x = 5 at t = 0 enters with ½: W = 2, μ = 3, S = 4.
        Forgetting f = new Forgetting(1000);
        RunningGaussian g = new RunningGaussian(1);
        f.update(g, new double[] {1}, 1, 0);
        f.update(g, new double[] {3}, 1, 1000);
        assertEquals(1000, g.referenceTime());
        assertEquals(1.5, g.weight(), HAND);
        assertEquals(1.25, g.squaredWeights(), HAND);
        assertEquals(7.0 / 3, g.mean()[0], HAND);
        assertEquals(4.0 / 3, g.scatter()[0][0], HAND);
        f.update(g, new double[] {5}, 1, 0);
        assertEquals(1000, g.referenceTime(), "a late event does not move the reference");
        assertEquals(2.0, g.weight(), HAND);
        assertEquals(3.0, g.mean()[0], HAND);
        assertEquals(4.0, g.scatter()[0][0], HAND);
    }

    @Test
    void unitWeightsStayTheUnweightedStatisticByteForByte() {
        SplittableRandom random = new SplittableRandom(3);
        double[][] x = RunningGaussianTest.cloud(random, 50, 4, 1e9, 1.0);
        RunningGaussian plain = new RunningGaussian(4);
        RunningGaussian unit = new RunningGaussian(4);
        for (double[] row : x) {
            plain.update(row);
            unit.update(row, 1.0);
        }
        assertFalse(unit.isWeighted());
        assertArrayEquals(plain.toBytes(), unit.toBytes());
        assertEquals(1, unit.toBytes()[0], "format version 1");
        assertEquals(50.0, unit.weight());
        assertEquals(50.0, unit.effectiveSampleSize());
    }

    @Test
    void weightedFormRoundTripsAsVersionTwo() {
        Forgetting f = new Forgetting(500);
        RunningGaussian g = new RunningGaussian(2);
        f.update(g, new double[] {1, 2}, 2.5, 100);
        f.update(g, new double[] {3, -1}, 0.5, 700);
        f.update(g, new double[] {0, 0}, 0.0, 50);
        assertNull(g.retract(new double[] {0, 0}, 0.0));
        byte[] bytes = g.toBytes();
        assertEquals(2, bytes[0]);
        RunningGaussian back = RunningGaussian.fromBytes(bytes);
        assertArrayEquals(bytes, back.toBytes());
        assertEquals(g.weight(), back.weight());
        assertEquals(g.squaredWeights(), back.squaredWeights());
        assertEquals(700, back.referenceTime());
        assertEquals(1, back.retractions());
        assertEquals(2, back.count());
        bytes[13 + 8] = (byte) 0xFF; // the sign bit of W (after version, d, n, retractions): W < 0 is refused
        assertThrows(IllegalArgumentException.class, () -> RunningGaussian.fromBytes(bytes));
    }

    @Test
    void weightZeroOnlyCounts() {
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {7}, 0.0);
        assertEquals(1, g.count());
        assertEquals(0.0, g.weight());
        assertEquals(0.0, g.mean()[0]);
        g.update(new double[] {2}, 2.0);
        assertEquals(2.0, g.mean()[0], "the first positive weight becomes the pivot");
        assertThrows(IllegalArgumentException.class, () -> g.update(new double[] {1}, -1));
        assertThrows(IllegalArgumentException.class, () -> g.update(new double[] {1}, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> g.update(new double[] {1}, Double.POSITIVE_INFINITY));
    }

    @Test
    void retractionUndoesAnUpdate() {
        RunningGaussian g = new RunningGaussian(2);
        g.update(new double[] {1, 2}, 1.5);
        g.update(new double[] {4, 0}, 0.5);
        g.update(new double[] {-2, 3}, 2.0);
        assertNull(g.retract(new double[] {4, 0}, 0.5));
        RunningGaussian expected = new RunningGaussian(2);
        expected.update(new double[] {1, 2}, 1.5);
        expected.update(new double[] {-2, 3}, 2.0);
        assertEquals(expected.weight(), g.weight(), HAND);
        assertEquals(expected.squaredWeights(), g.squaredWeights(), HAND);
        for (int i = 0; i < 2; i++) {
            assertEquals(expected.mean()[i], g.mean()[i], HAND);
            for (int j = 0; j < 2; j++) {
                assertEquals(expected.scatter()[i][j], g.scatter()[i][j], 1e-13);
            }
        }
        assertEquals(2, g.count());
        assertEquals(1, g.retractions());
    }

    @Test
    void impossibleRetractionsAreRefusedAndChangeNothing() {
        RunningGaussian empty = new RunningGaussian(2);
        assertTrue(empty.retract(new double[] {0, 0}, 1).contains("negative"));
        assertEquals(0, empty.count());

        // (0,0), (1,1), (2,2): S = [[2,2],[2,2]]
        RunningGaussian g = new RunningGaussian(2);
        for (int i = 0; i < 3; i++) {
            g.update(new double[] {i, i});
        }
        byte[] before = g.toBytes();
        // δ = (0,−2), S' = S − 3/2·δδᵀ: S'_22 = −4
        assertTrue(g.retract(new double[] {1, -1}, 1).contains("coordinate 1"));
        // δ = (1,−1): S' = [[0.5, 3.5], [3.5, 0.5]], diagonal fine, 2×2 minor −12
        assertTrue(g.retract(new double[] {2, 0}, 1).contains("coordinates 0 and 1"));
        assertTrue(g.retract(new double[] {1, 1}, 5).contains("exceeds"));
        assertArrayEquals(before, g.toBytes(), "a refused retraction changes nothing");
        assertNotNull(g.retract(new double[] {1, 1}, 5));

        Forgetting f = new Forgetting(1000);
        RunningGaussian late = new RunningGaussian(1);
        f.update(late, new double[] {1}, 1, 100);
        byte[] kept = late.toBytes();
        assertTrue(f.retract(late, new double[] {1}, 1, 200).contains("later than every event"));
        assertArrayEquals(kept, late.toBytes());
    }

    @Test
    void aRetractionThatWouldLeaveRealButNegligibleWeightIsRefusedNotCleared() {
        // Three unit observations beside one of weight 1e10: retracting the heavy one leaves W' = 3, 3e-10 of W,
        // whose downdate would multiply rounding by 3.3e9. Before, the class was cleared: its three observations lost.
        for (boolean diagonal : new boolean[] {false, true}) {
            RunningGaussian g = diagonal ? RunningGaussian.diagonal(2) : new RunningGaussian(2);
            g.update(new double[] {1, 1}, 1);
            g.update(new double[] {3, 5}, 1);
            g.update(new double[] {2, 0}, 1);
            g.update(new double[] {100, 100}, 1e10);
            byte[] before = g.toBytes();
            String refused = g.retract(new double[] {100, 100}, 1e10);
            assertNotNull(refused);
            assertTrue(refused.startsWith("it would leave the class's 3 other observations a weight of 3.0"), refused);
            assertTrue(refused.endsWith("the downdate would multiply rounding errors by 3.33333325E9, so their mean and"
                    + " scatter could not be trusted"), refused);
            assertArrayEquals(before, g.toBytes(), "a refused retraction changes nothing");
            assertEquals(4, g.count());

            // A light one goes: W' = 1e10 + 2, nothing amplified.
            assertNull(g.retract(new double[] {2, 0}, 1));
            assertEquals(1e10 + 2, g.weight(), 1e10 * HAND);
            assertEquals(3, g.count());
        }
    }

    /**
     * V = Σ w² spans the squares of the weights: beside one observation of weight 1e8, V = 1e16 and twenty unit
     * weights added to it round away (ulp(1e16) = 2). Retracting the heavy one left V' = 0 against W' = 20: an
     * effective sample size of 0, the class left out of scoring. Now refused, as W's cancellation is; a retraction
     * whose V' is within 1e-9 of V keeps an effective sample size true to the data.
     */
    @Test
    void aRetractionThatWouldLeaveSquaredWeightsMostlyRoundingIsRefused() {
        for (boolean diagonal : new boolean[] {false, true}) {
            RunningGaussian g = diagonal ? RunningGaussian.diagonal(2) : new RunningGaussian(2);
            g.update(new double[] {-3, 1}, 1e8);
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < 20; i++) {
                g.update(new double[] {random.nextDouble(), random.nextDouble()}, 1);
            }
            byte[] before = g.toBytes();
            String refused = g.retract(new double[] {-3, 1}, 1e8);
            assertNotNull(refused);
            assertTrue(refused.startsWith("it would leave the class's 20 other observations a sum of squared weights"
                    + " of 0.0 of its 1.0E16"), refused);
            assertArrayEquals(before, g.toBytes(), "a refused retraction changes nothing");

            // Heavy by 1e3 only: V = 1e6 + 20, V' = 20 to within 1e6 ulps of 1e6 (≈ 1e-10): the effective sample
            // size of twenty unit weights is 20.
            RunningGaussian h = diagonal ? RunningGaussian.diagonal(2) : new RunningGaussian(2);
            h.update(new double[] {-3, 1}, 1e3);
            for (int i = 0; i < 20; i++) {
                h.update(new double[] {random.nextDouble(), random.nextDouble()}, 1);
            }
            assertNull(h.retract(new double[] {-3, 1}, 1e3));
            assertEquals(20.0, h.effectiveSampleSize(), 20 * 1e-9);
        }
    }

    /**
     * Under forgetting the refusal does not apply (what remains that light is decayed weight); V' is kept within the
     * Cauchy–Schwarz bounds W'²/n' ≤ V' ≤ W'² instead, so the effective sample size stays between 1 and n': the case
     * above gave 0 (V' cancelled to 0). Twenty equal weights sit on the lower bound: n_eff = 20.
     */
    @Test
    void underForgettingSquaredWeightsStayWithinWhatTheRemainingWeightsAllow() {
        Forgetting f = new Forgetting(1000);
        RunningGaussian g = new RunningGaussian(1);
        f.update(g, new double[] {-3}, 1e8, 0);
        for (int i = 0; i < 20; i++) {
            f.update(g, new double[] {i}, 1, 0);
        }
        assertNull(f.retract(g, new double[] {-3}, 1e8, 0));
        assertEquals(20, g.count());
        assertEquals(20.0, g.weight(), 1e8 * 1e-15);
        assertEquals(20.0, g.effectiveSampleSize(), 1e-6, "Kish's n_eff of twenty equal weights (0 before)");
    }

    /**
     * Decay multiplies V by f², W by f: n_eff = W²/V is unchanged by it (exactly, for powers of two), until V leaves
     * the normal doubles (about 510 half-lives here) and loses its digits: the class is then cleared (forgotten), not
     * given a wrong effective sample size (4.9 % off at 535 half-lives, 0 at 700, before).
     */
    @Test
    void decayKeepsTheEffectiveSampleSizeUntilSquaredWeightsLeaveTheNormalDoubles() {
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {1}, 1);
        g.update(new double[] {2}, 2);
        g.update(new double[] {4}, 1);
        double ess = g.effectiveSampleSize(); // 16/6
        RunningGaussian kept = g.copy();
        kept.rescale(Math.scalb(1.0, -500), 1);
        assertEquals(ess, kept.effectiveSampleSize(), 0.0);
        assertEquals(Math.scalb(4.0, -500), kept.weight(), 0.0);
        RunningGaussian forgotten = g.copy();
        forgotten.rescale(Math.scalb(1.0, -535), 1);
        assertEquals(3, forgotten.count(), "the events stay counted");
        assertEquals(0.0, forgotten.weight(), "cleared");
        assertEquals(0.0, forgotten.effectiveSampleSize());
    }

    @Test
    void underForgettingWhatRemainsBelowTheToleranceIsForgottenWeightAndIsCleared() {
        // An event 40 half-lives older than the one retracted weighs 2^-40 ≈ 9e-13 of it: forgotten in all but name.
        Forgetting f = new Forgetting(1000);
        RunningGaussian g = new RunningGaussian(1);
        f.update(g, new double[] {5}, 1, 0);
        f.update(g, new double[] {7}, 1, 40_000);
        assertNull(f.retract(g, new double[] {7}, 1, 40_000));
        assertEquals(1, g.count());
        assertEquals(0.0, g.weight(), "cleared");
    }

    @Test
    void aRetractionThatLeavesOnlyWeightZeroObservationsClearsTheMeanUpToRounding() {
        // W = 0 + 0.1 + 0.2 rounds to 0.30000000000000004; less 0.2 and 0.1 it is 2.8e-17, not 0: rounding, cleared.
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {7}, 0.0);
        g.update(new double[] {2}, 0.1);
        g.update(new double[] {5}, 0.2);
        assertNull(g.retract(new double[] {5}, 0.2));
        assertNull(g.retract(new double[] {2}, 0.1));
        assertEquals(1, g.count(), "the weight-0 observation stays");
        assertEquals(0.0, g.weight());
        assertEquals(0.0, g.mean()[0]);
    }

    @Test
    void mergeTakesTheWeightsAsTheyAreAndAlignmentDecaysTheEarlierOne() {
        Forgetting f = new Forgetting(1000);
        RunningGaussian a = new RunningGaussian(1);
        RunningGaussian b = new RunningGaussian(1);
        f.update(a, new double[] {1}, 1, 0);
        f.update(b, new double[] {2}, 1, 1000);
        RunningGaussian unaligned = a.copy();
        unaligned.merge(b);
        assertEquals(2.0, unaligned.weight(), "without forgetting: weights as they are");
        assertEquals(1000, unaligned.referenceTime());
        f.alignTo(a, 1000);
        a.merge(b);
        assertEquals(1.5, a.weight(), HAND);
        assertEquals(5.0 / 3, a.mean()[0], HAND);
    }

    @Test
    void halfLifeMustBePositiveAndFinite() {
        assertThrows(IllegalArgumentException.class, () -> new Forgetting(0));
        assertThrows(IllegalArgumentException.class, () -> new Forgetting(Double.NaN));
        assertEquals(0.25, new Forgetting(10).factor(0, 20), HAND);
        assertThrows(IllegalArgumentException.class, () -> new Forgetting(10).factor(20, 0));
    }
}
