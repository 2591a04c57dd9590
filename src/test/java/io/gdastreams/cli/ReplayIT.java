package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code gda-streams replay} end to end on a real broker: the posteriors it writes match the numpy golden values
 * of the math fixtures (src/test/resources/fixtures/make_golden.py), rows with missing values get the marginal
 * posteriors, and a malformed training row is reported by line while the model is built from the others. Each
 * replay on the shared broker creates its own topics (suffix -replay-&lt;random&gt;).
 */
@ExtendWith(KafkaBrokerExtension.class)
class ReplayIT {

    /** Posteriors and log densities go through JSON and two fits; golden values are float64 numpy. */
    private static final double POSTERIOR_TOLERANCE = 1e-9;
    private static final double LOG_DENSITY_TOLERANCE = 1e-9;
    private static final List<String> FEATURES = List.of("sepal_length", "sepal_width", "petal_length",
            "petal_width");

    private static String bootstrapServers;
    private static JsonNode golden;
    private static List<String> irisLines;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp(KafkaBroker broker) throws IOException {
        bootstrapServers = broker.bootstrapServers();
        golden = Json.mapper().readTree(Files.readAllBytes(Path.of("src/test/resources/fixtures/iris_golden.json")));
        try (InputStream in = ReplayIT.class.getResourceAsStream(DemoCommand.IRIS)) {
            irisLines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private record Run(int code, String out, String err, List<JsonNode> predictions, JsonNode model) {
    }

    private Run replay(Path train, Path score, String... extra) throws IOException {
        Path output = dir.resolve("predictions.jsonl");
        Path model = dir.resolve("model.json");
        List<String> args = new ArrayList<>(List.of("replay", "--train", train.toString(), "--score",
                score.toString(), "--label", "species", "--output", output.toString(), "--model-output",
                model.toString(), "--bootstrap-servers", bootstrapServers));
        args.addAll(List.of(extra));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        List<JsonNode> predictions = new ArrayList<>();
        for (String line : Files.readAllLines(output, StandardCharsets.UTF_8)) {
            predictions.add(Json.mapper().readTree(line));
        }
        return new Run(code, out.toString(), err.toString(), predictions, Json.mapper().readTree(model.toFile()));
    }

    private Path write(String name, List<String> lines) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    private static JsonNode goldenCase(int featureCount, String covariance, String estimator) {
        for (JsonNode c : golden.get("cases")) {
            if (c.get("features").size() == featureCount && c.get("covarianceType").asText().equals(covariance)
                    && c.get("estimator").asText().equals(estimator)) {
                return c;
            }
        }
        throw new AssertionError("no golden case " + featureCount + "/" + covariance + "/" + estimator);
    }

    private static void assertMatchesGolden(JsonNode expectedRow, JsonNode prediction, String context) {
        assertEquals("scored", prediction.get("status").asText(), context + ": " + prediction);
        JsonNode expected = expectedRow.get("probabilities");
        JsonNode actual = prediction.get("probabilities");
        assertEquals(expected.size(), actual.size(), context);
        for (Iterator<String> it = expected.fieldNames(); it.hasNext(); ) {
            String label = it.next();
            assertEquals(expected.get(label).asDouble(), actual.get(label).asDouble(), POSTERIOR_TOLERANCE,
                    context + " p(" + label + ")");
        }
        assertEquals(expectedRow.get("logDensity").asDouble(), prediction.get("logDensity").asDouble(),
                LOG_DENSITY_TOLERANCE, context + " logDensity");
    }

    @ParameterizedTest(name = "{0}/{1}")
    @CsvSource({"full,mle", "full,unbiased", "tied,mle", "tied,unbiased", "diag,mle", "diag,unbiased"})
    void shouldWriteGoldenPosteriorsForEveryScorerVariant(String covariance, String estimator) throws IOException {
        Path iris = write("iris.csv", irisLines);
        Run run = replay(iris, iris, "--covariance", covariance, "--estimator", estimator);
        JsonNode expected = goldenCase(4, covariance, estimator);
        assertEquals(150, run.predictions().size());
        for (int i = 0; i < 150; i++) {
            JsonNode prediction = run.predictions().get(i);
            assertEquals(Integer.toString(i + 1), prediction.get("id").asText(), "file order");
            assertMatchesGolden(expected.get("rows").get(i), prediction, covariance + "/" + estimator + " row " + i);
        }
        assertEquals(150, run.model().get("totalCount").asLong());
        long correct = countCorrect(expected);
        assertTrue(run.out().contains("accuracy: " + correct + "/150"), run.out());
    }

    /**
     * Before: replay read only --config, and ignored its --set options. They reach both topologies now, below
     * the dedicated options (--estimator wins over --set gda.estimator).
     */
    @Test
    void shouldApplySetOptionsToTrainingAndScoringBelowTheDedicatedOptions() throws IOException {
        Path iris = write("iris.csv", irisLines);
        Run run = replay(iris, iris, "--set", "gda.model.id=from-set", "--set", "gda.covariance=diag",
                "--set", "gda.estimator=unbiased", "--estimator", "mle");
        assertEquals("from-set", run.model().get("modelId").asText());
        JsonNode expected = goldenCase(4, "diag", "mle");
        assertEquals(150, run.predictions().size());
        for (int i = 0; i < 150; i++) {
            assertMatchesGolden(expected.get("rows").get(i), run.predictions().get(i), "diag/mle row " + i);
        }
    }

    private static long countCorrect(JsonNode goldenCase) {
        long correct = 0;
        for (JsonNode row : goldenCase.get("rows")) {
            String best = null;
            double bestP = -1;
            for (Map.Entry<String, JsonNode> e : row.get("probabilities").properties()) {
                if (e.getValue().asDouble() > bestP) {
                    bestP = e.getValue().asDouble();
                    best = e.getKey();
                }
            }
            if (row.get("label").asText().equals(best)) {
                correct++;
            }
        }
        return correct;
    }

    @Test
    void shouldMarginaliseMissingFeaturesOfScoringRows() throws IOException {
        Path train = write("train.csv", irisLines);
        List<String> scoreLines = new ArrayList<>();
        scoreLines.add("id," + irisLines.get(0));
        for (int i = 1; i < irisLines.size(); i++) {
            String[] cells = irisLines.get(i).split(",");
            if (i % 3 == 0) {
                // petal_length and petal_width missing: the posterior of the first two features' Gaussians.
                cells[2] = "";
                cells[3] = "";
            }
            scoreLines.add("r" + i + "," + String.join(",", cells));
        }
        Path score = write("score.csv", scoreLines);
        Run run = replay(train, score, "--id", "id", "--covariance", "full", "--estimator", "mle");
        JsonNode full = goldenCase(4, "full", "mle");
        JsonNode marginal = goldenCase(2, "full", "mle");
        assertEquals(150, run.predictions().size());
        for (int i = 0; i < 150; i++) {
            JsonNode prediction = run.predictions().get(i);
            assertEquals("r" + (i + 1), prediction.get("id").asText());
            JsonNode expected = ((i + 1) % 3 == 0 ? marginal : full).get("rows").get(i);
            assertMatchesGolden(expected, prediction, "row " + i);
        }
    }

    @Test
    void shouldReportMalformedTrainingRowsByLineAndBuildModelFromTheRest() throws IOException {
        List<String> lines = new ArrayList<>(irisLines);
        // Line numbers in the file: header = 1, so index k is line k + 1.
        lines.add(10, "5.0,,1.4,0.2,setosa");
        lines.add(60, "6.1,2.8,abc,1.3,versicolor");
        lines.add(120, "6.3,2.8,5.1,1.5,");
        Path train = write("train.csv", lines);
        Path score = write("score.csv", irisLines);
        Run run = replay(train, score, "--features", String.join(",", FEATURES));
        assertTrue(run.out().contains("3 training row(s) rejected"), run.out());
        assertTrue(run.out().contains("  line 11: "), run.out());
        assertTrue(run.out().contains("  line 61: "), run.out());
        assertTrue(run.out().contains("  line 121: "), run.out());
        assertEquals(150, run.model().get("totalCount").asLong());
        JsonNode expected = goldenCase(4, "full", "mle");
        for (int i = 0; i < 150; i++) {
            assertMatchesGolden(expected.get("rows").get(i), run.predictions().get(i), "row " + i);
        }
        assertTrue(run.out().contains("accuracy: 147/150"), run.out());
    }

    @Test
    void shouldListTheFirstRejectedRowsAndCountTheRest() throws IOException {
        List<String> lines = new ArrayList<>(irisLines);
        int bad = 25;
        for (int k = 0; k < bad; k++) {
            lines.add("5.0,,1.4,0.2,setosa"); // lines 152..176: a missing feature in a training row
        }
        Path train = write("train.csv", lines);
        Path score = write("score.csv", irisLines);
        Run run = replay(train, score, "--features", String.join(",", FEATURES));
        assertTrue(run.out().contains(bad + " training row(s) rejected"), run.out());
        long listed = run.out().lines().filter(l -> l.startsWith("  line ")).count();
        assertEquals(20, listed, run.out());
        assertTrue(run.out().contains("  ... and 5 more, not listed"), run.out());
        assertEquals(150, run.model().get("totalCount").asLong());
        // The rejected rows end the file: the version whose lineage passes them follows the one that absorbed the
        // rest, and it is the one the report names and every row was scored with.
        long lineage = 0;
        for (JsonNode next : run.model().get("sources")) {
            lineage += next.asLong();
        }
        assertEquals(150 + bad, lineage, "the model's lineage reaches every row sent");
        long version = run.model().get("version").asLong();
        assertTrue(run.out().contains("version " + version + ": 150 events"), run.out());
        for (JsonNode prediction : run.predictions()) {
            assertEquals(version, prediction.get("modelVersion").asLong(), prediction.toString());
        }
    }
}
