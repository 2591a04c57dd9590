package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelConversionTest {

    private static ModelParameters model(double[][] covariance) {
        return new ModelParameters("m", 1, List.of("a", "b"), 4,
                List.of(new ClassParameters("x", 4, 1.0, new double[] {1, 2}, covariance)), Map.of(),
                "2026-01-01T00:00:00Z");
    }

    @Test
    void shouldRecoverTheScatterAsCovarianceTimesCount() {
        ClassSummary x = ModelConversion.classSummaries(model(new double[][] {{2, 0.5}, {0.5, 1}})).get(0);
        assertEquals(4, x.count());
        assertArrayEquals(new double[] {8, 2}, x.scatter()[0], 0.0);
        assertArrayEquals(new double[] {2, 4}, x.scatter()[1], 0.0);
    }

    private static ModelParameters labelled(String label) {
        return new ModelParameters("m", 1, List.of("a"), 4,
                List.of(new ClassParameters(label, 4, 1.0, new double[] {1}, new double[][] {{1}})), Map.of(),
                "2026-01-01T00:00:00Z");
    }

    /** A foreign publisher's labels get the trainer's rules: the size bound of a prediction rests on them. */
    @Test
    void shouldRefuseAModelWhoseLabelsTheTrainerWouldHaveRefused() {
        assertEquals(1, ModelConversion.classSummaries(labelled("L".repeat(256))).size());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(labelled("L".repeat(257))));
        assertTrue(tooLong.getMessage().startsWith("model has an invalid class label: label too long: 257"
                + " characters > 256"), tooLong.getMessage());
        IllegalArgumentException surrogate = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(labelled("a\ud800")));
        assertEquals("model has an invalid class label: label is not valid Unicode: unpaired surrogate U+D800 at"
                + " index 1", surrogate.getMessage());
        IllegalArgumentException control = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(labelled("a\u0000b")));
        assertEquals("model has an invalid class label: label contains a control character (U+0000)",
                control.getMessage());
    }

    @Test
    void shouldRefuseAnAsymmetricCovariance() {
        // Cholesky reads one triangle only: this would silently be scored as correlation -0.5 instead of +0.5.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(model(new double[][] {{1, 0.5}, {-0.5, 1}})));
        assertTrue(e.getMessage().contains("not symmetric"), e.getMessage());
    }

    @Test
    void shouldRefuseANegativeVarianceAndTakeAZeroOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(model(new double[][] {{1, 0}, {0, -4}})));
        assertTrue(e.getMessage().endsWith("negative variance -4.0 of feature 1"), e.getMessage());
        assertEquals(1, ModelConversion.classSummaries(model(new double[][] {{1, 0}, {0, 0}})).size());
    }

    private static ModelParameters twoClasses(ClassParameters a, ClassParameters b) {
        return new ModelParameters("m", 1, List.of("x"), 4, List.of(a, b), Map.of(), "2026-01-01T00:00:00Z");
    }

    /**
     * The priors divide by the total count and weight: a forged model of effective counts 1e308 (finite, but V = W²/n_eff
     * and their sum are not) was scored with every prior 0 and probabilities summing to 0; counts summing past a
     * long wrapped.
     */
    @Test
    void shouldRefuseTotalsThePriorsCannotDivideBy() {
        double[][] one = {{1}};
        ClassParameters huge = new ClassParameters("a", 3, 0.5, new double[] {0}, one, 1e308, 3.0);
        ClassParameters hugeToo = new ClassParameters("b", 3, 0.5, new double[] {3}, one, 1e308, 3.0);
        IllegalArgumentException weights = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(twoClasses(huge, hugeToo)));
        assertTrue(weights.getMessage().endsWith("effectiveCount 1.0E308 is too large (its square overflows)"),
                weights.getMessage());
        IllegalArgumentException square = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(twoClasses(new ClassParameters("a", 3, 0.5, new double[] {0},
                        one, 1e200, 3.0), hugeToo)));
        assertTrue(square.getMessage().contains("too large"), square.getMessage());
        IllegalArgumentException counts = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(twoClasses(
                        new ClassParameters("a", 5_000_000_000_000_000_000L, 0.5, new double[] {0}, one),
                        new ClassParameters("b", 5_000_000_000_000_000_000L, 0.5, new double[] {3}, one))));
        assertTrue(counts.getMessage().contains("sum past 9223372036854775807"), counts.getMessage());
        // Large but summable: taken.
        assertEquals(2, ModelConversion.classSummaries(twoClasses(
                new ClassParameters("a", 3, 0.5, new double[] {0}, one, 1e150, 3.0),
                new ClassParameters("b", 3, 0.5, new double[] {3}, one, 1e150, 3.0))).size());
    }
}
