package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Categorical imputation through the scoring topology (TopologyTestDriver), on the hand fixture of
 * {@link ScoringCategoricalTest}: x ~ N(0, 1) in a and N(2, 1) in b, priors ½, colour counts a = (blue 1, red 3),
 * b = (blue 4, red 0); with α = 1, θ_a = (2/6, 4/6) and θ_b = (5/6, 1/6). A missing colour is imputed as
 * argmax_v Σ_k p(k | x_o) θ_kv: red when p(a | x_o)·(4/6 − 2/6) > p(b | x_o)·(5/6 − 1/6), i.e. p(a | x_o) > 2/3.
 */
class ScoringCategoricalImputeTest {

    private static final double CLOSE = 1e-12;

    @TempDir
    Path stateDir;

    private static ModelParameters model(long[] a, long[] b) {
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", 4, 0.5, new double[] {0}, new double[][] {{1}}),
                new ClassParameters("b", 4, 0.5, new double[] {2}, new double[][] {{1}}));
        return new ModelParameters("m", 1, List.of("x"), 8, classes, Map.of("0", 8L), "2026-01-01T00:00:00Z", "t",
                List.of(new CategoricalTable("colour", List.of("blue", "red"), List.of(a, b))));
    }

    private static ScoringSettings settings(List<String> categorical) {
        return ScoringSettings.defaults("m").withCategorical(CategoricalSettings.NONE.withFeatures(categorical));
    }

    private Prediction score(ScoringSettings settings, ModelParameters model, String event) {
        try (ScoringHarness harness = new ScoringHarness(settings, stateDir)) {
            harness.publish(model);
            harness.send("k", event.getBytes(StandardCharsets.UTF_8));
            var predictions = harness.predictions();
            assertEquals(1, predictions.size());
            assertEquals(Prediction.Status.SCORED, predictions.get(0).value.status(), predictions.get(0).value.reason());
            return predictions.get(0).value;
        }
    }

    private Prediction score(String event) {
        return score(settings(List.of("colour")), model(new long[] {1, 3}, new long[] {4, 0}), event);
    }

    @Test
    void shouldImputeTheValueMostProbableUnderThePosteriorOfTheObservedFeatures() {
        // x = 1: equal Gaussian factors, p(a) = ½; blue 7/12 against red 5/12.
        Prediction middle = score("{\"features\":{\"x\":1}}");
        assertEquals(0.5, middle.probabilities().get("a"), CLOSE);
        assertEquals(Map.of("colour", "blue"), middle.imputedCategories());
        assertNull(middle.imputed(), "no continuous feature is missing");
        assertNull(middle.unseenValues());
        // x = −2: log N ratio a/b = −2 + 8 = 6, p(a) = 1/(1 + e^−6) = 0.9975 > 2/3: red.
        Prediction nearA = score("{\"features\":{\"x\":-2}}");
        assertEquals(1 / (1 + Math.exp(-6)), nearA.probabilities().get("a"), CLOSE);
        assertEquals(Map.of("colour", "red"), nearA.imputedCategories());
    }

    /** A value never seen in training is marginalised, named in unseenValues and imputed like a missing one. */
    @Test
    void shouldImputeAnUnseenValueAndStillNameIt() {
        Prediction p = score("{\"features\":{\"x\":-2,\"colour\":\"green\"}}");
        assertEquals(Map.of("colour", "green"), p.unseenValues());
        assertEquals(Map.of("colour", "red"), p.imputedCategories());
    }

    /**
     * With the colour observed, the continuous conditional mean is weighted by the posterior that includes it:
     * x missing, colour red → p(a) = 0.8 (ScoringCategoricalTest), E[x | red] = 0.8·0 + 0.2·2 = 0.4.
     */
    @Test
    void shouldWeightTheContinuousMeanByThePosteriorOfTheObservedCategory() {
        Prediction p = score("{\"features\":{\"colour\":\"red\"}}");
        assertEquals(0.8, p.probabilities().get("a"), CLOSE);
        assertEquals(0.4, p.imputed().get("x"), CLOSE);
        assertNull(p.imputedCategories());
        Prediction blue = score("{\"features\":{\"colour\":\"blue\"}}");
        // p(a) = (2/6)/(2/6 + 5/6) = 2/7: E[x] = (5/7)·2.
        assertEquals(10.0 / 7.0, blue.imputed().get("x"), CLOSE);
    }

    /** Equal mass (both classes' θ = (½, ½), exactly): the first value of the vocabulary, "blue". */
    @Test
    void shouldBreakATieByTheVocabularyOrder() {
        Prediction p = score(settings(List.of("colour")), model(new long[] {2, 2}, new long[] {2, 2}),
                "{\"features\":{\"x\":0.3}}");
        assertEquals(Map.of("colour", "blue"), p.imputedCategories());
    }

    @Test
    void shouldWriteTheImputedValuesAsTextBesideTheNumbers() throws Exception {
        Prediction p = score("{\"features\":{\"colour\":\"green\"}}");
        // Nothing usable observed (green is unseen): the priors, E[x] = 1, and blue (7/12).
        String json = Json.mapper().writeValueAsString(p);
        assertEquals(true, json.contains("\"imputed\":{\"x\":1.0}"), json);
        assertEquals(true, json.contains("\"imputedCategories\":{\"colour\":\"blue\"}"), json);
        assertEquals(false, json.contains("otherImputedCategories"), json);
    }

    /** A model of 20 categorical features, none given: the first 8 in model order are imputed, 12 counted. */
    @Test
    void shouldListAtMostEightImputedCategories() {
        List<CategoricalTable> tables = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int j = 0; j < 20; j++) {
            tables.add(new CategoricalTable("c" + j, List.of("u", "v"), List.of(new long[] {1, 3}, new long[] {3, 1})));
            names.add("c" + j);
        }
        ModelParameters wide = model(new long[] {1, 3}, new long[] {4, 0}).withCategorical(tables);
        Prediction p = score(settings(names), wide, "{\"features\":{\"x\":-2,\"c0\":\"new\"}}");
        assertEquals(CompiledCategories.MAX_IMPUTED_LISTED, p.imputedCategories().size(), p.toString());
        assertEquals(names.subList(0, CompiledCategories.MAX_IMPUTED_LISTED), List.copyOf(p.imputedCategories().keySet()));
        assertEquals(20 - CompiledCategories.MAX_IMPUTED_LISTED, p.otherImputedCategories());
        // p(a) ≈ 0.9975 and θ_a = (2/6, 4/6): every one is v.
        p.imputedCategories().values().forEach(v -> assertEquals("v", v));
        assertEquals(Map.of("c0", "new"), p.unseenValues());
    }
}
