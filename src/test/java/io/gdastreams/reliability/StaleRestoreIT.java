package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.counts;
import static io.gdastreams.reliability.TrainingRuns.deleteRecursively;
import static io.gdastreams.reliability.TrainingRuns.lastModel;
import static io.gdastreams.reliability.TrainingRuns.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.broker.FaultInjectionBroker;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product's {@code train} whose trainer task finds a local store <em>older</em> than its changelog under a
 * checkpointed offset that claims the store is current must still publish a model of every event read.
 *
 * <p>Why: Kafka Streams 4.3.1 under exactly_once_v2 left exactly that behind in a long fault run. A
 * TaskCorruptedException closed the trainer task dirty, wiped its state and restored it from offset 0; the thread
 * was fenced mid-restore, the task left the state updater and was "Closed clean" from RESTORING, checkpointing
 * the changelog's end offset (the offsets its record collector had written: the symptom of KAFKA-16017, reported
 * fixed in 3.7). Re-assigned, it restored 0 records and ran on the partial store: the events the store lacked
 * were lost, and nothing said so.
 *
 * <p>That race cannot be forced from outside, so this test forges its result, which needs no race: a copy of the
 * trainer's store taken while it held N events, put back with the offset a later clean close checkpointed after
 * N + M events (the changelog's end). In Kafka Streams 4.3 that checkpoint is no longer the task's
 * {@code .checkpoint} file but the store's own offsets column family (KIP-1035; see {@link StoreOffsets}). The M
 * events in between reach the state but no published model (the run that reads them publishes once an hour), so
 * the published lineage still says N: the lineage guard of PartialStatsProcessor (a state behind what this
 * application published) cannot see the stale store. What catches it is the check against the group's committed
 * input offset (RestoreCheck): the trainer refuses the state before using it, rebuilds its local state from the
 * changelog and goes on exactly; before that check the final model lacked the M events.
 */
class StaleRestoreIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** One input partition: one trainer task. */
    private static final int PARTITIONS = 1;
    private static final String MODEL_ID = "iris";
    /** The run whose events must reach the state but not a model publishes only after this (never, in the test). */
    private static final String UNPUBLISHED_INTERVAL_MS = Long.toString(Duration.ofHours(1).toMillis());
    /**
     * Iris rows are ordered by class (50 each): the three phases end inside different classes, so a loss of the
     * middle phase shows in the per-class counts, not only in the total.
     */
    private static final int N = 60;
    private static final int M = 50;
    private static final int L = 40;
    /** Class means of the final model against one pass over the same rows: only rounding may differ. */
    private static final double MEAN_TOLERANCE = 1e-9;

    /** Kept when the test fails: the product's logs (one file per start) and the forged task directory. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldPublishEveryEventWhenTheRestoredStoreIsOlderThanItsCheckpoint() throws Exception {
        System.out.println("StaleRestoreIT: product logs in " + dir);
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String appId = UniqueNames.of("stale");
        String streamsAppId = appId + "-" + Command.TRAIN.role();
        List<LabelledRow> rows = Iris.rows();
        Path stateDir = dir.resolve("state");
        try (FaultInjectionBroker broker = FaultInjectionBroker.start()) {
            Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID, appId,
                    stateDir, PARTITIONS);
            Map<String, String> unpublished = new TreeMap<>(config);
            unpublished.put("gda.publish.interval.ms", UNPUBLISHED_INTERVAL_MS);
            try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
                 ProductProcess trainUnpublished = new ProductProcess(Command.TRAIN, unpublished, dir,
                         "train-unpublished");
                 KafkaProducer<byte[], byte[]> producer = broker.producer()) {
                // 1. N events, published; a clean stop checkpoints the store; snapshot S1 of the trainer task.
                train.start();
                train.awaitRunning(TIMEOUT);
                send(producer, topics, rows, 0, N);
                ModelParameters first = lastModel(broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(),
                        TIMEOUT, () -> train.assertAlive()));
                assertEquals(N, first.totalCount(), "first model");
                assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
                Path taskDir = trainerTaskDir(stateDir.resolve(streamsAppId));
                System.out.println("StaleRestoreIT: trainer task directory " + taskDir.getFileName());
                Path s1 = dir.resolve("snapshot-S1");
                copyRecursively(taskDir, s1);
                TopicPartition changelog = new TopicPartition(
                        streamsAppId + "-" + TrainingTopology.CLASS_STATS_STORE + "-changelog", 0);
                long s1Offset = StoreOffsets.read(store(s1), changelog);

                // 2. M events into the state only: committed with their input offsets, not published.
                trainUnpublished.start();
                trainUnpublished.awaitRunning(TIMEOUT);
                send(producer, topics, rows, N, M);
                TopicPartition input = new TopicPartition(topics.labelled().name(), 0);
                Await.until("the trainer committed input offset " + (N + M), TIMEOUT,
                        () -> committedOffset(broker, streamsAppId, input) == N + M,
                        () -> "committed " + committedOffset(broker, streamsAppId, input) + "\n"
                                + trainUnpublished.log());
                assertEquals(ProductProcess.SIGTERM_EXIT, trainUnpublished.sigterm().status(), trainUnpublished.log());
                long k2Offset = StoreOffsets.read(store(taskDir), changelog);
                assertTrue(k2Offset > s1Offset, "the M events reached the changelog: checkpointed offsets S1 "
                        + s1Offset + ", K2 " + k2Offset);
                ModelParameters stillFirst = lastModel(broker.readAll(topics.model(), TIMEOUT));
                assertEquals(Map.of("0", (long) N), stillFirst.sources(),
                        "the M events must not reach a published model (else the lineage guard sees the loss)");
                assertEquals(N, stillFirst.totalCount());

                // 3. What the Kafka bug leaves: the store of S1 under the checkpointed offset K2 (the changelog's
                // end), so that a restore reads nothing.
                deleteRecursively(taskDir);
                copyRecursively(s1, taskDir);
                StoreOffsets.write(store(taskDir), changelog, k2Offset);
                assertEquals(k2Offset, StoreOffsets.read(store(taskDir), changelog), "forged checkpoint");
                System.out.println("StaleRestoreIT: store of offset " + s1Offset + " put back under offset "
                        + k2Offset + " of " + changelog);

                // 4. L more events; the final model must hold all N + M + L.
                train.start();
                train.awaitRunning(TIMEOUT);
                send(producer, topics, rows, N + M, L);
                ModelParameters last;
                try {
                    last = lastModel(broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), TIMEOUT,
                            () -> train.assertAlive()));
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\n" + train.tails(80), e);
                }
                // In the model's feature order (the trainer sorts the feature names).
                ModelParameters expected = Iris.model(MODEL_ID, last.version(), rows.subList(0, N + M + L),
                        last.features());
                String found = "final model version " + last.version() + ": total " + last.totalCount()
                        + ", per class " + counts(last) + ", lineage " + last.sources() + "; expected total "
                        + (N + M + L) + ", per class " + counts(expected) + " (N=" + N + ", M=" + M + ", L=" + L
                        + "; a total of N+L=" + (N + L) + " means the M events are lost)\n" + train.tails(20);
                assertEquals(N + M + L, last.totalCount(), found);
                assertEquals(counts(expected), counts(last), found);
                assertEquals(Map.of("0", (long) (N + M + L)), last.sources(), found);
                assertEquals(Set.copyOf(Iris.FEATURES), Set.copyOf(last.features()));
                for (ClassParameters want : expected.classes()) {
                    ClassParameters got = last.classes().stream().filter(c -> c.label().equals(want.label()))
                            .findFirst().orElseThrow();
                    for (int j = 0; j < want.mean().length; j++) {
                        assertEquals(want.mean()[j], got.mean()[j], MEAN_TOLERANCE,
                                "mean " + last.features().get(j) + " of " + want.label());
                    }
                }
                // The way it got there: the forged state was refused before use and rebuilt from the changelog.
                String log = train.log();
                assertTrue(log.contains("the training state of " + topics.labelled() + "-0 reaches offset " + N
                        + " but the consumer group committed offset " + (N + M)), "the refusal\n" + train.tails(40));
                assertTrue(log.contains("rebuilding it from the changelog topics (attempt 1 of 1)"),
                        "the rebuild\n" + train.tails(40));
                train.sigterm();
            }
        }
    }

    /** The group's committed offset of {@code partition} (stable: no open transaction), -1 when none. */
    private static long committedOffset(FaultInjectionBroker broker, String group, TopicPartition partition) {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = broker.admin()
                    .listConsumerGroupOffsets(group, new ListConsumerGroupOffsetsOptions().requireStable(true))
                    .partitionsToOffsetAndMetadata().get();
            OffsetAndMetadata committed = offsets.get(partition);
            return committed == null ? -1 : committed.offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (ExecutionException e) {
            return -1; // e.g. the group is still rebalancing; the wait tries again
        }
    }

    /** The one task directory under {@code appDir} that holds the trainer's store (1_0 in this topology). */
    private static Path trainerTaskDir(Path appDir) throws Exception {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(appDir)) {
            for (Path task : tasks.toList()) {
                if (Files.isDirectory(store(task))) {
                    found.add(task);
                }
            }
        }
        assertEquals(1, found.size(), "task directories with the store " + TrainingTopology.CLASS_STATS_STORE
                + " under " + appDir + ": " + found);
        Path task = found.get(0);
        return task;
    }

    /** The trainer's RocksDB store in a task directory. */
    private static Path store(Path taskDir) {
        return taskDir.resolve("rocksdb").resolve(TrainingTopology.CLASS_STATS_STORE);
    }

    private static void copyRecursively(Path from, Path to) throws Exception {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }
}
