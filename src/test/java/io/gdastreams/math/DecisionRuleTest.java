package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The three decision rules on hand-computed posteriors, and the identities that tie them together. */
class DecisionRuleTest {

    private static final List<String> BINARY = List.of("No", "Yes");
    private static final List<String> THREE = List.of("a", "b", "c");
    private static final double EXACT = 0.0;
    private static final long SEED = 20261125L;

    @Test
    void shouldPickTheMostProbableClassFirstInModelOrderOnTies() {
        DecisionRule.Bound rule = new DecisionRule.MostProbable().bind(THREE);
        assertEquals(1, rule.choose(new double[] {0.2, 0.5, 0.3}));
        assertEquals(0, rule.choose(new double[] {0.4, 0.4, 0.2}));
        assertNull(rule.rule(), "the default rule is not stated");
        assertNull(rule.expectedCost(new double[] {0.2, 0.5, 0.3}, 1));
    }

    @Test
    void shouldPredictTheThresholdClassAtOrAboveItsThresholdAndTheBestOtherBelow() {
        DecisionRule.Bound rule = new DecisionRule.Threshold("Yes", 0.2).bind(BINARY);
        assertEquals(1, rule.choose(new double[] {0.8, 0.2}), "at the threshold");
        assertEquals(1, rule.choose(new double[] {0.75, 0.25}), "above it, though not the most probable");
        assertEquals(0, rule.choose(new double[] {0.81, 0.19}));
        assertEquals("threshold Yes:0.2", rule.rule());

        // Above 0.5 the rule can refuse the most probable class: c at 0.45 < 0.5 → the best of a and b.
        DecisionRule.Bound strict = new DecisionRule.Threshold("c", 0.5).bind(THREE);
        assertEquals(1, strict.choose(new double[] {0.2, 0.35, 0.45}));
        assertEquals(2, strict.choose(new double[] {0.2, 0.25, 0.55}));
    }

    @Test
    void shouldFallBackToTheArgmaxAndSaySoWhenTheModelDoesNotScoreTheThresholdClass() {
        DecisionRule.Bound rule = new DecisionRule.Threshold("Yes", 0.1).bind(THREE);
        assertEquals(2, rule.choose(new double[] {0.2, 0.3, 0.5}));
        assertEquals("most probable (threshold class 'Yes' is not scored by this model)", rule.rule());
    }

    @Test
    void shouldPredictTheClassOfMinimumExpectedCostByHand() {
        // C(a→b) = 4, C(b→c) = 2, C(c→a) = 3; others 0–1. p = (0.5, 0.3, 0.2):
        // E[predict a] = 0.3·1 + 0.2·3 = 0.9; E[predict b] = 0.5·4 + 0.2·1 = 2.2; E[predict c] = 0.5·1 + 0.3·2 = 1.1.
        DecisionRule.Bound rule = new DecisionRule.MinimumExpectedCost(Map.of(
                "a", Map.of("b", 4.0), "b", Map.of("c", 2.0), "c", Map.of("a", 3.0))).bind(THREE);
        double[] p = {0.5, 0.3, 0.2};
        assertEquals(0, rule.choose(p));
        assertEquals(0.9, rule.expectedCost(p, 0), 1e-15);
        assertEquals(2.2, rule.expectedCost(p, 1), 1e-15);
        assertEquals(1.1, rule.expectedCost(p, 2), 1e-15);
        // p = (0.2, 0.3, 0.5): E[a] = 0.3 + 1.5 = 1.8, E[b] = 0.8 + 0.5 = 1.3, E[c] = 0.2 + 0.6 = 0.8 → c.
        assertEquals(2, rule.choose(new double[] {0.2, 0.3, 0.5}));
        assertEquals("minimum expected cost", rule.rule());
    }

    @Test
    void shouldEqualTheArgmaxUnderZeroOneLoss() {
        DecisionRule.Bound costs = new DecisionRule.MinimumExpectedCost(Map.of("x", Map.of("y", 1.0)))
                .bind(THREE); // labels the model does not score are ignored: plain 0–1 loss
        DecisionRule.Bound argmax = new DecisionRule.MostProbable().bind(THREE);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 10_000; i++) {
            double[] p = posterior(random, 3);
            assertEquals(argmax.choose(p), costs.choose(p));
            assertEquals(1.0 - p[costs.choose(p)], costs.expectedCost(p, costs.choose(p)), 1e-15);
        }
    }

    @Test
    void shouldEqualAThresholdOfOneOverOnePlusTheCostRatioWithTwoClasses() {
        // Predict Yes iff C(No→Yes)·p(No) < C(Yes→No)·p(Yes), i.e. p(Yes) > 1 / (1 + c) for C(Yes→No) = c, C(No→Yes) = 1.
        double c = 4.0;
        DecisionRule.Bound costs = new DecisionRule.MinimumExpectedCost(Map.of("Yes", Map.of("No", c)))
                .bind(BINARY);
        DecisionRule.Bound threshold = new DecisionRule.Threshold("Yes", 1.0 / (1.0 + c)).bind(BINARY);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 10_000; i++) {
            double[] p = posterior(random, 2);
            if (Math.abs(p[1] - 1.0 / (1.0 + c)) > 1e-12) {
                assertEquals(threshold.choose(p), costs.choose(p), () -> "p(Yes) = " + p[1]);
            }
        }
    }

    @Test
    void shouldRefuseInvalidRules() {
        assertThrows(IllegalArgumentException.class, () -> new DecisionRule.Threshold("Yes", 1.5));
        assertThrows(IllegalArgumentException.class, () -> new DecisionRule.Threshold("Yes", Double.NaN));
        assertThrows(IllegalArgumentException.class,
                () -> new DecisionRule.MinimumExpectedCost(Map.of("a", Map.of("b", -1.0))));
        assertThrows(IllegalArgumentException.class,
                () -> new DecisionRule.MinimumExpectedCost(Map.of("a", Map.of("b", Double.POSITIVE_INFINITY))));
    }

    private static double[] posterior(SplittableRandom random, int n) {
        double[] p = new double[n];
        double sum = 0.0;
        for (int k = 0; k < n; k++) {
            p[k] = -Math.log(1.0 - random.nextDouble()); // exponential draws normalised: uniform on the simplex
            sum += p[k];
        }
        for (int k = 0; k < n; k++) {
            p[k] /= sum;
        }
        return p;
    }

    /** The threshold class may be the first label: it is still the threshold rule, not the argmax. */
    @Test
    void shouldApplyAThresholdOnTheFirstClass() {
        DecisionRule.Bound rule = new DecisionRule.Threshold("No", 0.3).bind(BINARY);
        assertEquals("threshold No:0.3", rule.rule());
        assertEquals(0, rule.choose(new double[] {0.4, 0.6}), "0.4 ≥ 0.3 though not the most probable");
        assertEquals(1, rule.choose(new double[] {0.25, 0.75}));
    }

    /** The bounds of [0, 1] are thresholds: 0 always predicts the class, 1 only when it is certain. */
    @Test
    void shouldAcceptTheThresholdsZeroAndOne() {
        assertEquals(1, new DecisionRule.Threshold("Yes", 0.0).bind(BINARY).choose(new double[] {1.0, 0.0}));
        DecisionRule.Bound one = new DecisionRule.Threshold("Yes", 1.0).bind(BINARY);
        assertEquals(0, one.choose(new double[] {1e-9, 1 - 1e-9}));
        assertEquals(1, one.choose(new double[] {0.0, 1.0}));
    }

    /**
     * Equal expected costs go to the class first in model order: 0–1 loss at p = (½, ½) costs ½ either way; and a
     * cost of 0 off the diagonal (stated, not defaulted) is allowed: predicting Yes when the truth is No costs
     * nothing, so Yes (expected cost 0·p_No + 0·p_Yes = 0) beats No (p_Yes).
     */
    @Test
    void shouldBreakExpectedCostTiesTowardsTheFirstClassAndAcceptAZeroCost() {
        DecisionRule.Bound zeroOne = new DecisionRule.MinimumExpectedCost(Map.of()).bind(BINARY);
        assertEquals(0, zeroOne.choose(new double[] {0.5, 0.5}));
        assertEquals(0.5, zeroOne.expectedCost(new double[] {0.5, 0.5}, 0), EXACT);
        DecisionRule.Bound free = new DecisionRule.MinimumExpectedCost(Map.of("No", Map.of("Yes", 0.0)))
                .bind(BINARY);
        assertEquals(1, free.choose(new double[] {0.9, 0.1}));
        assertEquals(0.0, free.expectedCost(new double[] {0.9, 0.1}, 1), EXACT);
    }
}
