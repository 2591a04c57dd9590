package io.gdastreams.topology;

import static io.gdastreams.topology.TrainingFixtures.assertModelEquals;
import static io.gdastreams.topology.TrainingFixtures.goldenIrisMle;
import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static io.gdastreams.topology.TrainingFixtures.twoPassMle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.PipelineUnderTest;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TaskMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The training topology on a real broker, exactly_once_v2, a 4-partition labelled topic. */
@ExtendWith(KafkaBrokerExtension.class)
class TrainingIT {

    private static final int PARTITIONS = 4;
    private static final long SEED = 20260101L;

    @TempDir
    Path stateDir;

    private PipelineUnderTest pipeline;
    private KafkaStreams streams;

    @AfterEach
    void stop() {
        PipelineUnderTest.close(streams, pipeline);
    }

    /** This test's topics, with a 4-partition labelled topic. */
    private Topics createTopics(KafkaBroker broker) {
        pipeline = PipelineUnderTest.create(broker, PARTITIONS);
        return pipeline.topics();
    }

    private String startTraining(KafkaBroker broker) {
        String appId = KafkaBroker.uniqueName("training");
        startTraining(broker, appId, stateDir);
        return appId;
    }

    private void startTraining(KafkaBroker broker, String appId, Path directory) {
        Properties props = broker.streamsProperties(appId, directory);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        streams = new KafkaStreams(TrainingTopology.build(pipeline.trainingSettings(),
                GroupCommittedInput::open), props);
        streams.start();
    }

    private void sendIris(Topics topics, int from, int to) {
        List<LabelledRow> rows = Iris.rows();
        for (int i = from; i < to; i++) {
            pipeline.send(topics.labelled().name(), i % PARTITIONS, "row-" + i,
                    labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
    }

    @Test
    void shouldTrainIrisOverFourPartitionsToTheBatchMle(KafkaBroker broker) throws Exception {
        Topics topics = createTopics(broker);
        sendIris(topics, 0, 150);
        startTraining(broker);

        ModelParameters model = pipeline.awaitModelAbsorbingAllLabelled();

        assertEquals(Map.of("0", 38L, "1", 38L, "2", 37L, "3", 37L), model.sources());
        assertEquals(List.of("petal_length", "petal_width", "sepal_length", "sepal_width"), model.features());
        assertModelEquals(goldenIrisMle(), model);
    }

    /**
     * {@code gda.statistics=diagonal} end to end: partial snapshots of diagonal statistics (version 4, the general layout) through the
     * real partials topic and the combiner give the batch MLE means and variances of the R golden, and covariances
     * of exactly zero.
     */
    @Test
    void shouldTrainIrisWithDiagonalStatisticsToTheBatchMleVariances(KafkaBroker broker) throws Exception {
        Topics topics = createTopics(broker);
        sendIris(topics, 0, 150);
        Properties props = broker.streamsProperties(KafkaBroker.uniqueName("training"), stateDir);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        streams = new KafkaStreams(TrainingTopology.build(pipeline.trainingSettings()
                .withStatistics(Statistics.DIAGONAL), GroupCommittedInput::open), props);
        streams.start();

        ModelParameters model = pipeline.awaitModelAbsorbingAllLabelled();

        Map<String, TrainingFixtures.Expected> diagonal = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, TrainingFixtures.Expected> e : goldenIrisMle().entrySet()) {
            Map<String, Map<String, Double>> cov = new TreeMap<>();
            e.getValue().cov().forEach((i, row) -> {
                Map<String, Double> zeroed = new TreeMap<>();
                row.forEach((j, v) -> zeroed.put(j, i.equals(j) ? v : 0.0));
                cov.put(i, zeroed);
            });
            diagonal.put(e.getKey(), new TrainingFixtures.Expected(e.getValue().count(), e.getValue().prior(),
                    e.getValue().mean(), cov));
        }
        assertModelEquals(diagonal, model);
    }

    /**
     * The statistics written once per commit must be in the changelog, in the same transaction as the offsets:
     * an instance that lost its local state restores them and continues where the first one stopped.
     */
    @Test
    void shouldRestoreStatisticsFromTheChangelogAfterLosingLocalState(KafkaBroker broker) throws Exception {
        Topics topics = createTopics(broker);
        sendIris(topics, 0, 100);
        String appId = KafkaBroker.uniqueName("training");
        startTraining(broker, appId, stateDir.resolve("first"));
        assertEquals(100, pipeline.awaitModelAbsorbingAllLabelled().totalCount());
        // Leave the group so that the next instance gets the partitions at once, not after the session timeout.
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        streams.cleanUp(); // local RocksDB state is gone: only the changelogs remain

        startTraining(broker, appId, stateDir.resolve("second"));
        sendIris(topics, 100, 150);

        assertModelEquals(goldenIrisMle(), pipeline.awaitModelAbsorbingAllLabelled());
    }

    @Test
    void shouldSpreadSkewedClassesOverFourTasksAndAccountForEveryRecord(KafkaBroker broker) throws Exception {
        Topics topics = createTopics(broker);
        Random random = new Random(SEED);
        List<String> names = List.of("amount", "hour");
        List<LabelledRow> rows = new ArrayList<>();
        int bad = 0;
        for (int i = 0; i < 4000; i++) {
            int partition = i % PARTITIONS;
            byte[] value;
            if (i % 997 == 5) {
                value = "{\"features\": {\"amount\": 1".getBytes(StandardCharsets.UTF_8);
                bad++;
            } else {
                boolean fraud = random.nextDouble() < 0.01;
                double[] x = {fraud ? 900 + 50 * random.nextGaussian() : 40 + 10 * random.nextGaussian(),
                        fraud ? 3 + random.nextGaussian() : 14 + 4 * random.nextGaussian()};
                String label = fraud ? "fraud" : "ok";
                rows.add(new LabelledRow(x, label));
                value = labelledJson(names, x, label);
            }
            pipeline.send(topics.labelled().name(), partition, "tx-" + i, value);
        }
        String appId = startTraining(broker);

        ModelParameters model = pipeline.awaitModelAbsorbingAllLabelled();
        assertModelEquals(twoPassMle(names, rows), model);
        long fraud = rows.stream().filter(r -> r.label().equals("fraud")).count();
        assertTrue(fraud > 10 && fraud < 100, "about 1% fraud, got " + fraud);

        Set<String> activeTasks = streams.metadataForLocalThreads().stream()
                .flatMap(thread -> thread.activeTasks().stream())
                .map(TaskMetadata::taskId)
                .filter(id -> id.subtopology() == TrainingFixtures.STATISTICS_SUBTOPOLOGY)
                .map(Object::toString)
                .collect(Collectors.toSet());
        assertEquals(Set.of(0, 1, 2, 3).stream().map(p -> TrainingFixtures.STATISTICS_SUBTOPOLOGY + "_" + p)
                .collect(java.util.stream.Collectors.toSet()), activeTasks, "one statistics task per input partition");

        // The newest partial of every partition: all four tasks applied events, and applied + dead-lettered
        // equals the records of the partition.
        Map<Integer, Long> ends = broker.endOffsets(topics.labelled());
        List<ConsumerRecord<String, byte[]>> partials = broker.readUntil(TrainingTopology.partials(appId), records -> newestByPartition(records).values().stream()
                        .filter(p -> p.progress().nextOffset() == ends.get(p.progress().partition())).count()
                        == PARTITIONS,
                PipelineUnderTest.TIMEOUT);
        Map<Integer, PartialSnapshot> newest = newestByPartition(partials);
        assertEquals(Set.of(0, 1, 2, 3), newest.keySet());
        long deadLettered = 0;
        for (PartialSnapshot partial : newest.values()) {
            int p = partial.progress().partition();
            assertTrue(partial.progress().applied() > 0, "partition " + p + " applied events");
            assertEquals((long) ends.get(p), partial.progress().applied() + partial.progress().deadLettered(),
                    "applied + dead-lettered = records in, partition " + p);
            deadLettered += partial.progress().deadLettered();
        }
        assertEquals(bad, deadLettered);
        assertEquals(rows.size(), model.totalCount());

        int expectedBad = bad;
        List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readUntil(topics.deadLetters(), records -> records.size() >= expectedBad, PipelineUnderTest.TIMEOUT);
        for (ConsumerRecord<byte[], DeadLetter> letter : letters) {
            assertEquals(topics.labelled().name(), letter.value().topic());
            assertTrue(letter.value().reason().startsWith("malformed JSON"), letter.value().reason());
        }
    }

    private static Map<Integer, PartialSnapshot> newestByPartition(List<ConsumerRecord<String, byte[]>> records) {
        Map<Integer, PartialSnapshot> newest = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            PartialSnapshot partial = SerdeFactory.partialSnapshot().deserializer().deserialize(null, record.value());
            newest.merge(partial.progress().partition(), partial,
                    (a, b) -> a.progress().nextOffset() >= b.progress().nextOffset() ? a : b);
        }
        return newest;
    }
}
