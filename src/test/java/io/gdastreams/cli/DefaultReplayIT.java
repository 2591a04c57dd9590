package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gda-streams replay} with a categorical feature on a real broker: the credit-default data
 * (src/test/resources/fixtures/default, the shape of ISLR's Default) with {@code student} categorical beside
 * balance and income. With {@code --covariance diag --estimator unbiased} the posteriors equal e1071's
 * {@code naiveBayes(default ~ student + balance + income, laplace = α)} for α = 0 and 1
 * (make_naive_bayes_reference.R), and with {@code --covariance full} the numpy Gaussian–categorical reference
 * (make_gaussian_categorical_reference.py), to 1e-9. Where e1071 and gda-streams differ on purpose (an unseen
 * (class, value) pair at α = 0: e1071's predict substitutes 0.001, gda-streams gives 0): see
 * topology.DefaultCategoricalParityTest, which checks that case fast. Configuration goes in with {@code --set}.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DefaultReplayIT {

    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/default");
    private static final double TOLERANCE = 1e-9;

    private static String bootstrapServers;
    private static List<String> lines;
    private static JsonNode r;
    private static JsonNode numpy;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp(KafkaBroker broker) throws IOException {
        bootstrapServers = broker.bootstrapServers();
        lines = Files.readAllLines(FIXTURES.resolve("default.csv"), StandardCharsets.UTF_8);
        r = Json.mapper().readTree(FIXTURES.resolve("naive_bayes_reference.json").toFile());
        numpy = Json.mapper().readTree(FIXTURES.resolve("gaussian_categorical_reference.json").toFile());
    }

    private record Run(String out, List<JsonNode> predictions, JsonNode model) {
    }

    private Run replay(Path train, Path score, String... extra) throws IOException {
        Path output = dir.resolve("predictions.jsonl");
        Path model = dir.resolve("model.json");
        List<String> args = new ArrayList<>(List.of("replay", "--train", train.toString(), "--score",
                score.toString(), "--label", "default", "--output", output.toString(), "--model-output",
                model.toString(), "--bootstrap-servers", bootstrapServers, "--set", "gda.categorical.features=student"));
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
        return new Run(out.toString(), predictions, Json.mapper().readTree(model.toFile()));
    }

    /** Every tenth data row from the first (as the references score them), and a row of an unseen value. */
    private Path scoreFile() throws IOException {
        List<String> score = new ArrayList<>();
        score.add(lines.get(0));
        for (int i = 1; i < lines.size(); i += 10) {
            score.add(lines.get(i));
        }
        score.add("No,Maybe,800.0,30000.0");
        return Files.write(dir.resolve("score.csv"), score, StandardCharsets.UTF_8);
    }

    private static JsonNode referenceCase(JsonNode reference, String name) {
        for (JsonNode c : reference.get("cases")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no reference case " + name);
    }

    private static double assertMatches(Run run, JsonNode expected) {
        JsonNode rows = expected.get("rows");
        assertEquals(rows.size() + 1, run.predictions().size());
        assertEquals(expected.get("trainRows").asLong(), run.model().get("totalCount").asLong());
        double worst = 0;
        for (int i = 0; i < rows.size(); i++) {
            JsonNode prediction = run.predictions().get(i);
            JsonNode row = rows.get(i);
            assertEquals("scored", prediction.get("status").asText(), prediction.toString());
            for (String label : List.of("No", "Yes")) {
                double error = Math.abs(row.get("probabilities").get(label).asDouble()
                        - prediction.get("probabilities").get(label).asDouble());
                assertTrue(error <= TOLERANCE, "row " + row + ": " + prediction);
                worst = Math.max(worst, error);
            }
            double error = Math.abs(row.get("logDensity").asDouble() - prediction.get("logDensity").asDouble());
            assertTrue(error <= TOLERANCE, "row " + row + ": " + prediction);
            worst = Math.max(worst, error);
            assertTrue(prediction.get("unseenValues") == null, prediction.toString());
        }
        JsonNode unseen = run.predictions().get(rows.size());
        assertEquals("scored", unseen.get("status").asText(), unseen.toString());
        assertEquals("Maybe", unseen.get("unseenValues").get("student").asText(), unseen.toString());
        return worst;
    }

    @Test
    void shouldEqualE1071NaiveBayesWithLaplaceZeroAndOne() throws IOException {
        Path train = FIXTURES.resolve("default.csv");
        Path score = scoreFile();
        for (String alpha : List.of("0", "1")) {
            Run run = replay(train, score, "--covariance", "diag", "--estimator", "unbiased", "--set",
                    "gda.categorical.alpha=" + alpha);
            JsonNode model = run.model();
            assertEquals("[\"balance\",\"income\"]", model.get("features").toString());
            assertEquals("student", model.get("categorical").get(0).get("feature").asText());
            double worst = assertMatches(run, referenceCase(r, "all-laplace-" + alpha));
            System.out.printf("replay vs e1071 (laplace %s): largest error %.3g%n", alpha, worst);
        }
    }

    /**
     * Trained without the students who defaulted, at α = 0: p(student = Yes | default = Yes) = 0, so every scored
     * student gets p(Yes) = 0 and never NaN (e1071 made to agree with threshold = the smallest double, see the R
     * script).
     */
    @Test
    void shouldGiveAnUnseenPairProbabilityZeroAtAlphaZero() throws IOException {
        List<String> train = new ArrayList<>();
        for (String line : lines) {
            if (!line.startsWith("Yes,Yes,")) {
                train.add(line);
            }
        }
        Path trainFile = Files.write(dir.resolve("train.csv"), train, StandardCharsets.UTF_8);
        Run run = replay(trainFile, scoreFile(), "--covariance", "diag", "--estimator", "unbiased", "--set",
                "gda.categorical.alpha=0");
        JsonNode expected = referenceCase(r, "unseen-pair-laplace-0");
        double worst = assertMatches(run, expected);
        long students = 0;
        for (int i = 0; i < expected.get("rows").size(); i++) {
            if (lines.get(expected.get("rows").get(i).get("row").asInt()).startsWith("No,Yes,")
                    || lines.get(expected.get("rows").get(i).get("row").asInt()).startsWith("Yes,Yes,")) {
                assertEquals(0.0, run.predictions().get(i).get("probabilities").get("Yes").asDouble());
                students++;
            }
        }
        assertTrue(students > 0);
        System.out.printf("replay vs e1071 (unseen pair, laplace 0): largest error %.3g over %d rows, %d students%n",
                worst, expected.get("rows").size(), students);
    }

    @Test
    void shouldEqualTheNumpyGaussianCategoricalReferenceWithFullCovariance() throws IOException {
        Run run = replay(FIXTURES.resolve("default.csv"), scoreFile(), "--covariance", "full", "--estimator", "mle");
        double worst = assertMatches(run, referenceCase(numpy, "all-alpha-1"));
        System.out.printf("replay vs numpy (full, alpha 1): largest error %.3g%n", worst);
    }
}
