package io.gdastreams.reliability;

import io.gdastreams.broker.FaultInjectionBroker;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Two instances ("a", "b") of the product's own {@code train} on a fault-injection broker, configured as the fault
 * plan of CI wants them (a restarted instance gets 60 s to reach the cluster and to restore), for the fault tests that
 * check what the features of training do under kills and broker faults.
 */
final class TwoTrainers implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(90);
    /** The pause between a kill -9 and the restart: the group notices the member gone, its tasks move. */
    private static final Duration DOWN = Duration.ofSeconds(2);

    private final Map<String, ProductProcess> trainers = new TreeMap<>();
    private final String test;

    /** Starts both and waits until they run; {@code keys}: the test's own configuration on top of the fault plan's. */
    TwoTrainers(String test, FaultInjectionBroker broker, Topics topics, String modelId, String applicationId,
                Path dir, int partitions, Map<String, String> keys) throws InterruptedException {
        this.test = test;
        for (String instance : List.of("a", "b")) {
            Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, modelId,
                    applicationId, dir.resolve("state-" + instance), partitions);
            config.putAll(FaultPlan.ci().streamsOverrides());
            config.put("gda.restore.patience.ms", "60000");
            config.put("gda.broker.timeout.ms", "60000");
            config.putAll(keys);
            trainers.put(instance, new ProductProcess(Command.TRAIN, config, dir, "training-" + instance));
        }
        for (ProductProcess p : trainers.values()) {
            p.start();
            p.awaitRunning(START);
        }
    }

    /** kill -9 of {@code instance}, restarted after a pause; {@code sent}: for the log line. */
    void killAndRestart(String instance, long sent) throws InterruptedException {
        System.out.println(test + ": fault: kill -9 training-" + instance + " at sent=" + sent);
        trainers.get(instance).sigkill();
        Thread.sleep(DOWN.toMillis());
        trainers.get(instance).start();
    }

    /** The model records once the trainers have absorbed every labelled record; their logs' tails if they do not. */
    List<ConsumerRecord<String, ModelParameters>> modelsOnceAbsorbed(FaultInjectionBroker broker, Topics topics,
                                                                     Duration timeout) {
        try {
            return broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), timeout, this::assertAlive);
        } catch (AssertionError e) {
            StringBuilder logs = new StringBuilder();
            trainers.values().forEach(p -> logs.append(p.tails(120)));
            throw new AssertionError(e.getMessage() + "\n" + logs, e);
        }
    }

    void assertAlive() {
        trainers.values().forEach(ProductProcess::assertAlive);
    }

    /** Per instance, how often its log says it lost state or rebuilt it (expected: never). */
    String stateLosses() {
        StringBuilder lost = new StringBuilder();
        for (Map.Entry<String, ProductProcess> e : trainers.entrySet()) {
            String log = e.getValue().allLogs();
            lost.append(e.getKey()).append(": TrainingStateException ").append(count(log, "TrainingStateException"))
                    .append(", rebuilds ").append(count(log, "rebuilding it from the changelog")).append("; ");
        }
        return lost.toString();
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    @Override
    public void close() {
        for (ProductProcess p : trainers.values()) {
            p.close();
        }
    }
}
