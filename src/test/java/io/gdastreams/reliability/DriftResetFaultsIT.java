package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.broker.FaultInjectionBroker;
import io.gdastreams.math.StoredStatistics;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import io.gdastreams.topology.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gda.drift.action=reset} in the product's own {@code train} (two instances) under faults: a trainer killed -9
 * right after the change of regime, the broker killed -9, the other trainer killed -9. Then retractions, naming
 * their events' offsets ({@code retractsOffset}): twenty of events from before the change, which the reset dropped,
 * and ten of events sent last. Checks: every trainer alive; versions grow, and neither the reset generation nor the
 * events absorbed go back; records sent = events absorbed + dead letters, which are the hostile records and the
 * retractions of dropped events (with the reason), nothing else; per partition, read from the class-stats
 * changelog, the statistics hold exactly the adds from the offset its generation began at, less the retractions
 * applied, and the events before it are the dropped count; the final model equals the two-pass MLE of those adds of
 * the newest generation's partitions to 1e-9.
 */
class DriftResetFaultsIT {

    private static final String MODEL_ID = "drift-faults";
    private static final String APP = "dfaults";
    private static final int PARTITIONS = 4;
    private static final long SEED = Long.getLong("faults.seed", 777L);
    private static final int SWAP = 2_200;
    private static final int HOSTILE_EVERY = 97;
    /** Retractions of events from before the change (dropped by the reset), sent after the faults. */
    private static final int RETRACT_OLD = 20;
    /** Retractions of the events sent last (held by the new statistics). */
    private static final int RETRACT_NEW = 10;
    private static final Duration CONVERGENCE = Duration.ofSeconds(240);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    /** A valid add as sent, with where it landed. */
    record Sent(String key, String label, double[] x, int partition, long offset) {
    }

    @Test
    void shouldResetOnDriftUnderFaultsAndRefuseRetractionsOfDroppedEvents() throws Exception {
        System.out.println("DriftResetFaultsIT: logs in " + dir + ", seed " + SEED);
        Topics topics = new Topics("d-labelled", "d-unlabelled", "d-model", "d-predictions", "d-dead-letters",
                "d-metrics");
        try (FaultInjectionBroker broker = FaultInjectionBroker.start();
             TwoTrainers trainers = new TwoTrainers("DriftResetFaultsIT", broker, topics, MODEL_ID, APP, dir,
                     PARTITIONS, Map.of("gda.topic.metrics", topics.metrics().name(), "gda.features", "x0,x1",
                             "gda.prequential", "true", "gda.drift.action", "reset"))) {
            check(broker, topics, trainers);
        }
    }

    private void check(FaultInjectionBroker broker, Topics topics, TwoTrainers trainers) throws Exception {
        Map<String, Sent> valid = new HashMap<>();
        List<Sent> retractions = new ArrayList<>();
        List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
        long[] hostile = new long[1];
        long[] sent = new long[1];
        AtomicBoolean stop = new AtomicBoolean();
        Throwable[] failure = new Throwable[1];
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            Random random = new Random(SEED);
            long base = System.currentTimeMillis() - 1_800_000;
            Thread producerThread = new Thread(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        String key = "e-" + i;
                        if (i % HOSTILE_EVERY == HOSTILE_EVERY - 1) {
                            producer.send(new ProducerRecord<>(topics.labelled().name(), null, base + 10L * i,
                                    bytes(key), bytes("{\"features\": ["))).get();
                            hostile[0]++;
                        } else {
                            boolean b = random.nextBoolean();
                            double shift = (b ^ i >= SWAP) ? 2 : 0;
                            double[] x = {random.nextGaussian() + shift, random.nextGaussian()};
                            String label = b ? "b" : "a";
                            RecordMetadata at = producer.send(new ProducerRecord<>(topics.labelled().name(), null,
                                    base + 10L * i, bytes(key), bytes(event(label, x, false, -1)))).get();
                            valid.put(key, new Sent(key, label, x, at.partition(), at.offset()));
                            order.add(key);
                        }
                        sent[0]++;
                        if (i == SWAP) {
                            System.out.println("DriftResetFaultsIT: the change of regime sent");
                        }
                        Thread.sleep(5);
                    }
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }, "labelled-producer");
            producerThread.start();
            while (sent[0] < SWAP + 150) {
                Thread.sleep(100);
            }
            trainers.killAndRestart("a", sent[0]);
            Thread.sleep(8_000);
            System.out.println("DriftResetFaultsIT: fault: broker kill -9 at sent=" + sent[0]);
            broker.killAndRestart();
            Thread.sleep(8_000);
            trainers.killAndRestart("b", sent[0]);
            Thread.sleep(6_000);
            stop.set(true);
            producerThread.join();
            if (failure[0] != null) {
                throw new AssertionError("producer failed", failure[0]);
            }
            // Of b events long before the change (dropped by the reset), and of the last events sent (held).
            List<Sent> victims = new ArrayList<>(order.stream().limit(SWAP - 500).map(valid::get)
                    .filter(s -> s.label().equals("b")).limit(RETRACT_OLD).toList());
            victims.addAll(order.subList(order.size() - RETRACT_NEW, order.size()).stream().map(valid::get)
                    .toList());
            for (Sent victim : victims) {
                long timestamp = base + 10L * Long.parseLong(victim.key().substring(2)); // the original's
                producer.send(new ProducerRecord<>(topics.labelled().name(), null, timestamp,
                        bytes(victim.key()), bytes(event(victim.label(), victim.x(), true, victim.offset()))))
                        .get();
                sent[0]++;
                retractions.add(victim);
            }
        }
        System.out.println("DriftResetFaultsIT: sent " + sent[0] + " (valid " + valid.size() + ", hostile "
                + hostile[0] + ", retractions " + retractions.size() + ")");
        List<ConsumerRecord<String, ModelParameters>> models = trainers.modelsOnceAbsorbed(broker, topics,
                CONVERGENCE);
        // the model may still be waiting on a reset gate: give it a few more seconds and take the last one
        Thread.sleep(3_000);
        models = broker.readAll(topics.model(), CONVERGENCE);
        ModelParameters model = models.get(models.size() - 1).value();
        List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readAll(topics.deadLetters(), CONVERGENCE);
        List<String> drifts = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : broker.readAll(topics.metrics().name(), CONVERGENCE)) {
            JsonNode node = Json.mapper().readTree(r.value());
            if ("drift".equals(node.get("type").asText())) {
                drifts.add("p" + node.get("partition") + "@t" + node.get("eventTime") + " gen "
                        + node.get("resetGeneration"));
            }
        }
        long previous = 0;
        long previousGeneration = 0;
        long previousAbsorbed = 0;
        StringBuilder history = new StringBuilder();
        for (ConsumerRecord<String, ModelParameters> r : models) {
            ModelParameters m = r.value();
            history.append(" v").append(m.version()).append("/g").append(m.resetGeneration()).append("/n")
                    .append(m.totalCount()).append("/d").append(m.resetDropped());
            assertTrue(m.version() > previous, "versions grow: " + m.version());
            assertTrue(m.resetGeneration() >= previousGeneration, "generation never goes back");
            assertTrue(m.eventsAbsorbed() >= previousAbsorbed, "absorbed never shrinks");
            previous = m.version();
            previousGeneration = m.resetGeneration();
            previousAbsorbed = m.eventsAbsorbed();
        }
        System.out.println("DriftResetFaultsIT: drift records: " + drifts);
        System.out.println("DriftResetFaultsIT: models (" + models.size() + "), tail:" + history.substring(
                Math.max(0, history.length() - 600)));
        System.out.println("DriftResetFaultsIT: final v" + model.version() + " g" + model.resetGeneration()
                + " totalCount "
                + model.totalCount() + " resetDropped " + model.resetDropped() + " absorbed "
                + model.eventsAbsorbed() + " sources " + model.sources() + "; letters " + letters.size());
        trainers.assertAlive();
        System.out.println("DriftResetFaultsIT: " + trainers.stateLosses());
        // Per partition, the final state from the class-stats changelog.
        String changelog = APP + "-training-class-stats-changelog";
        Map<Integer, Map<String, byte[]>> finalState = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : broker.readAll(changelog, CONVERGENCE)) {
            Map<String, byte[]> entries = finalState.computeIfAbsent(r.partition(), p -> new TreeMap<>());
            String key = new String(r.key(), StandardCharsets.UTF_8);
            if (r.value() == null) {
                entries.remove(key);
            } else {
                entries.put(key, r.value());
            }
        }
        // generation → number, dropped events, input offset the generation began at (24 bytes)
        Map<Integer, long[]> generations = new TreeMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            byte[] value = finalState.getOrDefault(p, Map.of()).get("generation");
            ByteBuffer buffer = value == null ? null : ByteBuffer.wrap(value);
            generations.put(p, buffer == null ? new long[] {0, 0, 0}
                    : new long[] {buffer.getLong(), buffer.getLong(), buffer.getLong()});
        }
        java.util.function.Predicate<Sent> dropped = s -> generations.get(s.partition())[0] > 0
                && s.offset() < generations.get(s.partition())[2];
        List<Sent> refused = retractions.stream().filter(dropped).toList();
        assertEquals(retractions.subList(0, RETRACT_OLD), refused,
                "the retractions of events from before the change are refused, those of the last ones are not");
        java.util.Set<String> retracted = new java.util.HashSet<>();
        retractions.stream().filter(dropped.negate()).forEach(s -> retracted.add(s.key()));
        long refusedLetters = letters.stream().filter(r -> r.value().reason().contains(
                "was dropped by the drift reset")).count();
        System.out.println("DriftResetFaultsIT: retracted " + model.retracted() + "; dead letters " + letters.size()
                + " (" + hostile[0] + " hostile, " + refusedLetters + " retractions of dropped events)");
        assertEquals(RETRACT_OLD, refusedLetters, "each refused retraction dead-lettered with the reason");
        assertEquals(hostile[0] + RETRACT_OLD, letters.size(), "dead letters = hostile + refused retractions");
        assertEquals(sent[0], model.eventsAbsorbed() + letters.size(), "every record accounted for");
        assertEquals(RETRACT_NEW, model.retracted(), "the retractions of held events applied");

        List<Sent> modelEvents = new ArrayList<>();
        long generationMax = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            int partition = p;
            Map<String, Long> counts = new TreeMap<>();
            for (Map.Entry<String, byte[]> e : finalState.getOrDefault(p, Map.of()).entrySet()) {
                if (e.getKey().startsWith("class:")) {
                    counts.put(e.getKey().substring(6), StoredStatistics.read(e.getValue()).count());
                }
            }
            long generation = generations.get(p)[0];
            List<Sent> adds = valid.values().stream().filter(s -> s.partition() == partition)
                    .sorted(java.util.Comparator.comparingLong(Sent::offset)).toList();
            long before = adds.stream().filter(dropped).count();
            List<Sent> kept = adds.stream().filter(dropped.negate()).filter(s -> !retracted.contains(s.key()))
                    .toList();
            Map<String, Long> keptCounts = new TreeMap<>();
            kept.forEach(s -> keptCounts.merge(s.label(), 1L, Long::sum));
            System.out.println("DriftResetFaultsIT: partition " + p + ": generation " + generation + " from offset "
                    + generations.get(p)[2] + ", dropped " + generations.get(p)[1] + ", statistics " + counts);
            assertEquals(before, generations.get(p)[1], "partition " + p + ": the adds before the start dropped");
            assertEquals(keptCounts, counts, "partition " + p + ": the statistics hold the adds from the start,"
                    + " less the retractions applied");
            if (generation > generationMax) {
                generationMax = generation;
                modelEvents.clear();
            }
            if (generation == generationMax) {
                modelEvents.addAll(kept);
            }
        }
        assertEquals(generationMax, model.resetGeneration(), "model of the newest generation");
        assertEquals(modelEvents.size(), model.totalCount(), "model count = newest generation's suffixes");
        double worst = 0;
        for (ClassParameters c : model.classes()) {
            List<double[]> xs = modelEvents.stream().filter(s -> s.label().equals(c.label())).map(Sent::x)
                    .toList();
            assertEquals(xs.size(), c.count(), c.label());
            double[] mean = new double[2];
            xs.forEach(x -> {
                mean[0] += x[0];
                mean[1] += x[1];
            });
            mean[0] /= xs.size();
            mean[1] /= xs.size();
            double[][] cov = new double[2][2];
            for (double[] x : xs) {
                for (int i = 0; i < 2; i++) {
                    for (int j = 0; j < 2; j++) {
                        cov[i][j] += (x[i] - mean[i]) * (x[j] - mean[j]) / xs.size();
                    }
                }
            }
            for (int i = 0; i < 2; i++) {
                double si = Math.sqrt(cov[i][i]);
                double r = Math.abs(mean[i] - c.mean()[i]) / si;
                assertTrue(r < 1e-9, c.label() + " mean " + i + ": " + mean[i] + " vs " + c.mean()[i]);
                worst = Math.max(worst, r);
                for (int j = 0; j < 2; j++) {
                    double rc = Math.abs(cov[i][j] - c.covariance()[i][j]) / (si * Math.sqrt(cov[j][j]));
                    assertTrue(rc < 1e-9, c.label() + " cov " + i + j);
                    worst = Math.max(worst, rc);
                }
            }
        }
        System.out.printf("DriftResetFaultsIT: largest relative difference from the two-pass MLE: %.3e%n", worst);
    }

    private static String event(String label, double[] x, boolean retract, long retractsOffset) {
        return "{\"features\":{\"x0\":" + x[0] + ",\"x1\":" + x[1] + "},\"label\":\"" + label + "\""
                + (retract ? ",\"retract\":true,\"retractsOffset\":" + retractsOffset : "") + "}";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
