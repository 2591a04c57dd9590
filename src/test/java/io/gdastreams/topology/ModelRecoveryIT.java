package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.StreamsInstances;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.TopicProvisioner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broken record on the compacted model topic, across scorer restarts and a real compaction: while the last
 * valid model is still on the topic a restarted scorer uses it; once compaction has left only the broken record
 * under the key, a restarted scorer has no model, says so and holds events, and scores them with the next valid
 * model the trainer publishes (here the same version 1 again: a scorer holding nothing takes any valid model).
 */
@ExtendWith(KafkaBrokerExtension.class)
class ModelRecoveryIT {

    private static final String MODEL_ID = "recovery";
    private static final long SEED = 20260607L;
    /** Events the scorer holds (one input partition) while it has no model; the next one is answered at once. */
    private static final int MAX_PENDING = 3;
    private static final Duration RUNNING = Duration.ofSeconds(60);
    private static final Duration ANSWERS = Duration.ofSeconds(60);
    /** The broker's log cleaner looks for work every 15 s (log.cleaner.backoff.ms); allow several rounds. */
    private static final Duration COMPACTION = Duration.ofSeconds(120);
    /** Segments of the model topic roll after this long, so that the broken record leaves the active segment. */
    private static final long SEGMENT_MS = 100;

    @TempDir
    Path stateDir;

    private static byte[] event(String id, LabelledRow row) {
        try {
            return Json.mapper().writeValueAsBytes(Map.of("id", id, "features", row.features(Iris.FEATURES)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] garbage() {
        byte[] noise = new byte[128];
        new Random(SEED).nextBytes(noise);
        return noise;
    }

    private static void createTopics(KafkaBroker broker, Topics topics) {
        NewTopic model = new NewTopic(topics.model().name(), 1, (short) 1).configs(Map.of(
                "cleanup.policy", "compact",
                "segment.ms", Long.toString(SEGMENT_MS),
                "min.cleanable.dirty.ratio", "0.01",
                "min.compaction.lag.ms", "0",
                "delete.retention.ms", "100"));
        List<NewTopic> all = List.of(model, new NewTopic(topics.unlabelled().name(), 1, (short) 1),
                new NewTopic(topics.predictions().name(), 1, (short) 1), new NewTopic(topics.deadLetters().name(), 1, (short) 1));
        try {
            broker.admin().createTopics(all).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        TopicProvisioner.awaitServed(broker.admin(), all.stream().map(NewTopic::name).toList());
    }

    @Test
    void shouldUseTheLastValidModelAfterARestartAndHoldEventsWhenCompactionLeftOnlyABrokenRecord(
            KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        createTopics(broker, topics);
        ScoringSettings settings = ScoringSettings.defaults(MODEL_ID).withTopics(topics).withMaxPending(MAX_PENDING);
        Properties props = broker.streamsProperties(KafkaBroker.uniqueName("scorer"), stateDir);
        List<LabelledRow> rows = Iris.rows();
        byte[] v1 = topics.model().valueBytes(Iris.model(MODEL_ID, 1, rows));
        int sent = 0;

        try (KafkaProducer<byte[], byte[]> producer = broker.producer();
             StreamsInstances instances = new StreamsInstances()) {
            producer.send(new ProducerRecord<>(topics.model().name(), key(MODEL_ID), v1)).get();

            // 1. A running scorer with v1 refuses the broken record and keeps scoring with v1.
            CompiledModelCache first = cache(settings);
            KafkaStreams scorer = instances.start(ScoringTopology.build(settings, first), props);
            StreamsInstances.awaitRunning(RUNNING, scorer);
            producer.send(new ProducerRecord<>(topics.model().name(), key(MODEL_ID), garbage())).get();
            Await.until("the broken record is counted", ANSWERS, () -> first.invalidRecords() == 1,
                    () -> first.invalidRecords() + " invalid records");
            sent = sendEvents(producer, topics, rows, sent, 2);
            assertAllScoredWithVersion1(answers(broker, topics, sent), 0, sent);
            instances.stop(scorer);

            // 2. Restarted before compaction: the store is rebuilt from [v1, broken], and v1 is in force again.
            CompiledModelCache second = cache(settings);
            scorer = instances.start(ScoringTopology.build(settings, second), props);
            StreamsInstances.awaitRunning(RUNNING, scorer);
            int before = sent;
            sent = sendEvents(producer, topics, rows, sent, 2);
            assertAllScoredWithVersion1(answers(broker, topics, sent), before, sent);
            assertEquals(1, second.invalidRecords());
            instances.stop(scorer);

            // 3. Compaction: roll the broken record out of the active segment (a record of another model after
            // segment.ms), then wait until the cleaner has removed v1.
            Thread.sleep(2 * SEGMENT_MS);
            producer.send(new ProducerRecord<>(topics.model().name(), key("another-model"), garbage())).get();
            awaitOnlyBrokenRecordUnder(broker, topics);

            // 4. Restarted after compaction: no valid model. Events are held up to the bound; the next one is
            // answered at once, and the answer says why there is no model.
            CompiledModelCache third = cache(settings);
            scorer = instances.start(ScoringTopology.build(settings, third), props);
            StreamsInstances.awaitRunning(RUNNING, scorer);
            assertTrue(third.current().isEmpty(), "nothing valid left on the topic");
            assertEquals(1, third.invalidRecords());
            int heldFrom = sent;
            sent = sendEvents(producer, topics, rows, sent, MAX_PENDING + 1);
            List<ConsumerRecord<String, Prediction>> out = answers(broker, topics, heldFrom + 1);
            Prediction beyondBound = out.get(heldFrom).value();
            assertEquals("e" + (heldFrom + MAX_PENDING), beyondBound.id(), "the first events are held");
            assertEquals(Status.UNSCORED, beyondBound.status());
            assertTrue(beyondBound.reason().startsWith("no model yet (no valid record of model '" + MODEL_ID
                    + "': 1 invalid, the last at " + topics.model() + "-0 offset 1: "), beyondBound.reason());

            // 5. The trainer re-publishes version 1: the held events are scored with it.
            producer.send(new ProducerRecord<>(topics.model().name(), key(MODEL_ID), v1)).get();
            out = answers(broker, topics, sent);
            assertAllScoredWithVersion1(out, heldFrom, heldFrom + MAX_PENDING);
            assertEquals(1, third.compilations());
        }
    }

    private static CompiledModelCache cache(ScoringSettings settings) {
        return CompiledModelCache.of(settings);
    }

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Sends {@code count} Iris events with ids e{sent}, e{sent+1}, ...; returns the new total. */
    private static int sendEvents(KafkaProducer<byte[], byte[]> producer, Topics topics, List<LabelledRow> rows,
                                  int sent, int count) throws Exception {
        for (int i = sent; i < sent + count; i++) {
            producer.send(new ProducerRecord<>(topics.unlabelled().name(), key("k" + i),
                    event("e" + i, rows.get((i * 37) % rows.size())))).get();
        }
        return sent + count;
    }

    /** The answers on the predictions topic, in order, once there are {@code count}. */
    private static List<ConsumerRecord<String, Prediction>> answers(KafkaBroker broker, Topics topics, int count) {
        List<ConsumerRecord<String, Prediction>> out = broker.readUntil(topics.predictions().name(),
                SerdeFactory.string().deserializer(), topics.predictions().valueDeserializer(),
                records -> records.size() >= count, ANSWERS);
        assertEquals(count, out.size(), "exactly one answer per event");
        return out;
    }

    /** Answers to e{from} .. e{to - 1} (in any order within the list) are scored with version 1. */
    private static void assertAllScoredWithVersion1(List<ConsumerRecord<String, Prediction>> out, int from, int to) {
        for (int i = from; i < to; i++) {
            String id = "e" + i;
            Prediction p = out.stream().map(ConsumerRecord::value).filter(v -> id.equals(v.id())).findFirst()
                    .orElseThrow(() -> new AssertionError("no answer for " + id));
            assertEquals(Status.SCORED, p.status(), () -> id + ": " + p.reason());
            assertEquals(1L, p.modelVersion(), id);
        }
    }

    /** Waits until the only record left under the model's key is the broken one (offset 1). */
    private static void awaitOnlyBrokenRecordUnder(KafkaBroker broker, Topics topics) {
        long deadline = System.nanoTime() + COMPACTION.toNanos();
        while (true) {
            List<Long> offsets = broker.readAll(topics.modelRecords(), Duration.ofSeconds(30)).stream()
                    .filter(r -> MODEL_ID.equals(r.key())).map(ConsumerRecord::offset).toList();
            if (offsets.equals(List.of(1L))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the model topic was not compacted within " + COMPACTION
                        + "; offsets under the key: " + offsets);
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
