package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.RESTORE_MODEL;
import static io.gdastreams.reliability.TrainingRuns.assertTrainsOnExactly;
import static io.gdastreams.reliability.TrainingRuns.restoreTestConfig;
import static io.gdastreams.reliability.TrainingRuns.trainStopAndWipe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.ops.OpsHttp;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product's {@code train} whose changelog restore stands still although the broker serves what it should read
 * (its restore consumer is stuck for good: {@link StuckRestoreInterceptor} holds its polls): after the patience the
 * trainer says the restore is not reading and restarts Kafka Streams once; the stuck client cannot stop, so the
 * trainer exits 1 saying why, and started again (as a supervisor would) it restores, trains on and publishes a model
 * of exactly every event. The counterpart of {@link HeldRestoreIT}, where a transaction holds the restore and a
 * restart would be in vain.
 */
@ExtendWith(KafkaBrokerExtension.class)
class StuckRestoreIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Iris rows are ordered by class: the two phases end inside different classes. */
    private static final int N = 70;
    private static final int L = 40;
    private static final String RESTART = "although nothing holds it; starting Kafka Streams again";
    /** The old client's close timeout (10 s), then the wait for its state directory (60 s), with room to spare. */
    private static final Duration STUCK_EXIT = Duration.ofSeconds(120);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldRestartARestoreThatDoesNotReadAndTrainExactly(KafkaBroker broker) throws Exception {
        System.out.println("StuckRestoreIT: product logs in " + dir);
        Topics topics = KafkaBroker.uniqueTopics();
        String appId = KafkaBroker.uniqueName("stuck");
        String streamsAppId = appId + "-" + Command.TRAIN.role();
        List<LabelledRow> rows = Iris.rows();
        Path stateDir = dir.resolve("state");
        Path flag = dir.resolve("restore-stuck.flag");
        Map<String, String> config = restoreTestConfig(broker, topics, appId, stateDir);
        config.put("restore.consumer.interceptor.classes", StuckRestoreInterceptor.class.getName());
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train")
                     .withEnvironment(Map.of(StuckRestoreInterceptor.FLAG_VARIABLE, flag.toString()));
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            // 1. N events, published; a clean stop; the local state deleted, so the next start restores it all.
            trainStopAndWipe(train, broker, producer, topics, rows, N, stateDir.resolve(streamsAppId), TIMEOUT);

            // 2. Its restore consumer stuck: the restore stands at its start although every record is readable.
            Files.createFile(flag);
            train.start();
            Await.until("the restore consumer is held", TIMEOUT,
                    () -> train.log().contains(StuckRestoreInterceptor.HELD), () -> train.tails(40));
            // Which of the trainer's changelogs the held poll fetched first varies: any of them.
            String notReading = "that the restore is not reading: restarting Kafka Streams";
            Await.until("the trainer says the restore is not reading", TIMEOUT,
                    () -> train.log().contains(notReading), () -> train.tails(40));
            String log = train.log();
            String verdict = log.substring(log.lastIndexOf("training: the restore of ", log.indexOf(notReading)),
                    log.indexOf(notReading));
            assertTrue(verdict.matches("training: the restore of " + streamsAppId + "-[a-z-]+-changelog-0 \\(store"
                    + " [a-z-]+\\) has not moved for 5 s: at offset 0 of \\d+\\. The broker serves a record at offset 0"
                    + " \\(last stable offset \\d+, end offset \\d+\\) "), verdict);

            // 3. One restart (a check later, the restore still where it was judged). The stuck client does not stop
            //    and its thread holds the state directory: the trainer exits 1 and says why, instead of failing to
            //    start a new client beside it.
            Await.until("the trainer starts Kafka Streams again", TIMEOUT, () -> train.log().contains(RESTART),
                    () -> train.tails(40));
            assertEquals(1, train.awaitOwnExit(STUCK_EXIT), train.tails(40));
            String stuck = train.log();
            assertTrue(stuck.indexOf(notReading) < stuck.indexOf(RESTART), train.tails(40));
            assertEquals(1, occurrences(stuck, RESTART), "one restart\n" + train.tails(40));
            assertTrue(stuck.contains("gda-streams train: training: Kafka Streams cannot start again: the previous"
                    + " client still holds the state directory 60 s after it was closed (StreamsException: Unable to initialize state,"),
                    train.tails(40));
            assertTrue(stuck.contains("one of its threads is stuck in a call that does not return, which only a new"
                    + " process frees: exiting so that it starts afresh"), train.tails(40));
            assertFalse(stuck.contains("unexpected error"), train.tails(40));
            // The minute's wait watches the old client's state: one refused attempt at its end, not one a second.
            assertEquals(1, occurrences(stuck, "Unable to obtain lock as state directory is already locked"),
                    train.tails(40));

            // 4. Started again, as a supervisor would (a new process: nothing stuck); L more events; the model exact.
            Files.delete(flag);
            train.start();
            train.awaitRunning(TIMEOUT);
            assertTrainsOnExactly(train, broker, producer, topics, rows, N, L, RESTORE_MODEL, TIMEOUT);
            assertEquals(0.0, OpsHttp.fromLog(train.log()).gauge("gda_restores_stalled"), "restored");
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            count++;
        }
        return count;
    }
}
