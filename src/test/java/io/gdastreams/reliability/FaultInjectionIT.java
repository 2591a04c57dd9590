package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.app.FaultInjectionBroker;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on a real broker, against the product's own {@code train} and {@code score} commands, two instances of
 * each (so every fault also makes a rebalance): the broker frozen (SIGSTOP) longer than the transaction timeout
 * and the session timeout, several times; the broker killed -9 and restarted; a trainer and a scorer killed -9
 * mid-stream and restarted. Events flow throughout ({@link MixedEventFlow}). At the end the model must hold exactly
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

    @TempDir
    Path dir;

    @Test
    void shouldLoseAndDuplicateNothingUnderBrokerOutagesCrashesAndRebalances() throws Exception {
        FaultPlan plan = FaultPlan.fromSystemProperties();
        Topics topics = new Topics("f-labelled", "f-unlabelled", "f-model", "f-predictions", "f-dead-letters");
        try (FaultInjectionBroker broker = FaultInjectionBroker.start()) {
            Map<String, ProductProcess> processes = new TreeMap<>();
            for (Command command : List.of(Command.TRAIN, Command.SCORE)) {
                for (String instance : List.of("a", "b")) {
                    Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID,
                            "faults", dir.resolve("state-" + command.role() + "-" + instance), PARTITIONS);
                    config.putAll(plan.streamsOverrides());
                    String name = command.role() + "-" + instance;
                    processes.put(name, new ProductProcess(command, config, dir, name));
                }
            }
            FaultReport report = new FaultReport();
            try (MixedEventFlow flow = new MixedEventFlow(broker.bootstrapServers(), topics, plan.eventsPerSecond(),
                    plan.hostileEvery())) {
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
                report.sent(flow);

                List<ConsumerRecord<String, ModelParameters>> models;
                try {
                    models = broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), CONVERGENCE,
                            () -> assertAllAlive(processes));
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\n" + logs(processes), e);
                }
                ModelParameters model = models.get(models.size() - 1).value();
                List<ConsumerRecord<String, Prediction>> predictions = broker.readUntil(topics.predictions(),
                        SerdeFactory.string().deserializer(), SerdeFactory.prediction().deserializer(),
                        read -> read.size() >= flow.unlabelledAcknowledged(), CONVERGENCE);
                List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readAll(topics.deadLetters(),
                        SerdeFactory.rawBytes().deserializer(), SerdeFactory.deadLetter().deserializer(),
                        CONVERGENCE);
                report.observed(model, models, predictions.size());
                System.out.println(report.table());

                assertModelHoldsExactlyWhatWasSent(flow, model);
                long trainingLetters = letters.stream()
                        .filter(r -> topics.labelled().equals(r.value().topic())).count();
                assertEquals(flow.hostileAcknowledged(), trainingLetters, "every hostile labelled event dead-lettered");
                assertEquals(flow.labelledAcknowledged(), model.totalCount() + trainingLetters,
                        "applied + dead-lettered = labelled records sent");
                assertEveryUnlabelledEventHasExactlyOnePrediction(flow, predictions);
                assertVersionsOnlyGrow(models);
                assertAllAlive(processes);
            } finally {
                for (ProductProcess process : processes.values()) {
                    process.close();
                }
            }
        }
    }

    private static void assertModelHoldsExactlyWhatWasSent(MixedEventFlow flow, ModelParameters model) {
        Map<String, Long> inModel = new TreeMap<>();
        for (ClassParameters c : model.classes()) {
            inModel.put(c.label(), c.count());
        }
        assertEquals(flow.validAcknowledgedByLabel(), inModel, "per-class counts of the final model");
    }

    private static void assertEveryUnlabelledEventHasExactlyOnePrediction(
            MixedEventFlow flow, List<ConsumerRecord<String, Prediction>> predictions) {
        Map<String, Integer> outputsById = new HashMap<>();
        for (ConsumerRecord<String, Prediction> record : predictions) {
            outputsById.merge(record.value().id(), 1, Integer::sum);
        }
        List<String> duplicated = outputsById.entrySet().stream().filter(e -> e.getValue() > 1)
                .map(Map.Entry::getKey).limit(10).toList();
        assertTrue(duplicated.isEmpty(), "predicted more than once: " + duplicated);
        assertEquals(flow.unlabelledAcknowledged(), outputsById.size(), "one prediction per unlabelled event");
        for (String id : flow.unlabelledIds()) {
            assertTrue(outputsById.containsKey(id), "no prediction for " + id);
        }
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

        void injected(String fault) {
            faults.add(fault);
        }

        void sent(MixedEventFlow flow) {
            labelled = flow.labelledAcknowledged();
            hostile = flow.hostileAcknowledged();
            valid = labelled - hostile;
            unlabelled = flow.unlabelledAcknowledged();
        }

        void observed(ModelParameters model, List<ConsumerRecord<String, ModelParameters>> models, long predictions) {
            inModel = model.totalCount();
            versions = models.size();
            lastVersion = model.version();
            outputs = predictions;
        }

        String table() {
            return "FAULT-INJECTION REPORT\nfaults: " + String.join("; ", faults)
                    + "\n| labelled sent | valid | hostile | in the model | unlabelled sent | predictions | model records"
                    + " | last version |\n| " + labelled + " | " + valid + " | " + hostile + " | " + inModel + " | "
                    + unlabelled + " | " + outputs + " | " + versions + " | " + lastVersion + " |";
        }
    }
}
