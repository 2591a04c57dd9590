package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.math.CovarianceType;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End to end through the topology: a model published the way the trainer publishes it (MLE covariance from
 * running statistics), scored with each covariance type and estimator, against the posteriors of the
 * independent numpy script src/test/resources/fixtures/make_golden.py (iris_golden.json).
 */
class ScoringGoldenTest {

    /** The golden values are float64 numpy results; both sides carry round-off of a few ulps of the log terms. */
    private static final double GOLDEN_TOLERANCE = 1e-10;

    @TempDir
    Path stateDir;

    static Stream<Arguments> cases() {
        try (InputStream in = ScoringGoldenTest.class.getResourceAsStream("/fixtures/iris_golden.json")) {
            JsonNode root = Json.mapper().readTree(in);
            List<Arguments> cases = new ArrayList<>();
            for (JsonNode c : root.get("cases")) {
                List<String> features = new ArrayList<>();
                c.get("features").forEach(f -> features.add(f.asText()));
                CovarianceType type = CovarianceType.valueOf(c.get("covarianceType").asText().toUpperCase(Locale.ROOT));
                Estimator estimator = Estimator.valueOf(c.get("estimator").asText().toUpperCase(Locale.ROOT));
                FitOptions options = new FitOptions(type, estimator, root.get("regParam").asDouble(),
                        root.get("varianceFloor").asDouble(), root.get("minCount").asLong());
                cases.add(Arguments.of(features.size() + " features " + type + " " + estimator, features, options,
                        c.get("rows")));
            }
            return cases.stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<Arguments> smallerModelCases() {
        return cases().filter(c -> ((List<?>) c.get()[1]).size() < Iris.FEATURES.size());
    }

    private List<Prediction> score(List<String> modelFeatures, List<String> eventFeatures, FitOptions options,
                                   JsonNode rows, String name) {
        try (ScoringHarness h = new ScoringHarness(ScoringSettings.defaults(MODEL_ID).withFitOptions(options),
                stateDir.resolve(name))) {
            h.publish(ScoringFixtures.model(1, Iris.rows(), modelFeatures));
            for (JsonNode row : rows) {
                Map<String, Double> features = new LinkedHashMap<>();
                for (int i = 0; i < eventFeatures.size(); i++) {
                    features.put(eventFeatures.get(i), row.get("x").get(i).asDouble());
                }
                h.sendEvent("row-" + row.get("row").asInt(), null, features);
            }
            return h.predictions().stream().map(kv -> kv.value).toList();
        }
    }

    private static void assertGolden(JsonNode rows, List<Prediction> predictions) {
        assertEquals(rows.size(), predictions.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode golden = rows.get(i);
            Prediction p = predictions.get(i);
            String where = "row " + golden.get("row").asInt();
            assertEquals(Status.SCORED, p.status(), where);
            assertEquals(golden.get("probabilities").size(), p.probabilities().size(), where);
            String best = null;
            for (Map.Entry<String, JsonNode> e : golden.get("probabilities").properties()) {
                double expected = e.getValue().asDouble();
                assertEquals(expected, p.probabilities().get(e.getKey()), GOLDEN_TOLERANCE, where + " " + e.getKey());
                if (best == null || expected > golden.get("probabilities").get(best).asDouble()) {
                    best = e.getKey();
                }
            }
            assertEquals(best, p.label(), where);
            assertEquals(golden.get("logDensity").asDouble(), p.logDensity(), GOLDEN_TOLERANCE, where);
            assertEquals(1L, p.modelVersion(), where);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldMatchGoldenPosteriors(String name, List<String> features, FitOptions options, JsonNode rows) {
        assertGolden(rows, score(features, features, options, rows, "golden"));
    }

    /**
     * The two-feature golden cases come from models fitted on two features only; a four-feature model scoring
     * events that carry just those two features must give the same posteriors (the Gaussian marginal).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("smallerModelCases")
    void shouldMatchGoldenPosteriorsOfTheSmallerModelWhenFeaturesAreMissing(String name, List<String> features,
                                                                        FitOptions options, JsonNode rows) {
        assertGolden(rows, score(Iris.FEATURES, features, options, rows, "marginal"));
    }
}
