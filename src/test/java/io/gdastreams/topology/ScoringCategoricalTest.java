package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scorer with a Gaussian–categorical model (TopologyTestDriver), on a hand fixture: one continuous feature x,
 * classes a ~ N(0, 1) and b ~ N(2, 1) with 4 events each, and colour counts a = (blue 1, red 3), b = (blue 4,
 * red 0). At x = 1 the Gaussian factors are equal, so the posterior is the ratio of the θ: with α = 1,
 * θ_a(red) = 4/6, θ_b(red) = 1/6 → p(a) = 0.8; with α = 0, θ_b(red) = 0 → p(a) = 1 exactly.
 */
class ScoringCategoricalTest {

    private static final double CLOSE = 1e-12;
    private static final double LOG_N_1 = -0.5 * (Math.log(2 * Math.PI) + 1); // log N(1; 0, 1) = log N(1; 2, 1)

    @TempDir
    Path stateDir;

    private static ModelParameters model() {
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", 4, 0.5, new double[] {0}, new double[][] {{1}}),
                new ClassParameters("b", 4, 0.5, new double[] {2}, new double[][] {{1}}));
        return new ModelParameters("m", 1, List.of("x"), 8, classes, Map.of("0", 8L), "2026-01-01T00:00:00Z", "t",
                List.of(new CategoricalTable("colour", List.of("blue", "red"),
                        List.of(new long[] {1, 3}, new long[] {4, 0}))));
    }

    private static ScoringSettings settings(double alpha) {
        return ScoringSettings.defaults("m").withCategorical(CategoricalSettings.NONE
                .withFeatures(List.of("colour")).withAlpha(alpha));
    }

    private Prediction score(ScoringSettings settings, String event) {
        try (ScoringHarness harness = new ScoringHarness(settings, stateDir)) {
            harness.publish(model());
            harness.send("k", event.getBytes(StandardCharsets.UTF_8));
            var predictions = harness.predictions();
            assertEquals(1, predictions.size());
            return predictions.get(0).value;
        }
    }

    @Test
    void shouldMultiplyInTheSmoothedCategoryProbability() {
        Prediction p = score(settings(1.0), "{\"features\":{\"x\":1,\"colour\":\"red\"}}");
        assertEquals(Prediction.Status.SCORED, p.status(), p.reason());
        assertEquals("a", p.label());
        assertEquals(0.8, p.probabilities().get("a"), CLOSE);
        assertEquals(0.2, p.probabilities().get("b"), CLOSE);
        assertEquals(Math.log(0.5) + LOG_N_1 + Math.log(4.0 / 6 + 1.0 / 6), p.logDensity(), CLOSE);
        assertNull(p.unseenValues());
    }

    @Test
    void shouldGiveAnUnseenPairProbabilityZeroUnderAlphaZero() {
        Prediction p = score(settings(0.0), "{\"features\":{\"x\":1,\"colour\":\"red\"}}");
        assertEquals(1.0, p.probabilities().get("a"));
        assertEquals(0.0, p.probabilities().get("b"));
        assertEquals(Math.log(0.5) + LOG_N_1 + Math.log(0.75), p.logDensity(), CLOSE);
    }

    @Test
    void shouldTreatAnUnseenValueAsMissingAndNameIt() {
        Prediction p = score(settings(1.0), "{\"features\":{\"x\":1,\"colour\":\"green\"}}");
        assertEquals(0.5, p.probabilities().get("a"), CLOSE);
        assertEquals(LOG_N_1, p.logDensity(), CLOSE);
        assertEquals(Map.of("colour", "green"), p.unseenValues());
        Prediction missing = score(settings(1.0), "{\"features\":{\"x\":1,\"colour\":null}}");
        assertEquals(0.5, missing.probabilities().get("a"), CLOSE);
        assertNull(missing.unseenValues());
    }

    @Test
    void shouldScoreTheCategoricalPartAloneWhenEveryContinuousFeatureIsMissing() {
        Prediction p = score(settings(1.0), "{\"features\":{\"colour\":\"blue\"}}");
        // 0.5·(2/6) against 0.5·(5/6).
        assertEquals(2.0 / 7.0, p.probabilities().get("a"), CLOSE);
        assertEquals(Math.log(0.5 * (2.0 / 6 + 5.0 / 6)), p.logDensity(), CLOSE);
    }

    @Test
    void shouldAnswerAMismatchOfFeatureTypesUnscored() {
        Prediction number = score(ScoringSettings.defaults("m"), "{\"features\":{\"x\":1,\"colour\":2}}");
        assertEquals(Prediction.Status.UNSCORED, number.status());
        assertEquals("invalid event: feature 'colour' is categorical in the model but the event gives a number",
                number.reason());
        Prediction category = score(ScoringSettings.defaults("m").withCategorical(CategoricalSettings.NONE
                .withFeatures(List.of("x", "colour"))), "{\"features\":{\"x\":\"1\",\"colour\":\"red\"}}");
        assertTrue(category.reason().startsWith("invalid event: feature 'x' is continuous in the model"),
                category.reason());
    }

    /** A model of 20 categorical features, an event with a value none of them saw: 16 are named. */
    @Test
    void shouldNameAtMostSixteenUnseenValues() {
        List<CategoricalTable> tables = new java.util.ArrayList<>();
        List<String> names = new java.util.ArrayList<>();
        StringBuilder event = new StringBuilder("{\"features\":{\"x\":1");
        for (int j = 0; j < 20; j++) {
            tables.add(new CategoricalTable("c" + j, List.of("v"), List.of(new long[] {4}, new long[] {4})));
            names.add("c" + j);
            event.append(",\"c").append(j).append("\":\"new\"");
        }
        event.append("}}");
        ModelParameters wide = model().withCategorical(tables);
        try (ScoringHarness harness = new ScoringHarness(ScoringSettings.defaults("m").withCategorical(
                CategoricalSettings.NONE.withFeatures(names)), stateDir)) {
            harness.publish(wide);
            harness.send("k", event.toString().getBytes(StandardCharsets.UTF_8));
            Prediction p = harness.predictions().get(0).value;
            assertEquals(CompiledCategories.MAX_UNSEEN_LISTED, p.unseenValues().size(), p.toString());
            assertEquals(0.5, p.probabilities().get("a"), CLOSE);
        }
    }

    /** An event held before the first model keeps its categorical values: it is decoded again when scored. */
    @Test
    void shouldScoreAHeldEventWithItsCategoricalValues() {
        try (ScoringHarness harness = new ScoringHarness(settings(1.0), stateDir)) {
            harness.send("k", "{\"features\":{\"x\":1,\"colour\":\"red\"}}".getBytes(StandardCharsets.UTF_8));
            assertTrue(harness.predictions().isEmpty(), "held");
            harness.publish(model());
            harness.advanceWallClock(java.time.Duration.ofSeconds(2));
            var predictions = harness.predictions();
            assertEquals(1, predictions.size());
            assertEquals(0.8, predictions.get(0).value.probabilities().get("a"), CLOSE);
        }
    }
}
