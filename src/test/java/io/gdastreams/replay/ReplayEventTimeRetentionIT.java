package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.cli.Main;
import io.gdastreams.fixtures.SwappedMeansStream;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
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
 * records instead. Its own broker: the check runs every 100 ms from the start, not every 5 minutes after 30 s.
 */
class ReplayEventTimeRetentionIT {

    private static final int ROWS = 400;

    private static KafkaClusterTestKit cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("log.initial.task.delay.ms", "0")
                .setConfigProp("log.retention.check.interval.ms", "100")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void rowsWhoseEventTimesAreOlderThanTheRetentionAreAllTrainedOn() throws Exception {
        Path train = SwappedMeansStream.write(dir.resolve("old.csv"), ROWS, ROWS, 1_000); // 1970-01-01, no swap
        Path modelFile = dir.resolve("model.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--train", train.toString(), "--label", "y", "--time", "t",
                "--prequential", dir.resolve("metrics.jsonl").toString(), "--model-output", modelFile.toString(),
                "--bootstrap-servers", cluster.bootstrapServers(),
                "--set", "gda.publish.interval.ms=100"}, Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        assertTrue(out.toString().contains("retention.ms=-1"), out.toString());
        JsonNode model = Json.mapper().readTree(modelFile.toFile());
        assertEquals(ROWS, model.get("totalCount").asLong(), "every row trained on: " + out);
    }
}
