package io.gdastreams.reliability;

import static io.gdastreams.reliability.DeadLetterChecks.assertDeadLetterOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.HostileRecords.Expectation;
import io.gdastreams.reliability.HostileRecords.Hostile;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import io.gdastreams.topology.TrainingTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole hostile catalogue on both input topics of a running trainer and scorer on a real broker
 * (exactly_once_v2): nothing stops either application, every bad record is dead-lettered once with its precise
 * reason and source, and every record in is accounted for.
 */
@ExtendWith(KafkaBrokerExtension.class)
class HostileInputIT {

    private static final String MODEL_ID = "hostile";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path stateDir;

    private final List<KafkaStreams> running = new ArrayList<>();
    private final List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stop() {
        running.forEach(s -> s.close(Duration.ofSeconds(30)));
    }

    private KafkaStreams start(KafkaBroker broker, String name, org.apache.kafka.streams.Topology topology) {
        KafkaStreams streams = new KafkaStreams(topology,
                broker.streamsProperties(KafkaBroker.uniqueName(name), stateDir.resolve(name)));
        streams.setUncaughtExceptionHandler(e -> {
            uncaught.add(e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        running.add(streams);
        return streams;
    }

    /** Sends one record and returns where it landed, or fails for a record the test expects to be sendable. */
    private static RecordMetadata send(KafkaProducer<byte[], byte[]> producer, String topic, byte[] key,
                                       byte[] value) throws Exception {
        return producer.send(new ProducerRecord<>(topic, 0, key, value)).get();
    }

    private static RecordMetadata send(KafkaProducer<byte[], byte[]> producer, String topic, Hostile hostile)
            throws Exception {
        return producer.send(new ProducerRecord<>(topic, 0, hostile.key(), hostile.value(), hostile.headers()))
                .get();
    }

    @Test
    void shouldDeadLetterEveryHostileKindOnBothTopicsAndKeepBothApplicationsRunning(KafkaBroker broker)
            throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        broker.createTopics(Map.of(topics.labelled().name(), 1, topics.unlabelled().name(), 1, topics.model().name(), 1,
                topics.predictions().name(), 1, topics.deadLetters().name(), 1));
        KafkaStreams trainer = start(broker, "hostile-train", TrainingTopology.build(TrainingSettings.defaults(topics)
                .withModelId(MODEL_ID).withFeatures(HostileRecords.FEATURES)
                .withPublishInterval(Duration.ofMillis(200)), GroupCommittedInput::open));
        KafkaStreams scorer = start(broker, "hostile-score",
                ScoringTopology.build(ScoringSettings.defaults(MODEL_ID).withTopics(topics)));

        List<LabelledRow> iris = Iris.rows();
        List<Hostile> catalogue = HostileRecords.catalogue();
        Map<String, Map<Long, Hostile>> badAt = Map.of(topics.labelled().name(), new HashMap<>(), topics.unlabelled().name(),
                new HashMap<>());
        long[] validLabelled = new long[1];
        int refused = 0;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            // Labelled: every Iris row, with the catalogue interleaved.
            for (int i = 0; i < iris.size(); i++) {
                send(producer, topics.labelled().name(), ("v" + i).getBytes(StandardCharsets.UTF_8),
                        HostileRecords.validEvent(iris.get(i).x(), iris.get(i).label()));
                validLabelled[0]++;
                if (i < catalogue.size()) {
                    refused += sendHostile(producer, topics.labelled().name(), catalogue.get(i),
                            catalogue.get(i).labelled(), badAt, validLabelled);
                }
            }
            ModelParameters model = awaitModel(broker, topics);
            assertEquals(validLabelled[0], model.totalCount(), "applied = valid labelled events");

            // Unlabelled: the same, now that the model is in force.
            long[] validUnlabelled = new long[1];
            for (int i = 0; i < iris.size(); i++) {
                send(producer, topics.unlabelled().name(), ("u" + i).getBytes(StandardCharsets.UTF_8),
                        HostileRecords.validEvent(iris.get(i).x(), iris.get(i).label()));
                validUnlabelled[0]++;
                if (i < catalogue.size()) {
                    refused += sendHostile(producer, topics.unlabelled().name(), catalogue.get(i),
                            catalogue.get(i).unlabelled(), badAt, validUnlabelled);
                }
            }
            long badLabelled = badAt.get(topics.labelled().name()).size();
            long badUnlabelled = badAt.get(topics.unlabelled().name()).size();
            long unlabelledIn = validUnlabelled[0] + badUnlabelled;

            List<ConsumerRecord<byte[], byte[]>> predictions = broker.readUntil(topics.predictions().name(),
                    SerdeFactory.rawBytes().deserializer(), SerdeFactory.rawBytes().deserializer(),
                    r -> r.size() >= unlabelledIn, TIMEOUT);
            List<ConsumerRecord<byte[], byte[]>> dead = broker.readUntil(topics.deadLetters().name(),
                    SerdeFactory.rawBytes().deserializer(), SerdeFactory.rawBytes().deserializer(),
                    r -> r.size() >= badLabelled + badUnlabelled, TIMEOUT);

            long scored = 0;
            for (ConsumerRecord<byte[], byte[]> r : predictions) {
                Prediction p = SerdeFactory.prediction().deserializer().deserialize("p", r.value());
                scored += p.status() == Prediction.Status.SCORED ? 1 : 0;
            }
            Map<String, Long> deadByTopic = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                DeadLetter letter = SerdeFactory.deadLetter().deserializer().deserialize("d", r.value());
                deadByTopic.merge(letter.topic(), 1L, Long::sum);
                Hostile hostile = badAt.get(letter.topic()).get(letter.offset());
                assertTrue(hostile != null, "a dead letter for a record that was not bad: " + letter.topic() + "@"
                        + letter.offset() + ": " + DeadLetterChecks.abbreviate(letter.reason()));
                Expectation expected = letter.topic().equals(topics.labelled().name()) ? hostile.labelled()
                        : hostile.unlabelled();
                assertDeadLetterOf(hostile, expected.reasonFragment(), letter, letter.topic(), 0, letter.offset());
                List<Header> carried = List.of(r.headers().toArray());
                assertEquals(HostileRecords.headersCarried(hostile) ? hostile.headers() : List.of(), carried,
                        hostile.kind() + ": headers of its dead letter");
            }
            System.out.printf("hostile: %d kinds; labelled in %d = applied %d + dead-lettered %d; unlabelled in %d ="
                            + " scored %d + dead-lettered %d; %d refused by the producer%n", catalogue.size(),
                    validLabelled[0] + badLabelled, model.totalCount(), deadByTopic.get(topics.labelled().name()),
                    unlabelledIn, scored, deadByTopic.get(topics.unlabelled().name()), refused);

            assertEquals(badLabelled, deadByTopic.get(topics.labelled().name()), "labelled dead letters");
            assertEquals(badUnlabelled, deadByTopic.get(topics.unlabelled().name()), "unlabelled dead letters");
            assertEquals(unlabelledIn, predictions.size(), "one answer per unlabelled event");
            assertEquals(unlabelledIn, scored + badUnlabelled, "unlabelled in = scored + dead-lettered");
            assertTrue(badLabelled >= 25 && badUnlabelled >= 25, badLabelled + " / " + badUnlabelled + " bad kinds");
            assertEquals(2, refused, "the over-limit record is refused on each topic");
        }
        assertTrue(uncaught.isEmpty(), "no stream thread died: " + uncaught);
        assertEquals(KafkaStreams.State.RUNNING, trainer.state());
        assertEquals(KafkaStreams.State.RUNNING, scorer.state());
    }

    /**
     * Sends a hostile record and notes where it landed when it must be dead-lettered there; a record the
     * producer refuses (over the broker's size limit) is checked to be refused, for exactly that reason, and
     * counted as such. Returns 1 when refused.
     */
    private static int sendHostile(KafkaProducer<byte[], byte[]> producer, String topic, Hostile hostile,
                                   Expectation expectation, Map<String, Map<Long, Hostile>> badAt, long[] valid)
            throws Exception {
        if (!hostile.producible()) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> send(producer, topic, hostile), hostile.kind());
            assertInstanceOf(RecordTooLargeException.class, e.getCause(), hostile.kind());
            return 1;
        }
        RecordMetadata where = send(producer, topic, hostile);
        if (expectation.deadLettered()) {
            badAt.get(topic).put(where.offset(), hostile);
        } else {
            valid[0]++;
        }
        return 0;
    }

    private static ModelParameters awaitModel(KafkaBroker broker, Topics topics) {
        long end = broker.endOffsets(topics.labelled()).get(0);
        List<ConsumerRecord<String, ModelParameters>> models = broker.readUntil(topics.model(), r -> !r.isEmpty() && r.get(r.size() - 1).value().sources().getOrDefault("0", -1L) == end, TIMEOUT);
        return models.get(models.size() - 1).value();
    }
}
