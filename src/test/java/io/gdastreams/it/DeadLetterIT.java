package io.gdastreams.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.TrainingFixtures;
import io.gdastreams.topology.TrainingTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad records on both input topics, among good ones, on a real broker: each ends on the dead-letter topic with
 * its reason, its source topic/partition/offset and its original bytes, and every record in is accounted for
 * (training: applied + dead-lettered = records per partition; scoring: one output per input, scored +
 * dead-lettered = records in). The good records still give the golden model.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DeadLetterIT {

    private static final int PARTITIONS = 4;
    /** Good rows sent before the bad labelled records: every partition has fixed its schema by then. */
    private static final int GOOD_BEFORE_BAD = 100;
    /** Every fifth Iris row is sent again, unlabelled. */
    private static final int SCORE_STRIDE = 5;

    /** A record the topologies cannot use, where it went, and the reason it must be dead-lettered with. */
    private record BadRecord(String key, byte[] value, String reason, RecordMetadata sentTo) {
    }

    @Test
    void shouldDeadLetterBadRecordsOfBothInputTopicsAndAccountForEveryRecord(KafkaBroker broker,
                                                                           @TempDir Path stateDir) {
        IrisGolden golden = IrisGolden.fullMle();
        List<IrisGolden.Row> rows = golden.rows();
        try (PipelineUnderTest pipeline = PipelineUnderTest.create(broker, PARTITIONS);
             StreamsInstances instances = new StreamsInstances()) {
            String trainingId = UniqueNames.of("training-dl");
            instances.start(TrainingTopology.build(pipeline.trainingSettings(), GroupCommittedInput::open),
                    broker.streamsProperties(trainingId, stateDir.resolve("training")));
            KafkaStreams scoring = instances.start(
                    ScoringTopology.build(pipeline.scoringSettings(golden.fitOptions())),
                    broker.streamsProperties(UniqueNames.of("scoring-dl"), stateDir.resolve("scoring")));
            String labelled = pipeline.topics().labelled().name();

            for (IrisGolden.Row row : rows.subList(0, GOOD_BEFORE_BAD)) {
                pipeline.send(labelled, row.index() % PARTITIONS, "row-" + row.index(), golden.labelledJson(row));
            }
            List<BadRecord> badLabelled = new ArrayList<>();
            badLabelled.add(sendBad(pipeline, labelled, 0, "{\"features\": {\"sepal_length\": 5.1", "malformed JSON"));
            badLabelled.add(sendBad(pipeline, labelled, 1, "{\"features\": {\"sepal_length\": 5.1, \"sepal_width\": "
                    + "3.5, \"petal_length\": 1.4, \"petal_width\": 0.2}}", "missing label"));
            badLabelled.add(sendBad(pipeline, labelled, 2, "{\"features\": {\"sepal_length\": 5.1, \"sepal_width\": "
                    + "3.5, \"petal_length\": 1.4}, \"label\": \"setosa\"}", "feature set differs from the schema"));
            badLabelled.add(sendBad(pipeline, labelled, 3, "{\"features\": {\"sepal_length\": 5.1, \"sepal_width\": "
                    + "3.5, \"petal_length\": 1.4, \"petal_width\": \"wide\"}, \"label\": \"setosa\"}",
                    "feature 'petal_width' is not a number"));
            badLabelled.add(sendBad(pipeline, labelled, 0, null, "null value (tombstone)"));
            badLabelled.add(sendBad(pipeline, labelled, 1, "", "empty value"));
            for (IrisGolden.Row row : rows.subList(GOOD_BEFORE_BAD, rows.size())) {
                pipeline.send(labelled, row.index() % PARTITIONS, "row-" + row.index(), golden.labelledJson(row));
            }

            ModelParameters model = pipeline.awaitModelAbsorbingAllLabelled();
            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), model);
            assertTrainingAccountsForEveryRecord(pipeline, trainingId, rows.size(), badLabelled.size());

            pipeline.awaitModelInForce(scoring, model.version());
            String unlabelled = pipeline.topics().unlabelled().name();
            List<BadRecord> badUnlabelled = new ArrayList<>();
            List<String> goodKeys = new ArrayList<>();
            for (int i = 0; i < rows.size(); i += SCORE_STRIDE) {
                IrisGolden.Row row = rows.get(i);
                pipeline.send(unlabelled, row.index() % PARTITIONS, "row-" + row.index(),
                        golden.unlabelledJson(row, null));
                goodKeys.add("row-" + row.index());
                if (i == 10 * SCORE_STRIDE) {
                    badUnlabelled.add(sendBad(pipeline, unlabelled, 0, "{\"features\": {", "malformed JSON"));
                    badUnlabelled.add(sendBad(pipeline, unlabelled, 1, "[5.1, 3.5, 1.4, 0.2]",
                            "expected a JSON object, got array"));
                    badUnlabelled.add(sendBad(pipeline, unlabelled, 2, null, "null value (tombstone)"));
                    badUnlabelled.add(sendBad(pipeline, unlabelled, 3, "{\"features\": {\"sepal_length\": \"wide\"}}",
                            "feature 'sepal_length' is not a number"));
                    badUnlabelled.add(sendBad(pipeline, unlabelled, 0, "{\"id\": \"no-features\"}",
                            "missing features"));
                }
            }
            assertScoringAccountsForEveryRecord(pipeline, goodKeys, badUnlabelled, model.version());

            List<BadRecord> bad = new ArrayList<>(badLabelled);
            bad.addAll(badUnlabelled);
            assertDeadLetters(pipeline, bad);
        }
    }

    private static BadRecord sendBad(PipelineUnderTest pipeline, String topic, int partition, String value,
                                     String reason) {
        String key = "bad-" + topic.substring(0, topic.indexOf('-')) + "-" + partition + "-" + reason.hashCode();
        byte[] bytes = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
        return new BadRecord(key, bytes, reason, pipeline.send(topic, partition, key, bytes));
    }

    /** The newest partial of every partition: applied + dead-lettered = the partition's records. */
    private static void assertTrainingAccountsForEveryRecord(PipelineUnderTest pipeline, String trainingId,
                                                             int good, int bad) {
        TestBroker broker = pipeline.broker();
        Map<Integer, Long> ends = broker.endOffsets(pipeline.topics().labelled());
        List<ConsumerRecord<String, PartialSnapshot>> partials = broker.readUntil(
                TrainingTopology.partials(trainingId).name(), SerdeFactory.string().deserializer(),
                SerdeFactory.partialSnapshot().deserializer(), records -> {
                    Map<Integer, PartialSnapshot> newest = newestByPartition(records);
                    return newest.size() == PARTITIONS && newest.values().stream()
                            .allMatch(p -> p.progress().nextOffset() == ends.get(p.progress().partition()));
                }, PipelineUnderTest.TIMEOUT);
        Map<Integer, PartialSnapshot> newest = newestByPartition(partials);
        long applied = 0;
        long deadLettered = 0;
        for (PartialSnapshot partial : newest.values()) {
            int p = partial.progress().partition();
            assertEquals((long) ends.get(p), partial.progress().recordsRead(),
                    "applied + dead-lettered = records in, partition " + p);
            assertEquals(partial.progress().applied(), partial.classCount(), "statistics hold the applied events");
            applied += partial.progress().applied();
            deadLettered += partial.progress().deadLettered();
        }
        assertEquals(good, applied, "applied");
        assertEquals(bad, deadLettered, "dead-lettered");
    }

    private static Map<Integer, PartialSnapshot> newestByPartition(
            List<ConsumerRecord<String, PartialSnapshot>> records) {
        Map<Integer, PartialSnapshot> newest = new TreeMap<>();
        for (ConsumerRecord<String, PartialSnapshot> record : records) {
            newest.merge(record.value().progress().partition(), record.value(),
                    (a, b) -> a.progress().nextOffset() >= b.progress().nextOffset() ? a : b);
        }
        return newest;
    }

    /** One output per input: the good ones scored with the model in force, the bad ones unscored with a reason. */
    private static void assertScoringAccountsForEveryRecord(PipelineUnderTest pipeline, List<String> goodKeys,
                                                            List<BadRecord> bad, long modelVersion) {
        TestBroker broker = pipeline.broker();
        int in = goodKeys.size() + bad.size();
        broker.readUntil(pipeline.topics().predictions().name(), SerdeFactory.string().deserializer(), pipeline.topics().predictions().valueDeserializer(), records -> records.size() >= in, PipelineUnderTest.TIMEOUT);
        List<ConsumerRecord<String, Prediction>> outputs = broker.readAll(pipeline.topics().predictions().name(),
                SerdeFactory.string().deserializer(), pipeline.topics().predictions().valueDeserializer(),
                PipelineUnderTest.TIMEOUT);
        assertEquals(in, outputs.size(), "one output per unlabelled record");
        Map<String, Prediction> byKey = new HashMap<>();
        outputs.forEach(r -> byKey.put(r.key(), r.value()));
        long scored = 0;
        for (String key : goodKeys) {
            Prediction p = byKey.get(key);
            assertNotNull(p, key);
            assertEquals(Prediction.Status.SCORED, p.status(), key + ": " + p.reason());
            assertEquals(modelVersion, p.modelVersion(), key);
            scored++;
        }
        for (BadRecord record : bad) {
            Prediction p = byKey.get(record.key());
            assertNotNull(p, record.key());
            assertEquals(Prediction.Status.UNSCORED, p.status(), record.key());
            assertTrue(p.reason().startsWith("invalid event: " + record.reason()), record.key() + ": " + p.reason());
        }
        assertEquals(in, scored + bad.size(), "scored + dead-lettered = records in");
    }

    /** Exactly the bad records, each with its reason, source topic/partition/offset and original bytes. */
    private static void assertDeadLetters(PipelineUnderTest pipeline, List<BadRecord> bad) {
        TestBroker broker = pipeline.broker();
        broker.readUntil(pipeline.topics().deadLetters(), records -> records.size() >= bad.size(),
                PipelineUnderTest.TIMEOUT);
        List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readAll(pipeline.topics().deadLetters(), PipelineUnderTest.TIMEOUT);
        assertEquals(bad.size(), letters.size(), "one dead letter per bad record");
        Map<String, DeadLetter> byPosition = new HashMap<>();
        for (ConsumerRecord<byte[], DeadLetter> letter : letters) {
            DeadLetter d = letter.value();
            assertEquals(null, byPosition.put(d.topic() + "-" + d.partition() + "@" + d.offset(), d),
                    "second dead letter for " + d.topic() + "-" + d.partition() + "@" + d.offset());
        }
        for (BadRecord record : bad) {
            RecordMetadata at = record.sentTo();
            String position = at.topic() + "-" + at.partition() + "@" + at.offset();
            DeadLetter d = byPosition.get(position);
            assertNotNull(d, "dead letter for " + position + " (" + record.reason() + ")");
            assertTrue(d.reason().contains(record.reason()), position + ": " + d.reason());
            assertEquals(base64(record.key().getBytes(StandardCharsets.UTF_8)), d.keyBase64(), position + " key");
            assertEquals(base64(record.value()), d.valueBase64(), position + " original value");
        }
    }

    private static String base64(byte[] bytes) {
        return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
    }
}
