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
 * {@code replay --time --prequential} on a real broker, through the live training topology: a seeded stream of two
 * unit Gaussian classes whose means swap half-way; the trainer's window records are keyed to the rows' event
 * times, account for every row of the closed windows, and the Page–Hinkley test fires after the swap, not before.
 */
@ExtendWith(KafkaBrokerExtension.class)
class PrequentialReplayIT {

    private static final int ROWS = 20_000;
    private static final int SWAP = ROWS / 2;
    /** One row per second of event time. */
    private static final long STEP_MS = 1_000;
    private static final long WINDOW_MS = 60_000;

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
    void windowsFollowTheRowsEventTimesAndDriftIsFoundAfterTheSwap() throws IOException {
        Path metrics = dir.resolve("metrics.jsonl");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--train", stream().toString(), "--label", "y", "--time", "t",
                "--prequential", metrics.toString(), "--bootstrap-servers", bootstrapServers,
                "--set", "gda.publish.interval.ms=100", "--set", "gda.metrics.window.ms=" + WINDOW_MS},
                Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        assertTrue(out.toString().contains("Prequential (test-then-train)"), out.toString());

        List<JsonNode> windows = new ArrayList<>();
        List<JsonNode> drifts = new ArrayList<>();
        for (String line : Files.readAllLines(metrics, StandardCharsets.UTF_8)) {
            JsonNode record = Json.mapper().readTree(line);
            (record.get("type").asText().equals("window") ? windows : drifts).add(record);
        }
        assertFalse(windows.isEmpty(), out.toString());
        long accounted = 0;
        long lastStart = (ROWS - 1) * STEP_MS / WINDOW_MS * WINDOW_MS;
        for (JsonNode w : windows) {
            long start = w.get("windowStart").asLong();
            assertEquals(0, start % WINDOW_MS, w.toString());
            assertEquals(start + WINDOW_MS, w.get("windowEnd").asLong(), w.toString());
            // The last window of each partition stays open: no later event closes it.
            assertTrue(start < lastStart, w.toString());
            accounted += w.get("count").asLong() + w.get("noModel").asLong() + w.get("unscorable").asLong()
                    + w.get("late").asLong();
        }
        // Rows are in event-time order and one per second: every row before the last window is in a closed one.
        assertEquals(lastStart / STEP_MS, accounted, out.toString());
        assertFalse(drifts.isEmpty(), "no drift found; " + out);
        for (JsonNode d : drifts) {
            assertTrue(d.get("eventTime").asLong() >= SWAP * STEP_MS, "false alarm: " + d);
        }
        long first = drifts.stream().mapToLong(d -> d.get("eventTime").asLong()).min().orElseThrow();
        // Four partitions each see about a quarter of the rows; PageHinkleyTest bounds the delay at 100 of a
        // partition's events when the model stays: 1,000 rows of the whole stream leaves room for model updates.
        assertTrue(first - SWAP * STEP_MS <= 1_000 * STEP_MS, "first alarm " + (first / STEP_MS - SWAP)
                + " rows after the swap");
    }
}
