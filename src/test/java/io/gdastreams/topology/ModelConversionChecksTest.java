package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The edges of what the scorer takes from the model topic: what a trainer can publish (a class of count 0, of no
 * weight, a category weight of 0, triangles that differ by rounding at any scale) is taken; what it cannot (a
 * non-finite mean, a ragged covariance, an invalid category value, category counts that do not sum to the class's
 * count) is refused.
 */
class ModelConversionChecksTest {

    /** Relative rounding of V recovered as W²/n_eff from a float n_eff. */
    private static final double RECOVERY_TOLERANCE = 1e-12;
    private static final double[][] UNIT = {{1}};

    private static ModelParameters oneFeature(ClassParameters... classes) {
        return new ModelParameters("m", 1, List.of("x"), 4, List.of(classes), Map.of(), "2026-01-01T00:00:00Z");
    }

    @Test
    void shouldTakeAClassOfCountZero() {
        // Every event of a class retracted: count 0, a covariance of zeros.
        List<ClassSummary> s = ModelConversion.classSummaries(oneFeature(
                new ClassParameters("gone", 0, 0.0, new double[] {0}, new double[][] {{0}}),
                new ClassParameters("kept", 4, 1.0, new double[] {1}, UNIT)));
        assertEquals(List.of(0L, 4L), s.stream().map(ClassSummary::count).toList());
    }

    @Test
    void shouldTakeAWeightedClassOfNoWeightWithNoSquaredWeights() {
        // Forgetting decays a class's weight to 0: W = 0 and n_eff = 0, so V = 0 (excluded by the fit, not refused).
        List<ClassSummary> s = ModelConversion.classSummaries(oneFeature(
                new ClassParameters("faded", 2, 0.0, new double[] {0}, UNIT, 0.0, 0.0),
                new ClassParameters("live", 2, 1.0, new double[] {1}, UNIT, 2.0, 2.0)));
        assertEquals(0.0, s.get(0).weight());
        assertEquals(0.0, s.get(0).squaredWeights());
    }

    @Test
    void shouldRecoverTheSquaredWeightsFromKishsEffectiveSampleSize() {
        // Three events of weights 1, 2 and 3: W = 6, V = 1 + 4 + 9 = 14, and the model carries n_eff = W²/V.
        double[] weights = {1, 2, 3};
        double w = 0;
        double v = 0;
        for (double x : weights) {
            w += x;
            v += x * x;
        }
        ClassSummary s = ModelConversion.classSummaries(oneFeature(
                new ClassParameters("a", 3, 1.0, new double[] {0}, UNIT, w, w * w / v))).get(0);
        assertEquals(w, s.weight());
        assertEquals(v, s.squaredWeights(), v * RECOVERY_TOLERANCE);
    }

    @Test
    void shouldRefuseANonFiniteMeanAndARaggedCovariance() {
        ModelParameters nan = new ModelParameters("m", 1, List.of("x", "y"), 1,
                List.of(new ClassParameters("a", 1, 1.0, new double[] {0, Double.NaN},
                        new double[][] {{1, 0}, {0, 1}})),
                Map.of(), "2026-01-01T00:00:00Z");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(nan));
        assertTrue(e.getMessage().endsWith("non-finite mean"), e.getMessage());
        ModelParameters ragged = new ModelParameters("m", 1, List.of("x", "y"), 1,
                List.of(new ClassParameters("a", 1, 1.0, new double[] {0, 0}, new double[][] {{1, 0}, {0}})),
                Map.of(), "2026-01-01T00:00:00Z");
        IllegalArgumentException r = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.classSummaries(ragged));
        assertTrue(r.getMessage().endsWith("covariance must be 2 x 2"), r.getMessage());
    }

    @Test
    void shouldAverageTrianglesThatDifferByRoundingAtTheScaleOfTheVariances() {
        // Variances of 1e6: a difference of 1e-4 between the triangles is a relative 1e-10, rounding, not asymmetry.
        double upper = 5e5 + 1e-4;
        double lower = 5e5;
        ModelParameters model = new ModelParameters("m", 1, List.of("x", "y"), 1,
                List.of(new ClassParameters("a", 1, 1.0, new double[] {0, 0},
                        new double[][] {{1e6, upper}, {lower, 1e6}})), Map.of(), "2026-01-01T00:00:00Z");
        double[][] scatter = ModelConversion.classSummaries(model).get(0).scatter(); // count 1: scatter = covariance
        double average = (upper + lower) / 2;
        assertEquals(average, scatter[0][1]);
        assertEquals(average, scatter[1][0]);
    }

    private static ModelParameters colours(List<String> values, List<long[]> counts, List<double[]> weights) {
        return new ModelParameters("m", 1, List.of("x"), 4,
                List.of(new ClassParameters("a", 2, 0.5, new double[] {0}, UNIT),
                        new ClassParameters("b", 2, 0.5, new double[] {1}, UNIT)),
                Map.of(), "2026-01-01T00:00:00Z", "", List.of(new CategoricalTable("colour", values, counts, weights)));
    }

    @Test
    void shouldTakeACategoryWeightOfZero() {
        // A value seen once in a class and then forgotten keeps its count and has weight 0.
        ModelParameters model = colours(List.of("blue", "red"), List.of(new long[] {1, 1}, new long[] {2, 0}),
                List.of(new double[] {1, 0}, new double[] {1.5, 0}));
        assertEquals(1, ModelConversion.categoricalTables(model).size());
    }

    @Test
    void shouldRefuseACategoryValueTheDecoderWouldRefuse() {
        ModelParameters model = colours(List.of("blue", "r\u0000d"), List.of(new long[] {1, 1}, new long[] {2, 0}),
                null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.categoricalTables(model));
        assertTrue(e.getMessage().startsWith("categorical feature 'colour': invalid value: value contains a control"),
                e.getMessage());
    }

    @Test
    void shouldRefuseCategoryCountsThatDoNotSumToTheClassCount() {
        // Every training event has a value of every feature: class b's 2 events cannot have 3 values.
        ModelParameters model = colours(List.of("blue", "red"), List.of(new long[] {1, 1}, new long[] {2, 1}), null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelConversion.categoricalTables(model));
        assertTrue(e.getMessage().contains("the counts of class 'b' sum to 3, not its count 2"), e.getMessage());
    }
}
