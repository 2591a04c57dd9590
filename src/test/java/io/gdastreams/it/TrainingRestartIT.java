package io.gdastreams.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.TrainingFixtures;
import io.gdastreams.topology.TrainingTopology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarting the trainer: closed, then started again with the same application.id, it resumes from its state
 * and committed offsets. The model after more events must be the batch MLE of all events: an event read twice
 * (offsets behind the state) or lost (state behind the offsets) would change counts and parameters.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TrainingRestartIT {

    private static final int PARTITIONS = 4;
    private static final int BEFORE_RESTART = 90;
    private static final int WHILE_DOWN = 30;

    @Test
    void shouldResumeFromItsStateDirAfterARestartWithoutDoubleCounting(KafkaBroker broker, @TempDir Path stateDir) {
        Map<String, Long> restored = trainAcrossARestart(broker, stateDir, false);
        // A clean close checkpoints the persistent stores: the restart reads them from disk, not the changelog.
        assertEquals(0L, restored.getOrDefault(TrainingTopology.CLASS_STATS_STORE, 0L),
                "class statistics replayed from the changelog although the state directory was kept: " + restored);
    }

    @Test
    void shouldRestoreFromTheChangelogAfterARestartWithAWipedStateDir(KafkaBroker broker, @TempDir Path stateDir) {
        Map<String, Long> restored = trainAcrossARestart(broker, stateDir, true);
        assertTrue(restored.getOrDefault(TrainingTopology.CLASS_STATS_STORE, 0L) > 0,
                "class statistics rebuilt from the changelog: " + restored);
        assertTrue(restored.getOrDefault(TrainingTopology.COMBINER_STORE, 0L) > 0,
                "combiner state rebuilt from the changelog: " + restored);
    }

    /**
     * 90 events, close; 30 more while the application is down; start again (after wiping the state directory
     * when asked); 30 more. Returns the records restored per store during the second start.
     */
    private static Map<String, Long> trainAcrossARestart(KafkaBroker broker, Path stateDir, boolean wipeState) {
        IrisGolden golden = IrisGolden.fullMle();
        List<IrisGolden.Row> rows = golden.rows();
        try (PipelineUnderTest pipeline = PipelineUnderTest.create(broker, PARTITIONS);
             StreamsInstances instances = new StreamsInstances()) {
            String applicationId = UniqueNames.of("training-restart");
            Properties props = broker.streamsProperties(applicationId, stateDir);

            KafkaStreams before = instances.start(TrainingTopology.build(pipeline.trainingSettings(),
                    GroupCommittedInput::open), props);
            send(pipeline, golden, rows.subList(0, BEFORE_RESTART));
            ModelParameters first = pipeline.awaitModelAbsorbingAllLabelled();
            TrainingFixtures.assertModelEquals(TrainingFixtures.twoPassMle(golden.features(),
                    trainingRows(rows.subList(0, BEFORE_RESTART))), first);
            instances.stop(before);
            if (wipeState) {
                deleteContents(stateDir);
            }

            send(pipeline, golden, rows.subList(BEFORE_RESTART, BEFORE_RESTART + WHILE_DOWN));
            Map<String, Long> restored = new ConcurrentHashMap<>();
            instances.start(TrainingTopology.build(pipeline.trainingSettings(), GroupCommittedInput::open), props,
                    streams -> streams.setGlobalStateRestoreListener(countingRestores(restored)));
            send(pipeline, golden, rows.subList(BEFORE_RESTART + WHILE_DOWN, rows.size()));
            ModelParameters last = pipeline.awaitModelAbsorbingAllLabelled();

            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), last);
            assertEquals(rows.size(), last.totalCount(), "every event counted once");
            assertTrue(last.version() > first.version(),
                    "versions continue across the restart: " + first.version() + " then " + last.version());
            return restored;
        }
    }

    private static void send(PipelineUnderTest pipeline, IrisGolden golden, List<IrisGolden.Row> rows) {
        for (IrisGolden.Row row : rows) {
            pipeline.send(pipeline.topics().labelled().name(), row.index() % PARTITIONS, "row-" + row.index(),
                    golden.labelledJson(row));
        }
    }

    /** What a new machine or an emptied volume looks like: nothing under the state directory. */
    private static void deleteContents(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                if (!path.equals(dir)) {
                    Files.delete(path);
                }
            }
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(0, left.count(), "state directory emptied");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<LabelledRow> trainingRows(List<IrisGolden.Row> rows) {
        return rows.stream().map(r -> new LabelledRow(r.x(), r.label())).toList();
    }

    private static StateRestoreListener countingRestores(Map<String, Long> restoredByStore) {
        return new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long endOffset, long restored) {
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                restoredByStore.merge(store, totalRestored, Long::sum);
            }
        };
    }
}
