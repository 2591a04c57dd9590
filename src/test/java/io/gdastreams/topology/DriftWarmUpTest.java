package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link DriftWarmUp} on hand-made models: the event count, gda.min.count per class, and weighted classes. */
class DriftWarmUpTest {

    private static final DriftWarmUp WARM_UP = new DriftWarmUp(200, 2);

    private static ClassParameters plain(String label, long count) {
        return new ClassParameters(label, count, 0.5, new double[] {0}, new double[][] {{1}});
    }

    private static ModelParameters model(List<ClassParameters> classes) {
        long total = classes.stream().mapToLong(ClassParameters::count).sum();
        return new ModelParameters("m", 1, List.of("x"), total, classes, Map.of("0", total), "2026-01-01T00:00:00Z");
    }

    @Test
    void aModelFeedsTheTestFromTheWarmUpsEventCountOn() {
        assertFalse(WARM_UP.mature(model(List.of(plain("a", 100), plain("b", 99)))), "199 events");
        assertTrue(WARM_UP.mature(model(List.of(plain("a", 100), plain("b", 100)))), "200 events");
    }

    @Test
    void everyClassNeedsTheMinimumCount() {
        assertFalse(WARM_UP.mature(model(List.of(plain("a", 500), plain("b", 1)))), "b has 1 < 2 events");
        assertTrue(WARM_UP.mature(model(List.of(plain("a", 500), plain("b", 2)))));
        assertFalse(WARM_UP.mature(model(List.of())), "no class");
    }

    @Test
    void aWeightedClassIsJudgedByItsEffectiveSampleSizeAsTheScorerJudgesIt() {
        // 300 events whose weights decayed: W = 3, Kish's W²/V = 1.5 < 2 (the scorer leaves the class out).
        ClassParameters decayed = new ClassParameters("b", 300, 0.01, new double[] {0}, new double[][] {{1}}, 3.0,
                1.5);
        ClassParameters enough = new ClassParameters("b", 300, 0.01, new double[] {0}, new double[][] {{1}}, 3.0,
                2.0);
        assertFalse(WARM_UP.mature(model(List.of(plain("a", 300), decayed))));
        assertTrue(WARM_UP.mature(model(List.of(plain("a", 300), enough))));
    }

    /**
     * Two equal decayed events have W²/V = 1.9999999999999996: the scorer scores the class at gda.min.count = 2
     * (its rounding aside), and so the warm-up and the reset gate count it as there, the one test of the minimum
     * (ClassSummary.reaches); a class clearly below still waits.
     */
    @Test
    void theRoundingOfAnEffectiveSampleSizeIsJudgedAsTheScorerJudgesIt() {
        ClassParameters rounded = new ClassParameters("b", 300, 0.01, new double[] {0}, new double[][] {{1}}, 3.0,
                1.9999999999999996);
        ClassParameters below = new ClassParameters("b", 300, 0.01, new double[] {0}, new double[][] {{1}}, 3.0,
                1.999);
        assertTrue(WARM_UP.mature(model(List.of(plain("a", 300), rounded))));
        assertFalse(WARM_UP.mature(model(List.of(plain("a", 300), below))));
        ResetGate gate = new ResetGate("m", 2);
        ModelParameters generationOne = model(List.of(plain("a", 300), rounded)).withReset(1, 0);
        assertNull(gate.holdReason(generationOne, null));
        assertTrue(gate.holdReason(model(List.of(plain("a", 300), below)).withReset(1, 0), null)
                .contains("classes {b=1.999} (effective sample sizes) are below gda.min.count = 2"));
    }

    @Test
    void refusesAWarmUpBelowOneEvent() {
        assertThrows(IllegalArgumentException.class, () -> new DriftWarmUp(0, 2));
        assertThrows(IllegalArgumentException.class, () -> new DriftWarmUp(1, 0));
    }
}
