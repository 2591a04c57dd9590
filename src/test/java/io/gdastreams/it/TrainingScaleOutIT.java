package io.gdastreams.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.TrainingFixtures;
import io.gdastreams.topology.TrainingTopology;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scaling the trainer out: two instances of one application (same application.id, separate state directories)
 * share the four statistics tasks, and publish the same model as a single instance reading the same events.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TrainingScaleOutIT {

    private static final int PARTITIONS = 4;
    /** Sub-topology of the per-partition statistics tasks (the combiner is sub-topology 1). */
    private static final int STATISTICS_SUBTOPOLOGY = TrainingFixtures.STATISTICS_SUBTOPOLOGY;

    @Test
    void shouldPublishTheSameModelFromTwoInstancesAsFromOne(KafkaBroker broker, @TempDir Path stateDir) {
        IrisGolden golden = IrisGolden.fullMle();
        try (PipelineUnderTest twoInstances = PipelineUnderTest.create(broker, PARTITIONS);
             PipelineUnderTest oneInstance = twoInstances.sharingInputs();
             StreamsInstances instances = new StreamsInstances()) {
            String sharedId = UniqueNames.of("training-scaled");
            KafkaStreams first = instances.start(TrainingTopology.build(twoInstances.trainingSettings(),
                    GroupCommittedInput::open),
                    broker.streamsProperties(sharedId, stateDir.resolve("first")));
            KafkaStreams second = instances.start(TrainingTopology.build(twoInstances.trainingSettings(),
                    GroupCommittedInput::open),
                    broker.streamsProperties(sharedId, stateDir.resolve("second")));
            instances.start(TrainingTopology.build(oneInstance.trainingSettings(), GroupCommittedInput::open),
                    broker.streamsProperties(UniqueNames.of("training-single"), stateDir.resolve("single")));
            // Events go in only once the two instances split the statistics tasks, so both do real work.
            Await.until("the two instances split the statistics tasks", PipelineUnderTest.TIMEOUT,
                    () -> splitsTheStatisticsTasks(first, second),
                    () -> "first " + first.state() + " " + statisticsPartitions(first) + ", second " + second.state()
                            + " " + statisticsPartitions(second));

            for (IrisGolden.Row row : golden.rows()) {
                twoInstances.send(twoInstances.topics().labelled().name(), row.index() % PARTITIONS, "row-" + row.index(),
                        golden.labelledJson(row));
            }
            ModelParameters scaled = twoInstances.awaitModelAbsorbingAllLabelled();
            ModelParameters single = oneInstance.awaitModelAbsorbingAllLabelled();

            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), scaled);
            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), single);
            // Same events per partition, same merge order: the two models agree to the bit, not just to 1e-12.
            assertSameStatistics(single, scaled);
            assertFalse(statisticsPartitions(first).isEmpty() || statisticsPartitions(second).isEmpty(),
                    "both instances still run statistics tasks");
        }
    }

    private static boolean splitsTheStatisticsTasks(KafkaStreams first, KafkaStreams second) {
        if (first.state() != KafkaStreams.State.RUNNING || second.state() != KafkaStreams.State.RUNNING) {
            return false;
        }
        Set<Integer> a = statisticsPartitions(first);
        Set<Integer> b = statisticsPartitions(second);
        Set<Integer> union = new HashSet<>(a);
        union.addAll(b);
        return !a.isEmpty() && !b.isEmpty() && a.size() + b.size() == PARTITIONS
                && union.equals(Set.of(0, 1, 2, 3));
    }

    private static Set<Integer> statisticsPartitions(KafkaStreams streams) {
        return streams.metadataForLocalThreads().stream()
                .flatMap(thread -> thread.activeTasks().stream())
                .map(TaskMetadata::taskId)
                .filter(id -> id.subtopology() == STATISTICS_SUBTOPOLOGY)
                .map(TaskId::partition)
                .collect(Collectors.toSet());
    }

    private static void assertSameStatistics(ModelParameters expected, ModelParameters actual) {
        assertEquals(expected.features(), actual.features());
        assertEquals(expected.totalCount(), actual.totalCount());
        assertEquals(expected.sources(), actual.sources());
        List<ClassParameters> e = expected.classes();
        List<ClassParameters> a = actual.classes();
        assertEquals(e.stream().map(ClassParameters::label).toList(), a.stream().map(ClassParameters::label).toList());
        for (int k = 0; k < e.size(); k++) {
            String where = "class " + e.get(k).label();
            assertEquals(e.get(k).count(), a.get(k).count(), where + " count");
            assertEquals(e.get(k).prior(), a.get(k).prior(), 0.0, where + " prior");
            assertArrayEquals(e.get(k).mean(), a.get(k).mean(), 0.0, where + " mean");
            for (int i = 0; i < e.get(k).covariance().length; i++) {
                assertArrayEquals(e.get(k).covariance()[i], a.get(k).covariance()[i], 0.0,
                        where + " covariance row " + i);
            }
        }
    }
}
