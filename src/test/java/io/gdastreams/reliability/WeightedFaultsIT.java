package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.broker.FaultInjectionBroker;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weights (0 included), retractions (same key, the original's timestamp), event-time forgetting (half-life 2 s, late
 * events) and a categorical feature, all at once, in the product's own {@code train} (two instances: rebalances)
 * under faults: trainer a kill -9, broker kill -9, broker SIGSTOP for 12 s, trainer b kill -9. The final model is
 * compared with an independent two-pass reference computed here from the events sent (counts, W, W²/V, means, MLE
 * covariances, priors, category counts and weights) to {@value #RELATIVE} relative (measured: 4e-15), and every record
 * in is accounted for (events absorbed + dead letters = records sent; exactly the hostile ones dead-lettered, none
 * twice). Versions grow and the events absorbed never go back.
 */
class WeightedFaultsIT {

    private static final String MODEL_ID = "weighted-faults";
    private static final int PARTITIONS = 4;
    private static final long SEED = Long.getLong("faults.seed", 4242L);
    private static final double HALF_LIFE_MS = 2_000;
    private static final double RELATIVE = 1e-9;
    private static final List<String> LABELS = List.of("north", "south", "east");
    private static final List<String> COLOURS = List.of("red", "green", "blue", "grey");
    private static final int HOSTILE_EVERY = 53;
    private static final Duration CONVERGENCE = Duration.ofSeconds(240);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    /** One add event, as sent. */
    record Add(String key, String label, double[] x, String colour, double w, long t) {
    }

    @Test
    void shouldTrainWeightedRetractedForgottenCategoricalEventsExactlyUnderFaults() throws Exception {
        System.out.println("WeightedFaultsIT: logs in " + dir + ", seed " + SEED);
        Topics topics = new Topics("w-labelled", "w-unlabelled", "w-model", "w-predictions", "w-dead-letters");
        try (FaultInjectionBroker broker = FaultInjectionBroker.start();
             TwoTrainers trainers = new TwoTrainers("WeightedFaultsIT", broker, topics, MODEL_ID, "wfaults", dir,
                     PARTITIONS, Map.of("gda.forgetting.half-life.ms", Double.toString(HALF_LIFE_MS),
                             "gda.categorical.features", "colour"))) {
            check(broker, topics, trainers);
        }
    }

    private void check(FaultInjectionBroker broker, Topics topics, TwoTrainers trainers) throws Exception {
        List<Add> adds = new ArrayList<>();
        Set<String> retracted = new HashSet<>();
        long[] hostile = new long[1];
        long[] sent = new long[1];
        AtomicBoolean stop = new AtomicBoolean();
        Throwable[] failure = new Throwable[1];
        Thread producerThread;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            Random random = new Random(SEED);
            long base = System.currentTimeMillis() - 600_000;
            producerThread = new Thread(() -> {
                try {
                    for (long i = 0; !stop.get(); i++) {
                        long t = base + i * 3 - (random.nextInt(10) == 0 ? random.nextInt(1500) : 0);
                        ProducerRecord<byte[], byte[]> record;
                        if (i % HOSTILE_EVERY == HOSTILE_EVERY - 1) {
                            record = new ProducerRecord<>(topics.labelled().name(), null, t,
                                    bytes("h-" + i), bytes("{\"features\": {\"x\": 1.0, \"label\": " + i));
                            hostile[0]++;
                        } else if (i % 6 == 5 && adds.size() > 20 && random.nextBoolean()) {
                            // retract a random earlier add that is not yet retracted
                            Add victim = null;
                            for (int tries = 0; tries < 10 && victim == null; tries++) {
                                Add c = adds.get(random.nextInt(adds.size()));
                                if (!retracted.contains(c.key())) {
                                    victim = c;
                                }
                            }
                            if (victim == null) {
                                continue;
                            }
                            retracted.add(victim.key());
                            record = new ProducerRecord<>(topics.labelled().name(), null, victim.t(),
                                    bytes(victim.key()), bytes(json(victim, true)));
                        } else {
                            int k = random.nextInt(LABELS.size());
                            double[] x = {random.nextGaussian() + 4 * k, 2 * random.nextGaussian() - 3 * k,
                                    random.nextGaussian() * (1 + k) + k * k};
                            String colour = COLOURS.get(Math.min(COLOURS.size() - 1,
                                    (int) Math.abs(random.nextGaussian() * (k + 1))));
                            int r = random.nextInt(100);
                            double w = r < 2 ? 0.0 : r < 50 ? 1.0 : 0.1 + 4.9 * random.nextDouble();
                            Add add = new Add("k-" + i, LABELS.get(k), x, colour, w, t);
                            record = new ProducerRecord<>(topics.labelled().name(), null, t, bytes(add.key()),
                                    bytes(json(add, false)));
                            adds.add(add);
                        }
                        producer.send(record).get();
                        sent[0]++;
                        Thread.sleep(3);
                    }
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }, "labelled-producer");
            producerThread.start();

            Thread.sleep(8_000);
            trainers.killAndRestart("a", sent[0]);
            Thread.sleep(8_000);
            System.out.println("WeightedFaultsIT: fault: broker kill -9 at sent=" + sent[0]);
            broker.killAndRestart();
            Thread.sleep(8_000);
            System.out.println("WeightedFaultsIT: fault: broker SIGSTOP 12 s at sent=" + sent[0]);
            broker.pause();
            Thread.sleep(12_000);
            broker.resume();
            Thread.sleep(8_000);
            trainers.killAndRestart("b", sent[0]);
            Thread.sleep(5_000);
            stop.set(true);
            producerThread.join();
            if (failure[0] != null) {
                throw new AssertionError("producer failed", failure[0]);
            }
        }
        System.out.println("WeightedFaultsIT: sent " + sent[0] + " records: " + adds.size() + " adds, " + retracted.size()
                + " retractions, " + hostile[0] + " hostile");
        List<ConsumerRecord<String, ModelParameters>> models = trainers.modelsOnceAbsorbed(broker, topics,
                CONVERGENCE);
        ModelParameters model = models.get(models.size() - 1).value();
        List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readAll(topics.deadLetters(), CONVERGENCE);
        Map<String, Integer> bySource = new TreeMap<>();
        for (ConsumerRecord<byte[], DeadLetter> r : letters) {
            bySource.merge(r.value().partition() + "@" + r.value().offset(), 1, Integer::sum);
        }
        java.util.function.Predicate<ConsumerRecord<byte[], DeadLetter>> hostileLetter = r ->
                r.value().keyBase64() != null && new String(java.util.Base64.getDecoder().decode(
                        r.value().keyBase64()), StandardCharsets.UTF_8).startsWith("h-");
        long nonHostileLetters = letters.stream().filter(hostileLetter.negate()).count();
        letters.stream().filter(hostileLetter.negate()).limit(10)
                .forEach(r -> System.out.println("WeightedFaultsIT: non-hostile dead letter: " + r.value().reason()));
        long previous = 0;
        long previousAbsorbed = 0;
        for (ConsumerRecord<String, ModelParameters> r : models) {
            assertTrue(r.value().version() > previous, "versions grow: " + r.value().version());
            assertTrue(r.value().eventsAbsorbed() >= previousAbsorbed, "absorbed never shrinks");
            previous = r.value().version();
            previousAbsorbed = r.value().eventsAbsorbed();
        }
        System.out.println("WeightedFaultsIT: model v" + model.version() + " totalCount " + model.totalCount() + " retracted "
                + model.retracted() + " absorbed " + model.eventsAbsorbed() + " leftOut " + model.leftOut()
                + "; dead letters " + letters.size() + " (" + bySource.size() + " sources, non-hostile "
                + nonHostileLetters + "); model records " + models.size());

        // accounting
        assertEquals(letters.size(), bySource.size(), "no record dead-lettered twice");
        assertEquals(hostile[0], letters.size(), "exactly the hostile records dead-lettered");
        assertEquals(adds.size() - retracted.size(), model.totalCount(), "net count");
        assertEquals(retracted.size(), model.retracted(), "retractions");
        assertEquals(sent[0], model.eventsAbsorbed() + letters.size(), "every record accounted for");

        // exact reference
        long tMax = adds.stream().mapToLong(Add::t).max().orElseThrow();
        double worst = 0;
        Map<String, ClassParameters> published = new TreeMap<>();
        model.classes().forEach(c -> published.put(c.label(), c));
        CategoricalTable table = model.categorical().get(0);
        double totalW = 0;
        Map<String, double[]> refW = new TreeMap<>();
        for (String label : LABELS) {
            List<Add> live = adds.stream().filter(a -> a.label().equals(label)
                    && !retracted.contains(a.key())).toList();
            double w = 0;
            double v = 0;
            double[] mean = new double[3];
            for (Add a : live) {
                double wi = a.w() * Math.pow(2, -(tMax - a.t()) / HALF_LIFE_MS);
                w += wi;
                v += wi * wi;
                for (int j = 0; j < 3; j++) {
                    mean[j] += wi * a.x()[j];
                }
            }
            for (int j = 0; j < 3; j++) {
                mean[j] /= w;
            }
            double[][] cov = new double[3][3];
            for (Add a : live) {
                double wi = a.w() * Math.pow(2, -(tMax - a.t()) / HALF_LIFE_MS);
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        cov[i][j] += wi * (a.x()[i] - mean[i]) * (a.x()[j] - mean[j]);
                    }
                }
            }
            ClassParameters c = published.get(label);
            assertEquals(live.size(), c.count(), label + " count");
            worst = Math.max(worst, rel(w, c.effectiveCount(), label + " W"));
            worst = Math.max(worst, rel(w * w / v, c.effectiveSampleSize(), label + " ESS"));
            for (int i = 0; i < 3; i++) {
                double si = Math.sqrt(cov[i][i] / w);
                worst = Math.max(worst, abs(mean[i], c.mean()[i], si, label + " mean " + i));
                for (int j = 0; j < 3; j++) {
                    double sj = Math.sqrt(cov[j][j] / w);
                    worst = Math.max(worst, abs(cov[i][j] / w, c.covariance()[i][j], si * sj,
                            label + " cov " + i + j));
                }
            }
            totalW += w;
            // categorical
            int k = model.classes().indexOf(c);
            for (int vi = 0; vi < table.values().size(); vi++) {
                String colour = table.values().get(vi);
                long n = live.stream().filter(a -> a.colour().equals(colour)).count();
                double cw = live.stream().filter(a -> a.colour().equals(colour))
                        .mapToDouble(a -> a.w() * Math.pow(2, -(tMax - a.t()) / HALF_LIFE_MS)).sum();
                assertEquals(n, table.counts().get(k)[vi], label + " " + colour + " count");
                worst = Math.max(worst, rel(cw, table.weights().get(k)[vi], label + " " + colour + " W"));
            }
            refW.put(label, new double[] {w});
        }
        for (String label : LABELS) {
            worst = Math.max(worst, rel(refW.get(label)[0] / totalW, published.get(label).prior(),
                    label + " prior"));
        }
        System.out.printf("WeightedFaultsIT: largest relative difference from the two-pass reference: %.3e%n", worst);
        trainers.assertAlive();
        System.out.println("WeightedFaultsIT: " + trainers.stateLosses());
    }

    private static double rel(double expected, Double actual, String what) {
        assertTrue(actual != null, what + ": no value (expected " + expected + ")");
        double r = expected == 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
        assertTrue(r <= RELATIVE, what + ": expected " + expected + " got " + actual + " (rel " + r + ")");
        return r;
    }

    private static double abs(double expected, double actual, double scale, String what) {
        double r = Math.abs(actual - expected) / scale;
        assertTrue(r <= RELATIVE, what + ": expected " + expected + " got " + actual + " (rel " + r + ")");
        return r;
    }

    private static String json(Add a, boolean retract) {
        return "{\"features\":{\"x\":" + a.x()[0] + ",\"y\":" + a.x()[1] + ",\"z\":" + a.x()[2] + ",\"colour\":\""
                + a.colour() + "\"},\"label\":\"" + a.label() + "\",\"weight\":" + a.w()
                + (retract ? ",\"retract\":true" : "") + "}";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
