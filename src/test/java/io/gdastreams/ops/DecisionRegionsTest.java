package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's grid on a hand fixture: two classes with identity covariance and equal priors whose means differ
 * in a (0 and 2) and in c (+5 and −5). With c marginalised (exact for Gaussians) the two classes in the (a, b) plane
 * are N((0,0), I) and N((2,0), I): the boundary is a = 1, whatever c was. The frame is each mean ± 3σ, padded 4 %:
 * a ∈ [−3, 5] → [−3.32, 5.32], b ∈ [−3, 3] → [−3.24, 3.24]; ten cells of 0.864 put cell centres 0–4 below a = 1.
 */
class DecisionRegionsTest {

    private static final double EXACT = 1e-12;
    private static final double[][] IDENTITY = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    private static final ModelParameters MODEL = new ModelParameters("m", 7, List.of("a", "b", "c"), 20,
            List.of(new ClassParameters("left", 10, 0.5, new double[] {0, 0, 5}, IDENTITY, null, null),
                    new ClassParameters("right", 10, 0.5, new double[] {2, 0, -5}, IDENTITY, null, null)),
            Map.of(), "2026-11-25T12:00:00Z", "t", List.of());
    private static final FitOptions QDA = new FitOptions(CovarianceType.FULL, Estimator.MLE, 0, 1e-9, 2);
    private static final DecisionRegions.Fitted FITTED = DecisionRegions.fit(MODEL, QDA);
    private static final DecisionRule ARGMAX = new DecisionRule.MostProbable();

    @Test
    void shouldSplitThePlaneAtTheHandBoundaryWithTheOtherFeatureMarginalised() {
        Map<String, Object> body = DecisionRegions.of(MODEL, FITTED, ARGMAX, "a", "b", 10);
        assertEquals(List.of("left", "right"), body.get("labels"));
        assertEquals(-3.32, (double) body.get("xMin"), EXACT);
        assertEquals(5.32, (double) body.get("xMax"), EXACT);
        assertEquals(-3.24, (double) body.get("yMin"), EXACT);
        assertEquals(3.24, (double) body.get("yMax"), EXACT);
        assertEquals(List.of("c"), body.get("marginalised"));
        int[][] cells = (int[][]) body.get("cells");
        assertEquals(10, cells.length);
        for (int[] row : cells) {
            assertArrayEquals(new int[] {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, row);
        }
    }

    /**
     * The threshold rule moves the boundary where the scorer's predictions move: p(right | a) = 1/(1 + e^(2 − 2a))
     * here (log-odds (a² − (a − 2)²)/2), so "right at p ≥ 0.1" holds for a ≥ 1 + ln(0.1/0.9)/2 ≈ −0.0986: cell 4
     * (centre 0.568) turns right, cell 3 (centre −0.296) stays left. The answer states the rule.
     */
    @Test
    void shouldDrawTheRegionsOfTheScorersDecisionRule() {
        Map<String, Object> body = DecisionRegions.of(MODEL, FITTED, new DecisionRule.Threshold("right", 0.1), "a", "b",
                10);
        assertEquals("threshold right:0.1", body.get("decision"));
        for (int[] row : (int[][]) body.get("cells")) {
            assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, row);
        }
        // Predicting "left" costs 9 when the truth is "right": predict right when 9·p(right) > p(left), p > 0.1.
        Map<String, Object> costs = DecisionRegions.of(MODEL, FITTED, new DecisionRule.MinimumExpectedCost(
                Map.of("right", Map.of("left", 9.0))), "a", "b", 10);
        assertEquals("minimum expected cost", costs.get("decision"));
        for (int[] row : (int[][]) costs.get("cells")) {
            assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, row);
        }
        assertEquals(null, DecisionRegions.of(MODEL, FITTED, ARGMAX, "a", "b", 10).get("decision"));
    }

    @Test
    void shouldPutRowZeroAtTheTopOfTheYAxis() {
        int[][] cells = (int[][]) DecisionRegions.of(MODEL, FITTED, ARGMAX, "b", "a", 10).get("cells");
        for (int row = 0; row < 10; row++) {
            int expected = row < 5 ? 1 : 0; // a decreases downwards: the top half is a > 1, "right"
            for (int value : cells[row]) {
                assertEquals(expected, value, "row " + row);
            }
        }
    }

    @Test
    void shouldRefuseWhatItCannotDrawAndBoundTheGrid() {
        assertThrows(IllegalArgumentException.class, () -> DecisionRegions.of(MODEL, FITTED, ARGMAX, "a", "a", 10));
        assertThrows(IllegalArgumentException.class, () -> DecisionRegions.of(MODEL, FITTED, ARGMAX, "a", "z", 10));
        assertThrows(IllegalArgumentException.class, () -> DecisionRegions.of(MODEL, FITTED, ARGMAX, null, "b", 10));
        assertThrows(IllegalArgumentException.class, () -> DecisionRegions.of(MODEL, FITTED, ARGMAX, "a", "b", 1));
        assertThrows(IllegalArgumentException.class,
                () -> DecisionRegions.of(MODEL, FITTED, ARGMAX, "a", "b", DecisionRegions.MAX_CELLS + 1));
    }
}
