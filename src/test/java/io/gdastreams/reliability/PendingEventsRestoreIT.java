package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.deleteRecursively;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.IrisEndToEndScenario;
import io.gdastreams.it.IrisGolden;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events held while no model exists survive crashes of the scorer: they live in the changelog-backed pending
 * store, not only in the crashed JVM. A scorer in a JVM of its own holds the first half of the Iris rows (no
 * model yet), is killed with SIGKILL and restarted on the same state directory, holds the second half on top of
 * the restored first (numbering must continue, not overwrite), is killed again and restarted on a WIPED state
 * directory (so the store can only come back from its changelog). Then comes a model that scores nothing (each class
 * seen once, below {@code gda.min.count}, as in the first models of a stream): the events stay held. Only then is a
 * model that can score published. Every held event must get exactly one committed answer, scored by that model at
 * the numpy golden posteriors, under its own key and id; nothing is answered before it. Entries written into the
 * changelog by hand before the last restart (one that is not JSON, one under a negative sequence, one under the largest,
 * one under a key of 3 bytes) neither stop the restored task nor get an answer: they are the only dead letters, with their
 * bytes.
 */
@ExtendWith(KafkaBrokerExtension.class)
class PendingEventsRestoreIT {

    private static final int PARTITIONS = 4;
    private static final String MODEL_ID = "held";
    /** Any version: the answers must carry the one published. */
    private static final long MODEL_VERSION = 42;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The changelog partition the forged entries go to, and their sequences and bytes. */
    private static final int FORGED_PARTITION = 1;
    private static final Map<Long, byte[]> FORGED = Map.of(1_000L, "{\"id\": ".getBytes(StandardCharsets.UTF_8),
            -7L, "-7".getBytes(StandardCharsets.UTF_8), Long.MAX_VALUE, "{}".getBytes(StandardCharsets.UTF_8));
    /** A forged entry under a key of 3 bytes: no sequence (a Long key would not even read). */
    private static final byte[] SHORT_KEY = {1, 2, 3};
    private static final Duration POLL = Duration.ofMillis(200);
    /** Rounds of the scorer's check for a model that can release held events (1 s apart by default). */
    private static final Duration RELEASE_CHECKS = ScoringSettings.DEFAULT_PENDING_CHECK_INTERVAL.multipliedBy(3);

    @TempDir
    Path dir;

    @Test
    void shouldScoreEveryHeldEventExactlyOnceAfterSigkillsAndARestartOnAWipedStateDirectory(KafkaBroker broker)
            throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        broker.createTopics(Map.of(topics.labelled().name(), 1, topics.unlabelled().name(), PARTITIONS, topics.model().name(), 1,
                topics.predictions().name(), PARTITIONS, topics.deadLetters().name(), 1));
        String applicationId = KafkaBroker.uniqueName("held-scoring");
        String changelog = applicationId + "-" + ScoringTopology.PENDING_STORE + "-changelog";
        Path stateDir = dir.resolve("state");
        IrisGolden golden = IrisGolden.fullMle();
        List<IrisGolden.Row> rows = golden.rows();
        List<IrisGolden.Row> firstHalf = rows.subList(0, rows.size() / 2);
        List<IrisGolden.Row> secondHalf = rows.subList(rows.size() / 2, rows.size());

        long t0 = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer();
             StreamsChildProcess scorer = new StreamsChildProcess(List.of("score", broker.bootstrapServers(),
                     applicationId, stateDir.toString(), topics.labelled().name(), topics.unlabelled().name(), topics.model().name(),
                     topics.predictions().name(), topics.deadLetters().name(), MODEL_ID), dir.resolve("logs"))) {
            scorer.start();
            awaitRunning(scorer);
            send(producer, topics, golden, firstHalf);
            assertEquals(ids(firstHalf), awaitHeld(broker, changelog, firstHalf.size(), scorer), "first half held");

            scorer.kill();
            scorer.start();
            awaitRunning(scorer);
            send(producer, topics, golden, secondHalf);
            assertEquals(ids(rows), awaitHeld(broker, changelog, rows.size(), scorer),
                    "second half held beside the restored first half");

            scorer.kill();
            deleteRecursively(stateDir);
            for (Map.Entry<Long, byte[]> forged : FORGED.entrySet()) {
                producer.send(new ProducerRecord<>(changelog, FORGED_PARTITION,
                        SerdeFactory.sequence().serializer().serialize(changelog, forged.getKey()),
                        forged.getValue())).get();
            }
            producer.send(new ProducerRecord<>(changelog, FORGED_PARTITION, SHORT_KEY, "short".getBytes(
                    StandardCharsets.UTF_8))).get();
            scorer.start();
            awaitRunning(scorer);
            assertEquals(0, broker.readAll(topics.predictions(), TIMEOUT).size(),
                    "no answer while there is no model");

            List<LabelledRow> onePerClass = List.of(Iris.rows().get(0), Iris.rows().get(50), Iris.rows().get(100));
            ModelParameters unscorable = Iris.model(MODEL_ID, MODEL_VERSION - 1, onePerClass);
            producer.send(new ProducerRecord<>(topics.model().name(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    topics.model().valueBytes(unscorable))).get();
            awaitLog(scorer, "version " + (MODEL_VERSION - 1) + " has no scorable class");
            Thread.sleep(RELEASE_CHECKS.toMillis());
            assertEquals(ids(rows), awaitHeld(broker, changelog, rows.size(), scorer),
                    "still held under a model in force that scores nothing");
            assertEquals(0, broker.readAll(topics.predictions(), TIMEOUT).size(),
                    "no answer from a model that scores nothing");

            ModelParameters model = Iris.model(MODEL_ID, MODEL_VERSION, Iris.rows());
            producer.send(new ProducerRecord<>(topics.model().name(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    topics.model().valueBytes(model))).get();
            awaitHeld(broker, changelog, 0, scorer);
            List<ConsumerRecord<byte[], byte[]>> answers = broker.readAll(topics.predictions().name(), TIMEOUT);
            System.out.printf("pending restore: %d held across 2 SIGKILLs (one restart on a wiped state directory),"
                    + " %d answers, %.1f s%n", rows.size(), answers.size(), (System.nanoTime() - t0) / 1e9);

            assertEquals(rows.size(), answers.size(), "exactly one answer per held event");
            Map<String, Prediction> byKey = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> answer : answers) {
                String key = new String(answer.key(), StandardCharsets.UTF_8);
                assertNull(byKey.put(key, SerdeFactory.prediction().deserializer().deserialize("p", answer.value())),
                        "second answer for " + key);
                var header = answer.headers().lastHeader("traceparent");
                assertEquals("trace-" + key, header == null ? null : new String(header.value(), StandardCharsets.UTF_8),
                        "the answer of a held event carries the header it came with");
            }
            for (IrisGolden.Row row : rows) {
                assertScoredAtTheGoldenPosteriors(row, byKey.get(key(row)));
            }
            List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readAll(topics.deadLetters(), TIMEOUT);
            assertEquals(FORGED.size() + 1, letters.size(), "only the forged entries are dead-lettered: " + letters);
            for (ConsumerRecord<byte[], DeadLetter> letter : letters) {
                DeadLetter dead = letter.value();
                if (dead.reason().contains("the entry under key 0x010203 ")) {
                    assertEquals(Base64.getEncoder().encodeToString("short".getBytes(StandardCharsets.UTF_8)),
                            dead.valueBase64());
                    continue;
                }
                long sequence = Long.parseLong(new String(Base64.getDecoder().decode(dead.keyBase64()),
                        StandardCharsets.UTF_8));
                assertEquals(Base64.getEncoder().encodeToString(FORGED.get(sequence)), dead.valueBase64());
                assertEquals(changelog, dead.topic());
                assertEquals(FORGED_PARTITION, dead.partition());
                assertTrue(dead.reason().startsWith("state store scoring-pending: the entry under sequence "
                        + sequence), dead.reason());
            }
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, Topics topics, IrisGolden golden,
                             List<IrisGolden.Row> rows) throws Exception {
        for (IrisGolden.Row row : rows) {
            // Each with its own trace header: held, killed, restored from the changelog, it is answered with it.
            producer.send(new ProducerRecord<>(topics.unlabelled().name(), row.index() % PARTITIONS, null,
                    key(row).getBytes(StandardCharsets.UTF_8), golden.unlabelledJson(row, id(row)),
                    new RecordHeaders().add("traceparent", trace(row)))).get();
        }
    }

    private static byte[] trace(IrisGolden.Row row) {
        return ("trace-" + key(row)).getBytes(StandardCharsets.UTF_8);
    }

    /** Waits for {@code STATE RUNNING} in the current start's log: topics and stores are in place. */
    private static void awaitRunning(StreamsChildProcess scorer) throws InterruptedException {
        awaitLog(scorer, "STATE RUNNING");
    }

    /** Waits for {@code text} in the log of the scorer's current start. */
    private static void awaitLog(StreamsChildProcess scorer, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!scorer.log().contains(text)) {
            assertTrue(scorer.isAlive(), "scorer died:\n" + scorer.log());
            assertTrue(System.nanoTime() < deadline, "no '" + text + "' after " + TIMEOUT + ":\n" + scorer.log());
            Thread.sleep(POLL.toMillis());
        }
    }

    /**
     * Waits until the committed changelog of the pending store holds exactly {@code expected} live entries, and
     * returns their event ids: what a restore from scratch would put back.
     */
    private static TreeSet<String> awaitHeld(KafkaBroker broker, String changelog, int expected,
                                             StreamsChildProcess scorer) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            Map<String, PendingEvent> live = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> r : broker.readAll(changelog, TIMEOUT)) {
                if (r.key().length != Long.BYTES) {
                    continue; // the forged short key: not a held event
                }
                long sequence = SerdeFactory.sequence().deserializer().deserialize(changelog, r.key());
                String entry = r.partition() + "/" + sequence;
                if (r.partition() == FORGED_PARTITION && FORGED.containsKey(sequence)) {
                    continue; // not a held event
                }
                if (r.value() == null) {
                    live.remove(entry);
                } else {
                    live.put(entry, SerdeFactory.pendingEvent().deserializer().deserialize(changelog, r.value()));
                }
            }
            if (live.size() == expected) {
                return live.values().stream().map(PendingEvent::id).collect(Collectors.toCollection(TreeSet::new));
            }
            assertTrue(scorer.isAlive(), "scorer died:\n" + scorer.log());
            assertTrue(System.nanoTime() < deadline, live.size() + " held events in " + changelog + ", expected "
                    + expected + "\nscorer log:\n" + scorer.allLogs());
            Thread.sleep(POLL.toMillis());
        }
    }

    private static void assertScoredAtTheGoldenPosteriors(IrisGolden.Row row, Prediction p) {
        String where = "row " + row.index();
        assertTrue(p != null, where + " has an answer");
        assertEquals(Prediction.Status.SCORED, p.status(), where + " " + p.reason());
        assertEquals(id(row) != null ? id(row) : key(row), p.id(), where + " id");
        assertEquals(MODEL_ID, p.modelId(), where);
        assertEquals(MODEL_VERSION, p.modelVersion(), where + " scored by the published model");
        assertEquals(row.probabilities().keySet(), p.probabilities().keySet(), where + " classes");
        for (Map.Entry<String, Double> expected : row.probabilities().entrySet()) {
            assertEquals(expected.getValue(), p.probabilities().get(expected.getKey()),
                    IrisEndToEndScenario.POSTERIOR_TOLERANCE, where + " p(" + expected.getKey() + " | x)");
        }
        assertEquals(row.logDensity(), p.logDensity(), IrisEndToEndScenario.POSTERIOR_TOLERANCE, where + " log p(x)");
    }

    private static TreeSet<String> ids(List<IrisGolden.Row> rows) {
        return rows.stream().map(r -> id(r) != null ? id(r) : key(r)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String key(IrisGolden.Row row) {
        return "row-" + row.index();
    }

    /** Every third event names an id of its own (kept apart from its key); the others are known by their key. */
    private static String id(IrisGolden.Row row) {
        return row.index() % 3 == 0 ? "event-" + row.index() : null;
    }
}
