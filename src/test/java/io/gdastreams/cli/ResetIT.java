package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.HostileRecords;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.service.HeldEventsOnBroker;
import io.gdastreams.topology.InternalTopics;
import io.gdastreams.topology.ModelSigning;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code reset} on a real broker after the product's {@code train} ran: the dry run lists the internal topics, the
 * committed offsets and the local state and changes nothing; --execute removes them and hands the trainer's model
 * over with its lineage (sources, retractions); the same trainer started again retrains from zero (every event
 * counted once, not twice) and publishes above. A scorer reset with {@code --keep-offsets} (after the unlabelled
 * topic grew a partition, which needs one) answers no event twice, and is refused while the scorer holds events.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ResetIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int PARTITIONS = 2;
    private static final int RETRACTED = 3;
    /** Unlabelled events held by a scorer with no model, then sent after its reset. */
    private static final int HELD = 4;
    private static final int AFTER = 9;

    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {
    }

    /** The trainer's signing key (environment only), and a key that verifies none of its models. */
    private static final String KEYS = "k1:reset-it-signing-secret-0123456789";
    private static final String OTHER_KEYS = "k2:another-signing-secret-0123456789";

    private static Outcome run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    /**
     * Signed: the trainer signs its models, and the hand-over must be signed too, or the retrained trainer (which
     * refuses unsigned records) did not see it and numbered its models from 1 again, under versions the topic
     * already held; reset with keys that verify none of the models refuses (exit 2) and changes nothing.
     */
    @ParameterizedTest(name = "signed models: {0}")
    @ValueSource(booleans = {false, true})
    void shouldListThenRemoveTheTrainersStateSoThatItRetrainsFromZero(boolean signed, KafkaBroker broker)
            throws Exception {
        Map<String, String> env = signed ? Map.of("GDA_MODEL_SIGNING_KEY", KEYS) : Map.of();
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String appId = UniqueNames.of("reset");
        String trainer = appId + "-training";
        Path stateDir = dir.resolve("state");
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris", appId,
                stateDir, PARTITIONS);
        List<LabelledRow> rows = Iris.rows();
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train").withEnvironment(env);
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            train.start();
            train.awaitRunning(TIMEOUT);
            for (int i = 0; i < rows.size(); i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + i).getBytes(
                        StandardCharsets.UTF_8), HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label())))
                        .get();
            }
            // Retractions of the first rows (same key: the partition of the event), so that the lineage the
            // hand-over must carry has retractions: 150 events absorbed, 147 in the classes.
            for (int i = 0; i < RETRACTED; i++) {
                String event = new String(HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label()),
                        StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + i).getBytes(
                        StandardCharsets.UTF_8), (event.substring(0, event.lastIndexOf('}')) + ", \"retract\": true}")
                        .getBytes(StandardCharsets.UTF_8))).get();
            }
            List<ConsumerRecord<String, ModelParameters>> before = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, train::assertAlive);
            ModelParameters trained = before.get(before.size() - 1).value();
            assertEquals(150 - RETRACTED, trained.totalCount());
            assertEquals(RETRACTED, trained.retracted());
            train.sigterm();
            // Another application's changelog whose name begins with this trainer's application id (its
            // gda.application.id is this trainer's id, so its trainer's id is <trainer>-training): not to be touched.
            String bystander = trainer + "-training-" + TrainingTopology.CLASS_STATS_STORE + "-changelog";
            broker.admin().createTopics(List.of(new NewTopic(bystander, 1, (short) 1))).all().get();
            Set<String> internal = internalTopics(broker, appId);
            assertFalse(internal.isEmpty());
            assertTrue(Files.exists(stateDir.resolve(trainer)));

            String[] reset = {"reset", "--config", train.configFile().toString(), "--role", "training"};
            if (signed) {
                Outcome refused = run(Map.of("GDA_MODEL_SIGNING_KEY", OTHER_KEYS), concat(reset, "--execute"));
                assertEquals(ExitCodes.USAGE, refused.code(), refused.out() + refused.err());
                assertTrue(refused.err().contains("passes the signature check of the configured keys"),
                        refused.err());
                assertEquals(internal, internalTopics(broker, appId), "a refused reset changes nothing");
            }
            Outcome dry = run(env, reset);
            assertEquals(ExitCodes.OK, dry.code(), dry.err());
            assertTrue(dry.out().startsWith("Dry run"), dry.out());
            assertFalse(dry.out().contains(bystander), dry.out());
            for (String topic : internal) {
                assertTrue(dry.out().contains(topic), topic + " listed: " + dry.out());
            }
            Map<Integer, Long> ends = broker.endOffsets(topics.labelled());
            for (Map.Entry<Integer, Long> end : ends.entrySet()) {
                assertTrue(dry.out().contains(topics.labelled().name() + "-" + end.getKey() + " at " + end.getValue()),
                        "committed offset listed: " + dry.out());
            }
            assertTrue(dry.out().contains("local state: " + stateDir.resolve(trainer)) && !dry.out().contains(
                    "(none)"), dry.out());
            assertTrue(dry.out().contains("version " + trained.version() + " (published by " + trainer
                    + "): republished as version " + (trained.version() + 1)), dry.out());
            assertEquals(internal, internalTopics(broker, appId), "a dry run changes nothing");
            assertTrue(Files.exists(stateDir.resolve(trainer)));
            assertFalse(broker.admin().listConsumerGroupOffsets(trainer).partitionsToOffsetAndMetadata().get()
                    .isEmpty());

            Outcome done = run(env, concat(reset, "--execute"));
            assertEquals(ExitCodes.OK, done.code(), done.out() + done.err());
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!internalTopics(broker, appId).isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "internal topics still listed");
                Thread.sleep(100);
            }
            assertTrue(broker.admin().listConsumerGroupOffsets(trainer).partitionsToOffsetAndMetadata().get()
                    .isEmpty(), "committed offsets gone");
            assertFalse(Files.exists(stateDir.resolve(trainer)), "local state gone");
            assertTrue(broker.admin().listTopics().names().get().contains(bystander), "another application's topic");
            List<ConsumerRecord<String, ModelParameters>> handedOver = broker.readAll(topics.model(), TIMEOUT);
            ModelParameters released = handedOver.get(handedOver.size() - 1).value();
            assertEquals(trained.version() + 1, released.version());
            assertEquals("", released.trainer());
            assertEquals(trained.totalCount(), released.totalCount());
            // The lineage goes over unchanged: offsets, retractions, reset generation and the events it dropped.
            assertEquals(trained.sources(), released.sources());
            assertEquals(RETRACTED, released.retracted());
            assertEquals(trained.resetGeneration(), released.resetGeneration());
            assertEquals(trained.resetDropped(), released.resetDropped());
            assertEquals(trained.eventsAbsorbed(), released.eventsAbsorbed());
            ConsumerRecord<String, byte[]> raw = broker.readAll(topics.modelRecords(), TIMEOUT).get(
                    handedOver.size() - 1);
            if (signed) {
                assertNull(ModelSigning.parse(KEYS).refusal(raw.value(), raw.headers()),
                        "the hand-over is signed as the trainer signs");
            }

            // The same trainer again: from the first offset, every event once.
            train.start();
            Map<String, Long> allOffsets = new TreeMap<>();
            ends.forEach((p, end) -> allOffsets.put(Integer.toString(p), end));
            List<ConsumerRecord<String, ModelParameters>> after = broker.readUntil(topics.model(), records -> {
                train.assertAlive();
                ModelParameters last = records.isEmpty() ? null : records.get(records.size() - 1).value();
                return last != null && trainer.equals(last.trainer())
                        && allOffsets.equals(new TreeMap<>(last.sources()));
            }, TIMEOUT);
            ModelParameters retrained = after.get(after.size() - 1).value();
            assertEquals(150 - RETRACTED, retrained.totalCount(), "every event counted once");
            assertEquals(RETRACTED, retrained.retracted());
            assertTrue(retrained.version() > released.version(), retrained.version() + " above " + released.version());
            for (ConsumerRecord<String, ModelParameters> r : after.subList(handedOver.size(), after.size())) {
                assertTrue(r.value().totalCount() <= 150, "no model counts an event twice: " + r.value().totalCount());
            }
            train.sigterm();
        }
    }

    /**
     * A scorer's events held while no model existed live only in its changelog, behind its committed offsets: a reset
     * that keeps the offsets moves their partitions back to the earliest of them, and the scorer, started again with
     * a model, answers them. Then the unlabelled topic gets a third partition (the scorer must then be reset:
     * docs/RELIABILITY.md), the reset keeps the offsets, and the scorer started again answers the new events only:
     * every event once, on every partition.
     */
    @Test
    void aScorerResetThatKeepsItsOffsetsAnswersEveryEventOnce(KafkaBroker broker)
            throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String appId = UniqueNames.of("reset-keep");
        String scorer = appId + "-scoring";
        String pending = InternalTopics.changelog(scorer, ScoringTopology.PENDING_STORE);
        Path stateDir = dir.resolve("state");
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris", appId,
                stateDir, PARTITIONS);
        List<LabelledRow> rows = Iris.rows();
        try (ProductProcess score = new ProductProcess(Command.SCORE, config, dir, "score");
             ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            score.start();
            score.awaitRunning(TIMEOUT);
            for (int i = 0; i < HELD; i++) { // no model yet: held
                unlabelled(producer, topics, i % PARTITIONS, "held-" + i, rows.get(i));
            }
            // Read while the scorer runs: its transaction may be open at a look (a UserError), the next one sees it.
            Await.until("the scorer's changelog holds the events", TIMEOUT, () -> {
                try {
                    return heldOn(broker, pending).count() == HELD;
                } catch (UserError openTransaction) {
                    return false;
                }
            }, () -> score.tails(20));
            score.sigterm();

            String[] reset = {"reset", "--config", score.configFile().toString(), "--role", "scoring",
                "--keep-offsets"};
            Map<TopicPartition, OffsetAndMetadata> beforeRewind = broker.admin().listConsumerGroupOffsets(scorer)
                    .partitionsToOffsetAndMetadata().get();
            assertEquals(HELD / PARTITIONS, beforeRewind.get(new TopicPartition(topics.unlabelled().name(), 0))
                    .offset(), "held events are committed: " + beforeRewind);
            // Configured for another unlabelled topic, the held events could not be read again: refused, unchanged.
            String[] elsewhere = concat(concat(concat(reset, "--set"), "gda.topic.unlabelled=elsewhere"), "--execute");
            Outcome refused = run(Map.of(), elsewhere);
            assertEquals(ExitCodes.USAGE, refused.code(), refused.out() + refused.err());
            assertTrue(refused.err().contains("held events came from " + topics.unlabelled().name() + "-"),
                    refused.err());
            assertTrue(topicExists(broker, pending), "a refused reset changes nothing");
            Outcome rewind = run(Map.of(), concat(reset, "--execute"));
            assertEquals(ExitCodes.OK, rewind.code(), rewind.out() + rewind.err());
            assertTrue(rewind.out().contains("but for the " + HELD + " event(s) it holds awaiting a model")
                    && rewind.out().contains(topics.unlabelled().name() + "-0 at 0, " + topics.unlabelled().name()
                    + "-1 at 0"), rewind.out());
            Map<TopicPartition, OffsetAndMetadata> rewound = broker.admin().listConsumerGroupOffsets(scorer)
                    .partitionsToOffsetAndMetadata().get();
            for (int p = 0; p < PARTITIONS; p++) {
                assertEquals(0, rewound.get(new TopicPartition(topics.unlabelled().name(), p)).offset(),
                        "back to the earliest held event: " + rewound);
            }
            Await.until("the scorer's changelog deleted", TIMEOUT, () -> !topicExists(broker, pending),
                    rewind::out);
            Outcome trainerToo = run(Map.of(), "reset", "--config", score.configFile().toString(), "--keep-offsets");
            assertEquals(ExitCodes.USAGE, trainerToo.code(), trainerToo.out() + trainerToo.err());
            assertTrue(trainerToo.err().contains("--role scoring only"), trainerToo.err());

            train.start();
            for (int i = 0; i < rows.size(); i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + i).getBytes(
                        StandardCharsets.UTF_8), HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label())))
                        .get();
            }
            broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), TIMEOUT, train::assertAlive);
            train.sigterm();
            score.start();
            broker.readUntil(topics.predictions(), records -> records.size() >= HELD, TIMEOUT);
            score.sigterm();
            assertEquals(0, heldOn(broker, pending).count(), "answered, the held events left the changelog");
            Map<TopicPartition, OffsetAndMetadata> committed = broker.admin().listConsumerGroupOffsets(scorer)
                    .partitionsToOffsetAndMetadata().get();

            broker.admin().createPartitions(Map.of(topics.unlabelled().name(),
                    NewPartitions.increaseTo(PARTITIONS + 1))).all().get();
            Outcome dry = run(Map.of(), reset);
            assertEquals(ExitCodes.OK, dry.code(), dry.out() + dry.err());
            assertTrue(dry.out().contains("(kept)") && dry.out().contains("keeps its committed offsets"), dry.out());
            Outcome done = run(Map.of(), concat(reset, "--execute"));
            assertEquals(ExitCodes.OK, done.code(), done.out() + done.err());
            Await.until("the scorer's changelog deleted", TIMEOUT, () -> !topicExists(broker, pending), done::out);
            assertFalse(Files.exists(stateDir.resolve(scorer)), "local state gone");
            assertEquals(committed, broker.admin().listConsumerGroupOffsets(scorer).partitionsToOffsetAndMetadata()
                    .get(), "the committed offsets are kept");

            score.start();
            for (int i = 0; i < AFTER; i++) { // on every partition, the new one too
                unlabelled(producer, topics, i % (PARTITIONS + 1), "after-" + i, rows.get(HELD + i));
            }
            List<ConsumerRecord<byte[], Prediction>> answers = broker.readUntil(topics.predictions(),
                    records -> records.size() >= HELD + AFTER, TIMEOUT);
            score.assertAlive();
            Map<String, Long> perKey = answers.stream().collect(Collectors.groupingBy(
                    r -> new String(r.key(), StandardCharsets.UTF_8), TreeMap::new, Collectors.counting()));
            assertEquals(HELD + AFTER, perKey.size(), "every event answered: " + perKey);
            assertTrue(perKey.values().stream().allMatch(n -> n == 1), "no event answered twice: " + perKey);
            score.sigterm();
        }
    }

    private static void unlabelled(KafkaProducer<byte[], byte[]> producer, Topics topics, int partition, String key,
                                   LabelledRow row) throws Exception {
        producer.send(new ProducerRecord<>(topics.unlabelled().name(), partition, key.getBytes(StandardCharsets.UTF_8),
                HostileRecords.validEvent(row.x(), row.label()))).get();
    }

    private static HeldEventsOnBroker.Held heldOn(KafkaBroker broker, String changelog) {
        return HeldEventsOnBroker.read(broker.admin(), changelog, broker.bootstrapServers(), new Properties(),
                TIMEOUT);
    }

    private static boolean topicExists(KafkaBroker broker, String topic) {
        try {
            return broker.admin().listTopics().names().get().contains(topic);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Set<String> internalTopics(KafkaBroker broker, String appId) throws Exception {
        return broker.admin().listTopics().names().get().stream()
                .filter(name -> name.startsWith(appId + "-") && (name.endsWith("-changelog")
                        || name.endsWith("-repartition")) && !name.startsWith(appId + "-training-training-"))
                .collect(Collectors.toSet());
    }

    private static String[] concat(String[] a, String b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + 1);
        all[a.length] = b;
        return all;
    }
}
