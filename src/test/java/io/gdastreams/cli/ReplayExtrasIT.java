package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Imputation and explanations on a real broker, through {@code gda-streams replay} (the live training and scoring
 * topologies): Iris trained, then Iris rows with cells blanked in every pattern of one, two and three missing
 * features scored with {@code --set gda.output.explain=true --set gda.outlier.p=...}; the imputed values, per-class
 * terms and tail probabilities in the predictions equal the numpy reference
 * (src/test/resources/fixtures/impute_explain/make_impute_explain.py) to 1e-9.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ReplayExtrasIT {

    /** numpy float64 against the predictions' JSON, absolute or relative to values above 1 in magnitude. */
    private static final double GOLDEN = 1e-9;
    private static final double OUTLIER_P = 0.05;
    private static final List<String> FEATURES = List.of("sepal_length", "sepal_width", "petal_length",
            "petal_width");
    private static final List<String> LABELS = List.of("setosa", "versicolor", "virginica");

    private static String bootstrapServers;
    private static JsonNode golden;
    private static List<String> irisLines;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp(KafkaBroker broker) throws IOException {
        bootstrapServers = broker.bootstrapServers();
        golden = Json.mapper().readTree(Files.readAllBytes(
                Path.of("src/test/resources/fixtures/impute_explain/impute_explain_golden.json")));
        try (InputStream in = ReplayExtrasIT.class.getResourceAsStream(DemoCommand.IRIS)) {
            irisLines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private static JsonNode goldenCase(String covariance, String estimator, double regParam) {
        for (JsonNode c : golden.get("cases")) {
            if (c.get("covarianceType").asText().equals(covariance) && c.get("estimator").asText().equals(estimator)
                    && c.get("regParam").asDouble() == regParam) {
                return c;
            }
        }
        throw new AssertionError("no golden case " + covariance + "/" + estimator + "/" + regParam);
    }

    private static void assertClose(double expected, JsonNode actual, String what) {
        assertTrue(actual != null && actual.isNumber(), what + ": " + actual);
        assertEquals(expected, actual.doubleValue(), GOLDEN * Math.max(1.0, Math.abs(expected)), what);
    }

    @ParameterizedTest(name = "{0}/{1}/r={2}")
    @CsvSource({"full,mle,0.0", "tied,unbiased,0.3", "diag,mle,0.3"})
    void shouldWriteTheReferenceImputationsAndExplanations(String covariance, String estimator, double regParam)
            throws IOException {
        JsonNode expected = goldenCase(covariance, estimator, regParam);
        List<JsonNode> points = new ArrayList<>();
        List<String> scoreLines = new ArrayList<>();
        scoreLines.add("id," + irisLines.get(0));
        for (JsonNode point : expected.get("points")) {
            int missing = point.get("missing").size();
            if (missing == 0 || missing == FEATURES.size()) {
                continue; // nothing to impute; an event needs one feature
            }
            String[] cells = irisLines.get(1 + point.get("row").asInt()).split(",");
            for (JsonNode j : point.get("missing")) {
                cells[j.asInt()] = "";
            }
            points.add(point);
            scoreLines.add("p" + points.size() + "," + String.join(",", cells));
        }
        assertEquals(10 * 14, points.size());
        Path train = dir.resolve("train.csv");
        Path score = dir.resolve("score.csv");
        Path output = dir.resolve("predictions.jsonl");
        Files.write(train, irisLines, StandardCharsets.UTF_8);
        Files.write(score, scoreLines, StandardCharsets.UTF_8);
        String[] args = {"replay", "--train", train.toString(), "--score", score.toString(), "--label", "species",
            "--id", "id", "--output", output.toString(), "--bootstrap-servers", bootstrapServers,
            "--covariance", covariance, "--estimator", estimator, "--set", "gda.reg.param=" + regParam,
            "--set", "gda.output.explain=true", "--set", "gda.outlier.p=" + OUTLIER_P};
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        assertEquals(points.size(), lines.size());
        int flagged = 0;
        for (int i = 0; i < points.size(); i++) {
            JsonNode point = points.get(i);
            JsonNode p = Json.mapper().readTree(lines.get(i));
            String where = covariance + "/" + estimator + "/r=" + regParam + " row " + point.get("row").asInt()
                    + " missing " + point.get("missing");
            assertEquals("p" + (i + 1), p.get("id").asText(), where);
            assertEquals("scored", p.get("status").asText(), where + ": " + p);
            assertClose(point.get("logDensity").doubleValue(), p.get("logDensity"), where + " logDensity");
            JsonNode imputed = p.get("imputed");
            assertEquals(point.get("missing").size(), imputed.size(), where + ": " + imputed);
            point.get("imputed").fields().forEachRemaining(e -> assertClose(e.getValue().doubleValue(),
                    imputed.get(FEATURES.get(Integer.parseInt(e.getKey()))), where + " imputed " + e.getKey()));
            assertNull(p.get("otherImputed"), where);
            JsonNode explanation = p.get("explanation");
            assertEquals(FEATURES.size() - point.get("missing").size(), explanation.get("observedFeatures").asInt(),
                    where);
            for (int k = 0; k < LABELS.size(); k++) {
                JsonNode terms = explanation.get("classes").get(LABELS.get(k));
                assertClose(point.get("logPriors").get(k).doubleValue(), terms.get("logPrior"), where);
                assertClose(point.get("logLikelihoods").get(k).doubleValue(), terms.get("logLikelihood"), where);
                assertClose(point.get("mahalanobis").get(k).doubleValue(), terms.get("squaredMahalanobis"), where);
            }
            double tail = point.get("tailProbability").doubleValue();
            assertClose(tail, p.get("tailProbability"), where + " tailProbability");
            assertEquals(tail < OUTLIER_P, p.get("outlier").asBoolean(), where);
            if (tail < OUTLIER_P) {
                flagged++;
            }
        }
        System.out.printf("%s/%s/r=%s: %d predictions checked, %d flagged at p = %s%n", covariance, estimator,
                regParam, points.size(), flagged, OUTLIER_P);
        assertFalse(flagged == points.size(), "most Iris rows are typical of their class");
    }
}
