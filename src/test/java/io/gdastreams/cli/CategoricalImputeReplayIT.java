package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Categorical imputation on a real broker, through {@code gda-streams replay} (the live training and scoring
 * topologies): the credit-default data with {@code student} categorical (α = 1), trained on every row or on every
 * row but the non-student defaulters, then rows scored with student, balance, income or several of them left empty
 * (or student "Maybe", never seen), under {@code --covariance full} and {@code diag}. The predictions' posteriors,
 * log densities and {@code imputed} balance/income equal the numpy reference
 * (src/test/resources/fixtures/default/make_categorical_impute_reference.py) to 1e-9 (relative above 1 in
 * magnitude), {@code imputedCategories.student} exactly, and an unseen student stays named in {@code unseenValues}.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CategoricalImputeReplayIT {

    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/default");
    private static final double TOLERANCE = 1e-9;

    private static String bootstrapServers;
    private static List<String> lines;
    private static JsonNode reference;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp(KafkaBroker broker) throws IOException {
        bootstrapServers = broker.bootstrapServers();
        lines = Files.readAllLines(FIXTURES.resolve("default.csv"), StandardCharsets.UTF_8);
        reference = Json.mapper().readTree(FIXTURES.resolve("categorical_impute_reference.json").toFile());
    }

    private static JsonNode referenceCase(String name) {
        for (JsonNode c : reference.get("cases")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no reference case " + name);
    }

    /** The data row of a reference point with its missing features left empty (student: empty or its value). */
    private static String scoreLine(JsonNode point) {
        String[] cells = lines.get(point.get("row").asInt()).split(",", -1);
        List<String> missing = new ArrayList<>();
        point.get("missing").forEach(m -> missing.add(m.asText()));
        String student = point.get("student").isNull() ? "" : point.get("student").asText();
        return String.join(",", cells[0], student, missing.contains("balance") ? "" : cells[2],
                missing.contains("income") ? "" : cells[3]);
    }

    private static double error(double expected, double actual) {
        return Math.abs(expected - actual) / Math.max(1.0, Math.abs(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-full", "all-diag", "no-nonstudent-defaulters-full", "no-nonstudent-defaulters-diag"})
    void shouldImputeTheReferenceValues(String name) throws IOException {
        JsonNode expected = referenceCase(name);
        List<String> train = new ArrayList<>();
        for (String line : lines) {
            if (!name.startsWith("no-nonstudent-defaulters") || !line.startsWith("Yes,No,")) {
                train.add(line);
            }
        }
        assertEquals(expected.get("trainRows").asInt() + 1, train.size());
        List<String> score = new ArrayList<>(List.of(lines.get(0)));
        expected.get("points").forEach(point -> score.add(scoreLine(point)));
        Path trainFile = Files.write(dir.resolve("train.csv"), train, StandardCharsets.UTF_8);
        Path scoreFile = Files.write(dir.resolve("score.csv"), score, StandardCharsets.UTF_8);
        Path output = dir.resolve("predictions.jsonl");
        String covariance = expected.get("covarianceType").asText();
        String[] args = {"replay", "--train", trainFile.toString(), "--score", scoreFile.toString(), "--label",
                "default", "--output", output.toString(), "--bootstrap-servers", bootstrapServers, "--covariance",
                covariance, "--estimator", "mle", "--set", "gda.categorical.features=student", "--set",
                "gda.categorical.alpha=" + expected.get("alpha").asDouble()};
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        List<String> predictions = Files.readAllLines(output, StandardCharsets.UTF_8);
        JsonNode points = expected.get("points");
        assertEquals(points.size(), predictions.size());
        double worst = 0;
        int yes = 0;
        for (int i = 0; i < points.size(); i++) {
            JsonNode point = points.get(i);
            JsonNode p = Json.mapper().readTree(predictions.get(i));
            String where = point + " vs " + p;
            assertEquals("scored", p.get("status").asText(), where);
            for (String label : List.of("No", "Yes")) {
                worst = Math.max(worst, error(point.get("probabilities").get(label).asDouble(),
                        p.get("probabilities").get(label).asDouble()));
            }
            worst = Math.max(worst, error(point.get("logDensity").asDouble(), p.get("logDensity").asDouble()));
            JsonNode imputed = point.get("imputed");
            if (imputed.isEmpty()) {
                assertNull(p.get("imputed"), where);
            } else {
                assertEquals(imputed.size(), p.get("imputed").size(), where);
                for (var e : imputed.properties()) {
                    worst = Math.max(worst, error(e.getValue().asDouble(), p.get("imputed").get(e.getKey())
                            .asDouble()));
                }
            }
            assertTrue(worst <= TOLERANCE, where);
            if (point.has("imputedStudent")) {
                assertEquals(point.get("imputedStudent").asText(), p.get("imputedCategories").get("student")
                        .asText(), where);
                assertEquals(1, p.get("imputedCategories").size(), where);
                yes += point.get("imputedStudent").asText().equals("Yes") ? 1 : 0;
            } else {
                assertNull(p.get("imputedCategories"), where);
            }
            if ("Maybe".equals(point.get("student").asText(null))) {
                assertEquals("Maybe", p.get("unseenValues").get("student").asText(), where);
            }
        }
        System.out.printf("replay categorical imputation vs numpy (%s): largest error %.3g over %d events, "
                + "%d imputed student = Yes%n", name, worst, points.size(), yes);
    }
}
