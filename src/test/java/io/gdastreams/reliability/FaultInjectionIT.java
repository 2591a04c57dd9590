package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.broker.FaultInjectionBroker;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on a real broker, against the product's own {@code train} and {@code score} commands, two instances of
 * each (so every fault also makes a rebalance): the broker frozen (SIGSTOP) longer than the transaction timeout
 * and the session timeout, several times; the broker killed -9 and restarted; a trainer and a scorer killed -9
 * mid-stream and restarted. Events flow throughout ({@link #mixedEvents}). At the end the model must hold exactly
 * the valid labelled events sent, per class; every hostile one must be dead-lettered; every unlabelled event
 * must have exactly one prediction; valid model versions must only grow; the lineage must cover every offset.
 *
 * <p>{@link FaultPlan} sets the schedule: the CI plan here (about two minutes), or a long one chosen with system
 * properties (docs/RELIABILITY.md: e.g. ten 120 s outages).
 */
class FaultInjectionIT {

    private static final String MODEL_ID = "faults";
    private static final int PARTITIONS = 4;
    private static final Duration CONVERGENCE = Duration.ofSeconds(240);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** Of each start's output, for a failure message: four processes, several starts, long runs. */
    private static final int LOG_TAIL_LINES = 150;
    private static final long SEED = 12_0012L;
    /** The classes of the valid labelled events, which count (tally) under their label. */
    private static final List<String> LABELS = List.of("north", "south", "east");
    /** Tally of the labelled events that are not JSON. */
    private static final String HOSTILE = "hostile";
    private static final String UNLABELLED = "unlabelled";

    /** Kept when the test fails: the products' logs (one file per start) are the diagnosis. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldLoseAndDuplicateNothingUnderBrokerOutagesCrashesAndRebalances() throws Exception {
        System.out.println("FaultInjectionIT: product logs in " + dir);
        FaultPlan plan = FaultPlan.fromSystemProperties();
        Topics topics = new Topics("f-labelled", "f-unlabelled", "f-model", "f-predictions", "f-dead-letters");
        try (FaultInjectionBroker broker = FaultInjectionBroker.start()) {
            Map<String, ProductProcess> processes = new TreeMap<>();
            for (Command command : List.of(Command.TRAIN, Command.SCORE)) {
                for (String instance : List.of("a", "b")) {
                    Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID,
                            "faults", dir.resolve("state-" + command.role() + "-" + instance), PARTITIONS);
                    config.putAll(plan.streamsOverrides());
                    // A restore held by a hanging transaction is named after a minute, not five: the test then does
                    // what the message says (HangingTransactionOperator) within its convergence time.
                    config.put("gda.restore.patience.ms", "60000");
                    // A restarted service checks the cluster within this before it runs, and exits 1 if it cannot
                    // (as it should). 15 s was too short when the machine is loaded (two of these tests side by
                    // side: every run ended there); a crash test is not about a slow start.
                    config.put("gda.broker.timeout.ms", "60000");
                    String name = command.role() + "-" + instance;
                    processes.put(name, new ProductProcess(command, config, dir, name));
                }
            }
            FaultReport report = new FaultReport();
            try (EventFlow flow = new EventFlow(broker, plan.eventsPerSecond(),
                    mixedEvents(topics, plan.hostileEvery()))) {
                for (ProductProcess process : processes.values()) {
                    process.start();
                    process.awaitRunning(START_TIMEOUT); // the first one creates the topics
                }
                flow.start();
                for (FaultPlan.Step step : plan.steps()) {
                    Thread.sleep(step.before().toMillis());
                    flow.checkHealthy();
                    assertAllAlive(processes);
                    report.injected(step.describe());
                    switch (step.fault()) {
                        case PAUSE_BROKER -> {
                            broker.pause();
                            Thread.sleep(step.duration().toMillis());
                            broker.resume();
                        }
                        case KILL_BROKER -> broker.killAndRestart();
                        case KILL_TRAINER, KILL_SCORER -> {
                            ProductProcess victim = processes.get(
                                    (step.fault() == FaultPlan.Fault.KILL_TRAINER ? "training" : "scoring") + "-a");
                            victim.sigkill();
                            Thread.sleep(step.duration().toMillis());
                            victim.start();
                        }
                    }
                }
                Thread.sleep(plan.tail().toMillis());
                flow.stop();
                Acknowledged sent = Acknowledged.by(flow);
                report.sent(sent);

                List<ConsumerRecord<String, ModelParameters>> models;
                try {
                    HangingTransactionOperator operator = new HangingTransactionOperator(broker.admin());
                    models = broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), CONVERGENCE, () -> {
                        assertAllAlive(processes);
                        operator.act(() -> processes.values().stream().map(ProductProcess::log).toList());
                    });
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\n" + logs(processes), e);
                }
                ModelParameters model = models.get(models.size() - 1).value();
                // Until every id has a prediction (copies do not count: KAFKA-20734, below), then all that is there,
                // so that a copy after the last new id is seen too.
                broker.readUntil(topics.predictions().name(), SerdeFactory.string().deserializer(),
                        topics.predictions().valueDeserializer(), read -> read.stream().map(r -> r.value().id())
                                .distinct().count() >= sent.unlabelledIds().size(), CONVERGENCE);
                List<ConsumerRecord<String, Prediction>> predictions = broker.readAll(topics.predictions().name(),
                        SerdeFactory.string().deserializer(), topics.predictions().valueDeserializer(), CONVERGENCE);
                List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readAll(topics.deadLetters(), CONVERGENCE);
                report.observed(model, models, predictions.size());
                report.recovered(processes.values());
                System.out.println(report.table());
                SkippedMarkers skipped = SkippedMarkers.in(broker.logFile());

                assertModelHoldsExactlyWhatWasSent(sent, model);
                List<ConsumerRecord<byte[], DeadLetter>> trainingLetters = letters.stream()
                        .filter(r -> topics.labelled().name().equals(r.value().topic())).toList();
                Map<String, List<ConsumerRecord<byte[], DeadLetter>>> lettersBySource = copies(trainingLetters,
                        r -> r.value().topic() + "-" + r.value().partition() + "@" + r.value().offset());
                assertNoCopiesButTheBrokers(lettersBySource, skipped, "dead-lettered more than once");
                assertEquals(sent.hostile(), lettersBySource.size(), "every hostile labelled event dead-lettered");
                assertEquals(sent.labelled(), model.totalCount() + lettersBySource.size(),
                        "applied + dead-lettered = labelled records sent");
                assertEveryUnlabelledEventHasExactlyOnePrediction(sent, predictions, skipped,
                        () -> broker.readAll(topics.unlabelled().name(), CONVERGENCE));
                assertVersionsOnlyGrow(models);
                assertAllAlive(processes);
            } finally {
                for (ProductProcess process : processes.values()) {
                    process.close();
                }
                // Beside the product logs (kept when the test fails): the broker's side of transactions and groups.
                java.nio.file.Files.copy(broker.logFile(), dir.resolve("broker.log"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Tick {@code n}'s events: a labelled one (every {@code hostileEvery}-th is not JSON) and an unlabelled one,
     * from three well-separated Gaussian classes over (x, y, z). Fixed seed; called on the flow's thread only.
     */
    private static LongFunction<List<EventFlow.Event>> mixedEvents(Topics topics, int hostileEvery) {
        Random random = new Random(SEED);
        return n -> {
            int k = (int) (n % LABELS.size());
            String label = LABELS.get(k);
            boolean hostile = hostileEvery > 0 && n % hostileEvery == hostileEvery - 1;
            String value = hostile ? "{\"features\": {\"x\": 1.0, \"label\": " + n
                    : json(random, k, "\"label\":\"" + label + "\"");
            EventFlow.Event labelled = new EventFlow.Event(topics.labelled().name(), "l-" + n, bytes(value),
                    hostile ? HOSTILE : label);
            String id = "u-" + n;
            EventFlow.Event unlabelled = new EventFlow.Event(topics.unlabelled().name(), id,
                    bytes(json(random, k, "\"id\":\"" + id + "\"")), UNLABELLED);
            return List.of(labelled, unlabelled);
        };
    }

    /** An event of class {@code k}: the classes are well separated over (x, y, z). */
    private static String json(Random random, int k, String extra) {
        return String.format(Locale.ROOT, "{\"features\":{\"x\":%.9f,\"y\":%.9f,\"z\":%.9f},%s}",
                random.nextGaussian() + 4 * k, 2 * random.nextGaussian() - 3 * k, random.nextGaussian() + k * k, extra);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** What the flow had acknowledged when it stopped, in the terms of the assertions. */
    private record Acknowledged(Map<String, Long> validByLabel, long hostile, Set<String> unlabelledIds) {

        static Acknowledged by(EventFlow flow) {
            Map<String, Long> validByLabel = new TreeMap<>(flow.acknowledgedByTally());
            validByLabel.keySet().retainAll(LABELS);
            return new Acknowledged(validByLabel, flow.acknowledged(HOSTILE), flow.acknowledgedIds(UNLABELLED));
        }

        long labelled() {
            return hostile + validByLabel.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static void assertModelHoldsExactlyWhatWasSent(Acknowledged sent, ModelParameters model) {
        Map<String, Long> inModel = new TreeMap<>();
        for (ClassParameters c : model.classes()) {
            inModel.put(c.label(), c.count());
        }
        assertEquals(sent.validByLabel(), inModel, "per-class counts of the final model");
    }

    private static void assertEveryUnlabelledEventHasExactlyOnePrediction(
            Acknowledged sent, List<ConsumerRecord<String, Prediction>> predictions, SkippedMarkers skipped,
            java.util.function.Supplier<List<ConsumerRecord<byte[], byte[]>>> inputs) {
        Map<String, List<ConsumerRecord<String, Prediction>>> outputsById = copies(predictions, r -> r.value().id());
        List<String> unexplained = unexplainedCopies(outputsById, skipped);
        assertTrue(unexplained.isEmpty(), () -> "predicted more than once: " + unexplained + "\n"
                + whereDuplicated(unexplained.stream().limit(10).toList(), predictions, inputs.get()));
        assertEquals(sent.unlabelledIds().size(), outputsById.size(), "one prediction per unlabelled event");
        for (String id : sent.unlabelledIds()) {
            assertTrue(outputsById.containsKey(id), "no prediction for " + id);
        }
    }

    /** The records by {@code key}, in their order. */
    private static <K, V> Map<String, List<ConsumerRecord<K, V>>> copies(
            List<ConsumerRecord<K, V>> records, java.util.function.Function<ConsumerRecord<K, V>, String> key) {
        Map<String, List<ConsumerRecord<K, V>>> byKey = new TreeMap<>();
        for (ConsumerRecord<K, V> record : records) {
            byKey.computeIfAbsent(key.apply(record), k -> new java.util.ArrayList<>()).add(record);
        }
        return byKey;
    }

    /**
     * The keys with more than one record that the broker's skipped markers do not explain (KAFKA-20734: the copies on
     * one partition, the first written before a marker of that partition was skipped; {@link SkippedMarkers}). Those
     * it explains are printed, so that a run shows what the broker did.
     */
    private static <K, V> List<String> unexplainedCopies(Map<String, List<ConsumerRecord<K, V>>> byKey,
                                                         SkippedMarkers skipped) {
        List<String> unexplained = new java.util.ArrayList<>();
        for (Map.Entry<String, List<ConsumerRecord<K, V>>> entry : byKey.entrySet()) {
            List<ConsumerRecord<K, V>> records = entry.getValue();
            if (records.size() < 2) {
                continue;
            }
            ConsumerRecord<K, V> first = records.get(0);
            boolean onePartition = records.stream().allMatch(r -> r.partition() == first.partition());
            if (onePartition && skipped.explains(first.topic(), first.partition(), first.timestamp())) {
                System.out.println("FaultInjectionIT: " + entry.getKey() + " has " + records.size() + " records on "
                        + first.topic() + "-" + first.partition() + " (offsets " + records.stream()
                        .map(r -> Long.toString(r.offset())).toList() + "): the broker skipped a transaction marker of"
                        + " that partition after the first was written (KAFKA-20734, docs/RELIABILITY.md)");
            } else {
                unexplained.add(entry.getKey());
            }
        }
        return unexplained;
    }

    private static <K, V> void assertNoCopiesButTheBrokers(Map<String, List<ConsumerRecord<K, V>>> byKey,
                                                           SkippedMarkers skipped, String what) {
        List<String> unexplained = unexplainedCopies(byKey, skipped);
        assertTrue(unexplained.isEmpty(), () -> what + ": " + unexplained);
    }

    /**
     * For a failure: each duplicated id's predictions (partition, offset, timestamp, model version) and how many input
     * records carry it, so that a duplicate made upstream (the input written twice) is told from one the scorer made.
     */
    private static String whereDuplicated(List<String> ids, List<ConsumerRecord<String, Prediction>> predictions,
                                          List<ConsumerRecord<byte[], byte[]>> inputs) {
        StringBuilder where = new StringBuilder();
        for (String id : ids) {
            where.append(id).append(": predictions");
            predictions.stream().filter(r -> id.equals(r.value().id())).forEach(r -> where.append(' ')
                    .append(r.partition()).append('@').append(r.offset()).append(" t=").append(r.timestamp())
                    .append(" v").append(r.value().modelVersion()));
            long copies = inputs.stream().filter(r -> r.key() != null
                    && id.equals(new String(r.key(), StandardCharsets.UTF_8))).count();
            where.append("; input records with this key: ").append(copies).append('\n');
        }
        return where.toString();
    }

    private static void assertVersionsOnlyGrow(List<ConsumerRecord<String, ModelParameters>> models) {
        long previous = 0;
        for (ConsumerRecord<String, ModelParameters> record : models) {
            long version = record.value().version();
            assertTrue(version > previous, "version " + version + " at offset " + record.offset() + " after "
                    + previous);
            previous = version;
        }
    }

    private static void assertAllAlive(Map<String, ProductProcess> processes) {
        processes.values().forEach(ProductProcess::assertAlive);
    }

    private static String logs(Map<String, ProductProcess> processes) {
        StringBuilder all = new StringBuilder();
        for (ProductProcess process : processes.values()) {
            all.append(process.tails(LOG_TAIL_LINES));
        }
        return all.toString();
    }

    /** What a run injected and saw, as the table of docs/RELIABILITY.md. */
    private static final class FaultReport {
        private final List<String> faults = new ArrayList<>();
        private long labelled;
        private long valid;
        private long hostile;
        private long unlabelled;
        private long inModel;
        private long outputs;
        private long versions;
        private long lastVersion;
        private int lostState;
        private int rebuilds;
        private int stalledRestores;
        private int stallRestarts;

        void injected(String fault) {
            faults.add(fault);
        }

        void sent(Acknowledged sent) {
            labelled = sent.labelled();
            hostile = sent.hostile();
            valid = labelled - hostile;
            unlabelled = sent.unlabelledIds().size();
        }

        void observed(ModelParameters model, List<ConsumerRecord<String, ModelParameters>> models, long predictions) {
            inModel = model.totalCount();
            versions = models.size();
            lastVersion = model.version();
            outputs = predictions;
        }

        /**
         * Counts what the services logged of lost state and its rebuild from the changelogs, and of restores that
         * stalled and the restarts they got (the logs go).
         */
        void recovered(java.util.Collection<ProductProcess> processes) {
            for (ProductProcess process : processes) {
                String log = process.allLogs();
                lostState += count(log, "TrainingStateException: ");
                rebuilds += count(log, "rebuilding it from the changelog topics");
                stalledRestores += count(log, ": the restore of ");
                stallRestarts += count(log, "a changelog restore has not moved for");
            }
        }

        private static int count(String text, String what) {
            int n = 0;
            for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + what.length())) {
                n++;
            }
            return n;
        }

        String table() {
            return "FAULT-INJECTION REPORT\nfaults: " + String.join("; ", faults)
                    + "\nlost-state errors logged: " + lostState + ", rebuilds from the changelogs: " + rebuilds
                    + "\nstalled restores logged: " + stalledRestores + ", restarts for one: " + stallRestarts
                    + "\n| labelled sent | valid | hostile | in the model | unlabelled sent | predictions | model records"
                    + " | last version |\n| " + labelled + " | " + valid + " | " + hostile + " | " + inModel + " | "
                    + unlabelled + " | " + outputs + " | " + versions + " | " + lastVersion + " |";
        }
    }
}
