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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision rules on a real broker, through {@code gda-streams replay} (the live training and scoring
 * topologies): LDA of default ~ balance on fixtures/default/default.csv ({@code --covariance tied --estimator
 * unbiased}, the model of R's MASS::lda), with {@code --set gda.decision.threshold=Yes:0.2} and with
 * {@code --set gda.decision.costs=Yes->No:5,No->Yes:1}. Every row's label, and so the confusion table, equals the
 * one computed from MASS's posteriors (fixtures/default/make_decision_reference.R), and the posteriors equal
 * MASS's to 1e-9.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DecisionRuleIT {

    /** p(Yes | x) against MASS's, absolute. */
    private static final double POSTERIOR_PARITY = 1e-9;
    private static final Path DATA = Path.of("src/test/resources/fixtures/default/default.csv");
    private static final Path REFERENCE = Path.of("src/test/resources/fixtures/default/decision_reference.json");

    private static String bootstrapServers;
    private static JsonNode reference;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp(KafkaBroker broker) throws IOException {
        bootstrapServers = broker.bootstrapServers();
        reference = Json.mapper().readTree(Files.readAllBytes(REFERENCE));
        // A row closer to the cut than the parity could be decided either way; the reference says none is.
        assertTrue(reference.get("closestToThreshold").doubleValue() > 1e3 * POSTERIOR_PARITY);
        assertTrue(reference.get("closestCostTie").doubleValue() > 1e3 * POSTERIOR_PARITY);
    }

    @Test
    void shouldPredictByThresholdAsMassPosteriorsDo() throws IOException {
        List<JsonNode> predictions = replay("gda.decision.threshold=Yes:0.2");
        assertMatches(predictions, "thresholdLabels", "thresholdConfusion", "threshold Yes:0.2");
        predictions.forEach(p -> assertNull(p.get("expectedCost"), "the threshold rule has no costs"));
    }

    @Test
    void shouldPredictTheMinimumExpectedCostAsMassPosteriorsDo() throws IOException {
        List<JsonNode> predictions = replay("gda.decision.costs=Yes->No:5,No->Yes:1");
        assertMatches(predictions, "costLabels", "costConfusion", "minimum expected cost");
        for (JsonNode p : predictions) {
            double pYes = p.get("probabilities").get("Yes").doubleValue();
            double expected = p.get("label").asText().equals("Yes") ? 1.0 - pYes : 5.0 * pYes;
            assertEquals(expected, p.get("expectedCost").doubleValue(), 1e-12, p.toString());
        }
    }

    private List<JsonNode> replay(String rule) throws IOException {
        Path output = dir.resolve("predictions.jsonl");
        String[] args = {"replay", "--train", DATA.toString(), "--score", DATA.toString(), "--label", "default",
            "--features", "balance", "--covariance", "tied", "--estimator", "unbiased", "--set", rule,
            "--output", output.toString(), "--bootstrap-servers", bootstrapServers};
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        List<JsonNode> predictions = Files.readAllLines(output, StandardCharsets.UTF_8).stream()
                .map(DecisionRuleIT::parse).toList();
        assertEquals(reference.get("pYes").size(), predictions.size());
        return predictions;
    }

    private static void assertMatches(List<JsonNode> predictions, String labelsField, String confusionField,
                                      String statedRule) {
        String letters = reference.get(labelsField).asText();
        List<String> truth = truth();
        int[][] confusion = new int[2][2]; // [predicted][true], No = 0, Yes = 1
        for (int i = 0; i < predictions.size(); i++) {
            JsonNode p = predictions.get(i);
            String where = "row " + (i + 1) + ": " + p;
            assertEquals(reference.get("pYes").get(i).doubleValue(), p.get("probabilities").get("Yes").doubleValue(),
                    POSTERIOR_PARITY, where);
            String label = p.get("label").asText();
            assertEquals(letters.charAt(i) == 'Y' ? "Yes" : "No", label, where);
            assertEquals(statedRule, p.get("decision").asText(), where);
            confusion[label.equals("Yes") ? 1 : 0][truth.get(i).equals("Yes") ? 1 : 0]++;
        }
        JsonNode expected = reference.get(confusionField);
        String[] names = {"No", "Yes"};
        for (int predicted = 0; predicted < 2; predicted++) {
            for (int actual = 0; actual < 2; actual++) {
                assertEquals(expected.get(names[predicted]).get(names[actual]).asInt(), confusion[predicted][actual],
                        confusionField + " predicted " + names[predicted] + ", true " + names[actual]);
            }
        }
    }

    private static List<String> truth() {
        try {
            return Files.readAllLines(DATA, StandardCharsets.UTF_8).stream().skip(1)
                    .map(line -> line.substring(0, line.indexOf(','))).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode parse(String line) {
        try {
            return Json.mapper().readTree(line);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
