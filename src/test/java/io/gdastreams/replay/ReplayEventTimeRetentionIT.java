package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.broker.EmbeddedBroker;
import io.gdastreams.cli.Main;
import io.gdastreams.fixtures.SwappedMeansStream;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --time} against a cluster with time-based retention (the default 7 days), checked often: the rows'
 * record timestamps are their own event times, here from 1970, so the broker's next retention check would delete
 * them before the trainer read them, and the replay would wait for a model that can never absorb them (seen as
 * "no progress for 120 s … has absorbed 100 of 200 rows" on a loaded machine, where the first retention check, 30 s
 * after the broker started, came before the trainer had read its first batch). The replay's own topics keep their
 * records instead. Its own broker (the product's, with Kafka's default retention): the check runs every 100 ms from
 * the start, not every 5 minutes after 30 s.
 */
class ReplayEventTimeRetentionIT {

    private static final int ROWS = 400;

    private static EmbeddedBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        // Kafka's default time retention (7 days; the product's broker keeps records forever), checked every 100 ms.
        broker = EmbeddedBroker.start(EmbeddedBroker.DEFAULT_START_TIMEOUT, List.of(), Map.of(
                "log.retention.hours", "168",
                "log.initial.task.delay.ms", "0",
                "log.retention.check.interval.ms", "100"));
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void rowsWhoseEventTimesAreOlderThanTheRetentionAreAllTrainedOn() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
            assertEquals(Long.toString(Duration.ofDays(7).toHours()), admin.describeConfigs(List.of(node)).all()
                    .get(30, TimeUnit.SECONDS).get(node).get("log.retention.hours").value(),
                    "the broker deletes by time, as Kafka's default");
        }
        Path train = SwappedMeansStream.write(dir.resolve("old.csv"), ROWS, ROWS, 1_000); // 1970-01-01, no swap
        Path modelFile = dir.resolve("model.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--train", train.toString(), "--label", "y", "--time", "t",
                "--prequential", dir.resolve("metrics.jsonl").toString(), "--model-output", modelFile.toString(),
                "--bootstrap-servers", broker.bootstrapServers(),
                "--set", "gda.publish.interval.ms=100"}, Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        assertTrue(out.toString().contains("retention.ms=-1"), out.toString());
        JsonNode model = Json.mapper().readTree(modelFile.toFile());
        assertEquals(ROWS, model.get("totalCount").asLong(), "every row trained on: " + out);
    }
}
