package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.fixtures.SwappedMeansStream;
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
 * {@code replay --prequential --set gda.drift.action=reset} on a real broker, through the live training topology
 * (4 input partitions): a seeded stream of two unit Gaussian classes whose means swap half-way. The drift test fires
 * after the swap and resets; a model of a new reset generation is published, holding only events of the new regime
 * (its class means are the post-swap ones), and the prequential accuracy recovers to the Bayes rule's Φ(1) = 0.841,
 * where a model that kept the old statistics would stay near 0.5 for thousands of rows.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DriftResetReplayIT {

    private static final int ROWS = 12_000;
    private static final int SWAP = ROWS / 2;
    private static final long STEP_MS = 1_000;
    private static final long WINDOW_MS = 60_000;
    /** Accuracy of the Bayes rule for N(0, 1) against N(2, 1), equal priors: Φ(1). */
    private static final double BAYES_ACCURACY = 0.8413;
    /** Below the Bayes accuracy over the last 3,000 rows: 4 standard errors (√(0.84·0.16/3000) ≈ 0.0067) and the
     *  cost of learning from fresh statistics. */
    private static final double RECOVERED_TOLERANCE = 0.04;
    /** A post-swap class mean from over 1,000 events of the new regime: 5 standard errors of 1/√1000 and more. */
    private static final double MEAN_TOLERANCE = 0.16;

    private static String bootstrapServers;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp(KafkaBroker broker) {
        bootstrapServers = broker.bootstrapServers();
    }

    private Path stream() throws IOException {
        return SwappedMeansStream.write(dir.resolve("stream.csv"), ROWS, SWAP, STEP_MS);
    }

    @Test
    void aResetModelIsPublishedAndAccuracyRecovers() throws IOException {
        Path metrics = dir.resolve("metrics.jsonl");
        Path modelFile = dir.resolve("model.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--train", stream().toString(), "--label", "y", "--time", "t",
                "--prequential", metrics.toString(), "--model-output", modelFile.toString(),
                "--bootstrap-servers", bootstrapServers, "--set", "gda.publish.interval.ms=100",
                "--set", "gda.metrics.window.ms=" + WINDOW_MS, "--set", "gda.drift.action=reset"},
                Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);

        List<JsonNode> windows = new ArrayList<>();
        List<JsonNode> drifts = new ArrayList<>();
        for (String line : Files.readAllLines(metrics, StandardCharsets.UTF_8)) {
            JsonNode record = Json.mapper().readTree(line);
            (record.get("type").asText().equals("window") ? windows : drifts).add(record);
        }
        assertFalse(drifts.isEmpty(), "no drift found; " + out);
        for (JsonNode d : drifts) {
            assertTrue(d.get("eventTime").asLong() >= SWAP * STEP_MS, "false alarm: " + d);
            assertEquals("reset", d.get("action").asText(), d.toString());
        }

        JsonNode model = Json.mapper().readTree(modelFile.toFile());
        assertTrue(model.path("resetGeneration").asLong() >= 1, "a model of a reset generation: " + model);
        long dropped = model.get("resetDropped").asLong();
        assertTrue(dropped >= SWAP, "the rows of the old regime are dropped: " + dropped);
        assertEquals(ROWS, model.get("totalCount").asLong() + dropped, "every row applied, kept or dropped");
        for (JsonNode c : model.get("classes")) {
            double expected = c.get("label").asText().equals("a") ? 2 : 0; // the post-swap means
            assertEquals(expected, c.get("mean").get(0).asDouble(), MEAN_TOLERANCE, c.toString());
            assertTrue(c.get("count").asLong() >= 1_000, c.toString());
        }
        assertTrue(out.toString().contains("reset generation"), out.toString());

        // Accuracy over the windows of the last 3,000 rows (all partitions, weighted by count).
        long from = (ROWS - 3_000) * STEP_MS;
        double hits = 0;
        long scored = 0;
        for (JsonNode w : windows) {
            if (w.get("windowStart").asLong() >= from && w.get("count").asLong() > 0) {
                hits += w.get("accuracy").asDouble() * w.get("count").asLong();
                scored += w.get("count").asLong();
            }
        }
        assertTrue(scored >= 2_000, "scored " + scored + " of the last rows; " + out);
        double accuracy = hits / scored;
        assertTrue(accuracy >= BAYES_ACCURACY - RECOVERED_TOLERANCE, "accuracy after the reset " + accuracy);
    }
}
