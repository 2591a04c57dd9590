package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Page–Hinkley: the statistic against a hand computation, no alarm on a long stationary stream of log-losses, and
 * an alarm soon after the stream changes.
 */
class PageHinkleyTest {

    private static final double EXACT = 1e-12;
    /** The defaults of gda.drift.delta and gda.drift.lambda (nats of log-loss) and the burn-in. */
    private static final double DELTA = 0.1;
    private static final double LAMBDA = 50;
    private static final long MIN_INSTANCES = 30;

    @Test
    void statisticMatchesAHandComputation() {
        PageHinkley ph = new PageHinkley(0.5, 100, 1);
        // x = 1, 1, 4:  x̄ = 1, 1, 2;  x − x̄ − δ = −0.5, −0.5, 1.5;  m = −0.5, −1, 0.5;  M = −0.5, −1, −1.
        ph.update(1);
        assertEquals(0.0, ph.statistic(), EXACT);
        ph.update(1);
        assertEquals(0.0, ph.statistic(), EXACT);
        ph.update(4);
        assertEquals(1.5, ph.statistic(), EXACT);
    }

    @Test
    void firesWhenTheStatisticExceedsLambdaThenStartsAfresh() {
        PageHinkley ph = new PageHinkley(0, 2.9, 1);
        // x = 0, 0, 0, 4: x̄_4 = 1, m_4 = 3 > 2.9 with M = 0.
        assertFalse(ph.update(0));
        assertFalse(ph.update(0));
        assertFalse(ph.update(0));
        assertTrue(ph.update(4));
        assertEquals(0, ph.count());
        assertEquals(0.0, ph.statistic(), EXACT);
    }

    @Test
    void noAlarmBeforeMinInstances() {
        PageHinkley ph = new PageHinkley(0, 0.1, 3);
        assertFalse(ph.update(0));
        assertFalse(ph.update(10)); // m − M = 5 > 0.1, but only 2 values
        assertTrue(ph.update(10));
    }

    @Test
    void noAlarmOnAStationaryStreamOf100000LogLosses() {
        for (long seed : new long[] {1, 2, 3}) {
            List<Integer> alarms = alarms(logLosses(100_000, seed, -1));
            assertTrue(alarms.isEmpty(), "seed " + seed + ": false alarms at " + alarms);
        }
    }

    @Test
    void firesSoonAfterTheLabelsSwap() {
        int change = 5_000;
        /* The log-loss mean goes from about 0.32 to about 2.3 nats: the expected delay is about λ/(2.3 − 0.32 − δ),
           27 events; 100 leaves room for the noise. */
        int maxDelay = 100;
        for (long seed : new long[] {11, 12, 13}) {
            List<Integer> alarms = alarms(logLosses(10_000, seed, change));
            assertFalse(alarms.isEmpty(), "seed " + seed + ": no alarm");
            assertTrue(alarms.get(0) >= change, "seed " + seed + ": false alarm at " + alarms.get(0));
            assertTrue(alarms.get(0) - change <= maxDelay, "seed " + seed + ": delay " + (alarms.get(0) - change));
        }
    }

    @Test
    void refusesBadParametersAndValues() {
        assertThrows(IllegalArgumentException.class, () -> new PageHinkley(-1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PageHinkley(0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PageHinkley(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new PageHinkley(0, 1, 1).update(Double.NaN));
    }

    private static List<Integer> alarms(double[] xs) {
        PageHinkley ph = new PageHinkley(DELTA, LAMBDA, MIN_INSTANCES);
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < xs.length; i++) {
            if (ph.update(xs[i])) {
                at.add(i);
            }
        }
        return at;
    }

    /**
     * Log-losses of the Bayes classifier of two equally likely classes N(0, 1) and N(2, 1): p(1 | x) = σ(2x − 2).
     * From index {@code swapAt} on (if ≥ 0) the labels are swapped, so the same classifier is mostly wrong.
     */
    private static double[] logLosses(int n, long seed, int swapAt) {
        Random random = new Random(seed);
        double[] losses = new double[n];
        for (int i = 0; i < n; i++) {
            int y = random.nextBoolean() ? 1 : 0;
            double x = random.nextGaussian() + 2 * y;
            if (swapAt >= 0 && i >= swapAt) {
                y = 1 - y;
            }
            double p1 = 1 / (1 + Math.exp(-(2 * x - 2)));
            double p = y == 1 ? p1 : 1 - p1;
            losses[i] = -Math.log(Math.max(p, 1e-15));
        }
        return losses;
    }
}
