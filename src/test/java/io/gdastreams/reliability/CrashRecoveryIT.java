package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.HostileRecords.Hostile;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across crashes: the application runs in a JVM of its own and is killed with SIGKILL at random
 * moments (fixed seed) while events flow, then restarted on the same state directory, {@link #KILLS} times. At
 * the end a read_committed consumer must see every event's effect exactly once.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CrashRecoveryIT {

    private static final long SEED = 8_0808L;
    private static final int KILLS = 6;
    private static final int PARTITIONS = 4;
    /** Time from a (re)start to the next kill: from "still starting up" to "well into processing". */
    private static final long MIN_LIFE_MS = 1_000;
    private static final long MAX_LIFE_MS = 5_000;
    /** Every this many records one is hostile. */
    private static final int HOSTILE_EVERY = 97;
    private static final Duration CONVERGENCE = Duration.ofSeconds(120);
    /** Catalogue keys up to this size are ordinary names; longer ones are the hostile part of their kind. */
    private static final int MAX_ORDINARY_KEY_BYTES = 256;
    /** Streamed (Welford + Chan over partials, across restores) vs two-pass batch MLE, relative to scale. */
    private static final double RELATIVE_TOLERANCE = 1e-12;
    private static final String MODEL_ID = "crash";

    @TempDir
    Path dir;

    /** Sends records from {@code source} synchronously until stopped; what was acknowledged is counted. */
    private static final class FlowingProducer extends Thread {
        interface Source {
            ProducerRecord<byte[], byte[]> next(long index);
        }

        private final KafkaProducer<byte[], byte[]> producer;
        private final Source source;
        private final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong sent = new AtomicLong();
        volatile Throwable failure;

        FlowingProducer(KafkaProducer<byte[], byte[]> producer, Source source) {
            super("flowing-producer");
            this.producer = producer;
            this.source = source;
        }

        @Override
        public void run() {
            try {
                while (!stop.get()) {
                    producer.send(source.next(sent.get())).get();
                    sent.incrementAndGet();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        long finish() throws InterruptedException {
            stop.set(true);
            join();
            if (failure != null) {
                throw new AssertionError("producer failed", failure);
            }
            return sent.get();
        }
    }

    /** Kills and restarts {@code child} {@link #KILLS} times at seeded random moments; returns sent-at-kill. */
    private static List<Long> killRepeatedly(StreamsChildProcess child, FlowingProducer producer)
            throws InterruptedException {
        Random random = new Random(SEED);
        List<Long> sentAtKill = new ArrayList<>();
        for (int k = 0; k < KILLS; k++) {
            Thread.sleep(MIN_LIFE_MS + (long) (random.nextDouble() * (MAX_LIFE_MS - MIN_LIFE_MS)));
            assertTrue(child.isAlive(), "child died by itself:\n" + child.log());
            child.kill();
            sentAtKill.add(producer.sent.get());
            child.start();
        }
        return sentAtKill;
    }

    private Topics createTopics(KafkaBroker broker) {
        Topics topics = KafkaBroker.uniqueTopics();
        broker.createTopics(Map.of(topics.labelled().name(), PARTITIONS, topics.unlabelled().name(), PARTITIONS, topics.model().name(), 1,
                topics.predictions().name(), PARTITIONS, topics.deadLetters().name(), 1));
        return topics;
    }

    private static List<String> childArgs(String mode, KafkaBroker broker, Path stateDir, Topics topics) {
        return List.of(mode, broker.bootstrapServers(), KafkaBroker.uniqueName(mode), stateDir.toString(),
                topics.labelled().name(), topics.unlabelled().name(), topics.model().name(), topics.predictions().name(), topics.deadLetters().name(),
                MODEL_ID);
    }

    /**
     * The hostile kinds that a producer can send and that {@code topic side} dead-letters for their VALUE: this
     * test sends them under its own keys ("u17"), so kinds that are hostile only through their key (an oversized
     * key, a long key used as id) would arrive as valid events here.
     */
    private static List<Hostile> hostileKinds(boolean labelled) {
        return HostileRecords.producible().stream()
                .filter(h -> labelled ? h.labelled().deadLettered() : h.unlabelled().deadLettered())
                .filter(h -> h.value() == null || h.value().length < 100_000)
                .filter(h -> h.key() == null || h.key().length <= MAX_ORDINARY_KEY_BYTES)
                .toList();
    }

    /** Three overlapping classes with different means, scales and correlations. */
    private static LabelledRow point(Random random) {
        int k = random.nextInt(10) < 5 ? 0 : random.nextInt(10) < 7 ? 1 : 2;
        double z0 = random.nextGaussian();
        double z1 = random.nextGaussian();
        double z2 = random.nextGaussian();
        double z3 = random.nextGaussian();
        double[] x = switch (k) {
            case 0 -> new double[] {5 + 0.3 * z0, 3.4 + 0.4 * z1 + 0.2 * z0, 1.5 + 0.2 * z2, 0.2 + 0.1 * z3};
            case 1 -> new double[] {6 + 0.5 * z0, 2.8 + 0.3 * z1, 4.3 + 0.5 * z2 + 0.3 * z0, 1.3 + 0.2 * z3};
            default -> new double[] {1e4 + 7 * z0, -300 + 0.01 * z1, 5.5 + 0.6 * z2, 2 + 0.3 * z3 - 0.1 * z2};
        };
        return new LabelledRow(x, new String[] {"alpha", "beta", "gamma"}[k]);
    }

    @Test
    void shouldTrainExactlyOnceAcrossRepeatedSigkills(KafkaBroker broker) throws Exception {
        Topics topics = createTopics(broker);
        List<Hostile> hostile = hostileKinds(true);
        List<LabelledRow> valid = new ArrayList<>();
        Random random = new Random(SEED);
        long[] bad = new long[1];
        FlowingProducer.Source source = i -> {
            byte[] key = ("e" + i).getBytes(StandardCharsets.UTF_8);
            if (i % HOSTILE_EVERY == HOSTILE_EVERY - 1) {
                bad[0]++;
                return new ProducerRecord<>(topics.labelled().name(), key,
                        hostile.get((int) (i / HOSTILE_EVERY) % hostile.size()).value());
            }
            LabelledRow row = point(random);
            valid.add(row);
            return new ProducerRecord<>(topics.labelled().name(), key, HostileRecords.validEvent(row.x(), row.label()));
        };

        List<Long> sentAtKill;
        long sent;
        try (KafkaProducer<byte[], byte[]> kafka = broker.producer();
             StreamsChildProcess child = new StreamsChildProcess(childArgs("train", broker, dir.resolve("state"),
                     topics), dir.resolve("logs"))) {
            FlowingProducer producer = new FlowingProducer(kafka, source);
            child.start();
            producer.start();
            sentAtKill = killRepeatedly(child, producer);
            Thread.sleep(1_000);
            sent = producer.finish();

            ModelParameters model = awaitModelAbsorbingEverything(broker, topics, child);
            List<ConsumerRecord<byte[], byte[]>> dead = broker.readAll(topics.deadLetters().name(), CONVERGENCE);
            System.out.printf("crash/train: %d kills at records %s; %d records in, %d applied, %d dead-lettered%n",
                    KILLS, sentAtKill, sent, model.totalCount(), dead.size());

            assertEquals(valid.size(), model.totalCount(), "every valid event counted exactly once");
            assertEquals(bad[0], dead.size(), "every bad event dead-lettered exactly once");
            assertEquals(sent, model.totalCount() + dead.size(), "in = applied + dead-lettered");
            Set<String> deadOffsets = new HashSet<>();
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                DeadLetter letter = SerdeFactory.deadLetter().deserializer().deserialize("d", r.value());
                assertTrue(deadOffsets.add(letter.partition() + "@" + letter.offset()), "duplicate " + letter);
            }
            assertModelIsBatchMle(valid, model);
            assertTrue(sentAtKill.get(0) > 0 && sentAtKill.get(KILLS - 1) < sent, "kills happened while events flowed");
        }
    }

    /** The first model whose lineage covers every record of the labelled topic. */
    private static ModelParameters awaitModelAbsorbingEverything(KafkaBroker broker, Topics topics,
                                                                 StreamsChildProcess child) {
        try {
            List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), CONVERGENCE, () -> { });
            for (int i = 1; i < models.size(); i++) {
                assertTrue(models.get(i).value().version() > models.get(i - 1).value().version(),
                        "versions grow across restarts");
            }
            return models.get(models.size() - 1).value();
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nchild log:\n" + child.log(), e);
        }
    }

    /** Counts, priors, means and MLE covariances against a two-pass batch computation. */
    private static void assertModelIsBatchMle(List<LabelledRow> rows, ModelParameters model) {
        Map<String, List<double[]>> byClass = new TreeMap<>();
        rows.forEach(r -> byClass.computeIfAbsent(r.label(), l -> new ArrayList<>()).add(r.x()));
        assertEquals(byClass.keySet(), model.classes().stream().map(ClassParameters::label)
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new)));
        assertEquals(HostileRecords.FEATURES, model.features());
        Map<String, ClassParameters> published = new HashMap<>();
        model.classes().forEach(c -> published.put(c.label(), c));
        for (Map.Entry<String, List<double[]>> e : byClass.entrySet()) {
            List<double[]> xs = e.getValue();
            ClassParameters c = published.get(e.getKey());
            int n = xs.size();
            assertEquals(n, c.count(), e.getKey());
            assertEquals((double) n / rows.size(), c.prior(), RELATIVE_TOLERANCE, e.getKey() + " prior");
            double[] mean = new double[4];
            for (double[] x : xs) {
                for (int j = 0; j < 4; j++) {
                    mean[j] += x[j];
                }
            }
            for (int j = 0; j < 4; j++) {
                mean[j] /= n;
            }
            double[][] cov = new double[4][4];
            for (double[] x : xs) {
                for (int i = 0; i < 4; i++) {
                    for (int j = 0; j < 4; j++) {
                        cov[i][j] += (x[i] - mean[i]) * (x[j] - mean[j]);
                    }
                }
            }
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    cov[i][j] /= n;
                }
            }
            for (int i = 0; i < 4; i++) {
                double scale = Math.max(Math.abs(mean[i]), Math.sqrt(cov[i][i]));
                assertEquals(mean[i], c.mean()[i], RELATIVE_TOLERANCE * scale, e.getKey() + " mean " + i);
                for (int j = 0; j < 4; j++) {
                    assertEquals(cov[i][j], c.covariance()[i][j],
                            RELATIVE_TOLERANCE * Math.sqrt(cov[i][i] * cov[j][j]),
                            e.getKey() + " covariance " + i + "," + j);
                }
            }
        }
    }

    @Test
    void shouldScoreEveryEventExactlyOnceAcrossRepeatedSigkills(KafkaBroker broker) throws Exception {
        Topics topics = createTopics(broker);
        List<LabelledRow> iris = Iris.rows();
        try (KafkaProducer<byte[], byte[]> kafka = broker.producer()) {
            kafka.send(new ProducerRecord<>(topics.model().name(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    SerdeFactory.model().serializer().serialize("m", Iris.model(MODEL_ID, 1, iris)))).get();
        }
        List<Hostile> hostile = hostileKinds(false);
        Set<String> hostileKeys = new HashSet<>();
        FlowingProducer.Source source = i -> {
            String key = "u" + i;
            if (i % HOSTILE_EVERY == HOSTILE_EVERY - 1) {
                hostileKeys.add(key);
                return new ProducerRecord<>(topics.unlabelled().name(), key.getBytes(StandardCharsets.UTF_8),
                        hostile.get((int) (i / HOSTILE_EVERY) % hostile.size()).value());
            }
            LabelledRow row = iris.get((int) (i % iris.size()));
            return new ProducerRecord<>(topics.unlabelled().name(), key.getBytes(StandardCharsets.UTF_8),
                    HostileRecords.validEvent(row.x(), row.label()));
        };

        try (KafkaProducer<byte[], byte[]> kafka = broker.producer();
             StreamsChildProcess child = new StreamsChildProcess(childArgs("score", broker, dir.resolve("state"),
                     topics), dir.resolve("logs"))) {
            FlowingProducer producer = new FlowingProducer(kafka, source);
            child.start();
            producer.start();
            List<Long> sentAtKill = killRepeatedly(child, producer);
            Thread.sleep(1_000);
            long sent = producer.finish();

            List<ConsumerRecord<byte[], byte[]>> predictions = awaitCommitted(broker, topics.predictions().name(), sent,
                    child);
            List<ConsumerRecord<byte[], byte[]>> dead = awaitCommitted(broker, topics.deadLetters().name(),
                    hostileKeys.size(), child);
            System.out.printf("crash/score: %d kills at records %s; %d records in, %d predictions (%d unscored),"
                    + " %d dead-lettered%n", KILLS, sentAtKill, sent, predictions.size(), hostileKeys.size(),
                    dead.size());

            Map<String, Integer> answers = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : predictions) {
                String key = new String(r.key(), StandardCharsets.UTF_8);
                answers.merge(key, 1, Integer::sum);
                Prediction p = SerdeFactory.prediction().deserializer().deserialize("p", r.value());
                assertEquals(hostileKeys.contains(key) ? Prediction.Status.UNSCORED : Prediction.Status.SCORED,
                        p.status(), key);
            }
            assertEquals(sent, answers.size(), "an answer for every event");
            assertTrue(answers.values().stream().allMatch(c -> c == 1), "no event answered twice");
            assertEquals(sent, predictions.size());
            Set<String> deadKeys = new HashSet<>();
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                assertTrue(deadKeys.add(new String(r.key(), StandardCharsets.UTF_8)), "dead-lettered twice");
            }
            assertEquals(hostileKeys, deadKeys, "exactly the hostile events are dead-lettered");
        }
    }

    /** Everything committed on {@code topic} once at least {@code expected} records are committed. */
    private static List<ConsumerRecord<byte[], byte[]>> awaitCommitted(KafkaBroker broker, String topic,
                                                                       long expected, StreamsChildProcess child)
            throws InterruptedException {
        long deadline = System.nanoTime() + CONVERGENCE.toNanos();
        while (true) {
            List<ConsumerRecord<byte[], byte[]>> records = broker.readAll(topic, CONVERGENCE);
            if (records.size() >= expected) {
                return records;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + records.size() + " of " + expected + " on " + topic
                        + "\nchild log:\n" + child.log());
            }
            Thread.sleep(500);
        }
    }
}
