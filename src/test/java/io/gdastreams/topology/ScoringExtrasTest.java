package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Imputation, explanations and the probability outlier test through the scoring topology, against the numpy
 * reference src/test/resources/fixtures/impute_explain/make_impute_explain.py (impute_explain_golden.json): Iris
 * published the way the trainer publishes it, events with one, two or three features left out.
 */
class ScoringExtrasTest {

    /** numpy float64 against the scorer, absolute or relative to values above 1 in magnitude. */
    private static final double GOLDEN = 1e-9;
    private static final PredictionExtras EXPLAIN = new PredictionExtras(true, true, OptionalDouble.empty());
    private static final List<String> LABELS = List.of("setosa", "versicolor", "virginica");

    @TempDir
    Path stateDir;

    static Stream<Arguments> cases() {
        try (InputStream in = ScoringExtrasTest.class
                .getResourceAsStream("/fixtures/impute_explain/impute_explain_golden.json")) {
            JsonNode root = Json.mapper().readTree(in);
            List<Arguments> cases = new ArrayList<>();
            for (JsonNode c : root.get("cases")) {
                FitOptions options = FitOptions.defaults()
                        .withCovarianceType(CovarianceType.valueOf(c.get("covarianceType").asText()
                                .toUpperCase(Locale.ROOT)))
                        .withEstimator(Estimator.valueOf(c.get("estimator").asText().toUpperCase(Locale.ROOT)))
                        .withRegParam(c.get("regParam").asDouble())
                        .withVarianceFloor(root.get("varianceFloor").asDouble());
                cases.add(Arguments.of(c.get("covarianceType").asText() + " " + c.get("estimator").asText() + " r="
                        + c.get("regParam").asDouble(), options, c.get("points")));
            }
            assertEquals(12, cases.size());
            return cases.stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, GOLDEN * Math.max(1.0, Math.abs(expected)), what);
    }

    private static Map<String, Double> features(JsonNode x) {
        Map<String, Double> features = new LinkedHashMap<>();
        for (int j = 0; j < Iris.FEATURES.size(); j++) {
            if (!x.get(j).isNull()) {
                features.put(Iris.FEATURES.get(j), x.get(j).doubleValue());
            }
        }
        return features;
    }

    private ScoringHarness harness(ScoringSettings settings) {
        ScoringHarness harness = new ScoringHarness(settings, stateDir);
        harness.publish(ScoringFixtures.irisModel(1));
        return harness;
    }

    private static ScoringSettings settings(FitOptions options, PredictionExtras extras) {
        return ScoringSettings.defaults(MODEL_ID).withFitOptions(options).withExtras(extras);
    }

    private static Prediction scoreOne(ScoringHarness harness, Map<String, Double> features) {
        harness.sendEvent("k", "e", features);
        List<KeyValue<String, Prediction>> out = harness.predictions();
        assertEquals(1, out.size());
        return out.get(0).value;
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("cases")
    void shouldImputeAndExplainAsTheNumpyReference(String name, FitOptions options, JsonNode points) {
        int compared = 0;
        try (ScoringHarness harness = harness(settings(options, EXPLAIN))) {
            for (JsonNode point : points) {
                int missing = point.get("missing").size();
                if (missing == Iris.FEATURES.size()) {
                    continue; // an event needs one feature; the math test covers nothing observed
                }
                String where = name + " row " + point.get("row").asInt() + " missing " + point.get("missing");
                Prediction p = scoreOne(harness, features(point.get("x")));
                assertEquals(Status.SCORED, p.status(), where);
                assertClose(point.get("logDensity").doubleValue(), p.logDensity(), where);
                for (int k = 0; k < LABELS.size(); k++) {
                    assertClose(point.get("probabilities").get(k).doubleValue(), p.probabilities().get(LABELS.get(k)),
                            where);
                }
                if (missing == 0) {
                    assertNull(p.imputed(), where);
                } else {
                    assertEquals(missing, p.imputed().size(), where);
                    point.get("imputed").fields().forEachRemaining(e -> assertClose(e.getValue().doubleValue(),
                            p.imputed().get(Iris.FEATURES.get(Integer.parseInt(e.getKey()))), where + " imputed"));
                }
                assertNull(p.otherImputed(), where);
                assertEquals(Iris.FEATURES.size() - missing, p.explanation().observedFeatures(), where);
                assertEquals(LABELS, List.copyOf(p.explanation().classes().keySet()), where);
                for (int k = 0; k < LABELS.size(); k++) {
                    Prediction.ClassTerms terms = p.explanation().classes().get(LABELS.get(k));
                    assertClose(point.get("logPriors").get(k).doubleValue(), terms.logPrior(), where);
                    assertClose(point.get("logLikelihoods").get(k).doubleValue(), terms.logLikelihood(), where);
                    assertClose(point.get("mahalanobis").get(k).doubleValue(), terms.squaredMahalanobis(), where);
                }
                assertClose(point.get("tailProbability").doubleValue(), p.tailProbability(), where);
                assertNull(p.outlier(), "no outlier test configured");
                compared++;
            }
        }
        assertEquals(10 * 15, compared);
    }

    @Test
    void shouldImputeByDefaultOnlyWhenSomethingIsMissingAndNeverWhenTurnedOff() {
        Map<String, Double> partial = Map.of("sepal_length", 6.1, "petal_width", 1.4);
        Map<String, Double> complete = Map.of("sepal_length", 6.1, "sepal_width", 2.9, "petal_length", 4.7,
                "petal_width", 1.4);
        try (ScoringHarness harness = harness(ScoringSettings.defaults(MODEL_ID))) {
            Prediction p = scoreOne(harness, partial);
            assertEquals(List.of("sepal_width", "petal_length"), List.copyOf(p.imputed().keySet()), "model order");
            assertNull(p.explanation());
            assertNull(p.tailProbability());
            assertNull(scoreOne(harness, complete).imputed());
        }
        PredictionExtras off = new PredictionExtras(false, false, OptionalDouble.empty());
        try (ScoringHarness harness = harness(ScoringSettings.defaults(MODEL_ID).withExtras(off))) {
            assertNull(scoreOne(harness, partial).imputed());
        }
    }

    @Test
    void shouldExplainOnlyTheListedClasses() {
        try (ScoringHarness harness = harness(ScoringSettings.defaults(MODEL_ID).withExtras(EXPLAIN)
                .withOutputTopK(2))) {
            // A versicolor row: setosa is the least probable class and is neither listed nor explained.
            Prediction p = scoreOne(harness, Map.of("sepal_length", 5.9, "sepal_width", 3.0, "petal_length", 4.2,
                    "petal_width", 1.5));
            assertEquals(List.of("versicolor", "virginica"), List.copyOf(p.probabilities().keySet()));
            assertEquals(List.copyOf(p.probabilities().keySet()), List.copyOf(p.explanation().classes().keySet()));
            assertEquals(1, p.otherClasses());
        }
    }

    /**
     * A decision rule may predict a class outside the most probable ones: it is listed (TopClasses keeps it), and
     * explained, ahead of the others. At top-k 1 with "virginica at 0.2", the row (6.3, 2.8, 5.0, 1.6), of p = 0.66
     * versicolor and 0.34 virginica, lists and explains virginica alone (it explained versicolor, unlisted).
     */
    @Test
    void shouldExplainTheClassTheDecisionRulePredictsAsItIsListed() {
        try (ScoringHarness harness = harness(ScoringSettings.defaults(MODEL_ID).withExtras(EXPLAIN)
                .withOutputTopK(1).withDecisionRule(new DecisionRule.Threshold("virginica", 0.2)))) {
            Prediction p = scoreOne(harness, Map.of("sepal_length", 6.3, "sepal_width", 2.8, "petal_length", 5.0,
                    "petal_width", 1.6));
            assertEquals("virginica", p.label());
            assertEquals(List.of("virginica"), List.copyOf(p.probabilities().keySet()));
            double virginica = p.probabilities().get("virginica");
            assertTrue(virginica >= 0.2 && virginica < 0.5, "p(virginica) = " + virginica + ": not the argmax");
            assertEquals(List.of("virginica"), List.copyOf(p.explanation().classes().keySet()));
        }
    }

    /**
     * gda.outlier.p flags an event whose tail probability is below p; with gda.outlier.threshold set too, either
     * test flags it. Iris's own rows are typical (tail well above 1e-3); a flower 5 cm wider in the sepal is not.
     */
    @Test
    void shouldFlagByTailProbabilityAndByEitherTestWhenBothAreSet() {
        double p = 1e-3;
        Map<String, Double> typical = Map.of("sepal_length", 5.1, "sepal_width", 3.5, "petal_length", 1.4,
                "petal_width", 0.2);
        Map<String, Double> far = Map.of("sepal_length", 5.1, "sepal_width", 8.5, "petal_length", 1.4,
                "petal_width", 0.2);
        PredictionExtras byP = new PredictionExtras(true, false, OptionalDouble.of(p));
        try (ScoringHarness harness = harness(ScoringSettings.defaults(MODEL_ID).withExtras(byP))) {
            Prediction ok = scoreOne(harness, typical);
            assertTrue(ok.tailProbability() > p, "typical: " + ok.tailProbability());
            assertFalse(ok.outlier());
            assertNull(ok.explanation(), "the p test alone adds the tail probability, not the explanation");
            Prediction out = scoreOne(harness, far);
            assertTrue(out.tailProbability() < p, "far: " + out.tailProbability());
            assertTrue(out.outlier());
        }
        // A log-density threshold no event goes below: only the p test flags.
        try (ScoringHarness harness = harness(ScoringSettings.defaults(MODEL_ID).withExtras(byP)
                .withOutlierThreshold(-1e9))) {
            assertFalse(scoreOne(harness, typical).outlier());
            assertTrue(scoreOne(harness, far).outlier());
        }
        // A log-density threshold every event goes below: the density test flags the typical event too.
        try (ScoringHarness harness = harness(ScoringSettings.defaults(MODEL_ID).withExtras(byP)
                .withOutlierThreshold(1e9))) {
            Prediction flagged = scoreOne(harness, typical);
            assertTrue(flagged.tailProbability() > p);
            assertTrue(flagged.outlier());
        }
    }
}
