package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What the reliability tests of a trainer's state do alike: send rows, read the last model, wipe local state, check
 * that a restarted trainer goes on exactly.
 */
final class TrainingRuns {

    /** The model id of {@link #restoreTestConfig}. */
    static final String RESTORE_MODEL = "iris";

    private TrainingRuns() {
    }

    /** Sends rows {@code first} … {@code first + count − 1} as labelled events keyed {@code row-<i>}, one by one. */
    static void send(KafkaProducer<byte[], byte[]> producer, Topics topics, List<LabelledRow> rows, int first,
                     int count) throws Exception {
        for (int i = first; i < first + count; i++) {
            producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + i).getBytes(StandardCharsets.UTF_8),
                    HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label()))).get();
        }
    }

    /**
     * The product's configuration for a restore test on {@code broker}: one partition, model {@value #RESTORE_MODEL},
     * a restore patience of 5 s (the default is 5 minutes) so that a stall is judged within seconds, and an HTTP
     * endpoint on a free port.
     */
    static Map<String, String> restoreTestConfig(KafkaBroker broker, Topics topics, String appId, Path stateDir) {
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, RESTORE_MODEL,
                appId, stateDir, 1);
        config.put("gda.restore.patience.ms", "5000");
        config.put("gda.http.port", "0");
        return config;
    }

    /**
     * Starts {@code train}, sends Iris rows 0 … {@code n − 1} and returns the first model on the topic that holds
     * {@code n} events (its lineage may count transaction markers beside them).
     */
    static ModelParameters startAndTrain(ProductProcess train, KafkaBroker broker,
                                         KafkaProducer<byte[], byte[]> producer, Topics topics, List<LabelledRow> rows,
                                         int n, Duration timeout) throws Exception {
        train.start();
        train.awaitRunning(timeout);
        send(producer, topics, rows, 0, n);
        return modelOf(broker, topics, n, timeout);
    }

    /** The first model on the topic that holds {@code total} events, read within {@code timeout}. */
    static ModelParameters modelOf(KafkaBroker broker, Topics topics, long total, Duration timeout) {
        return lastModel(broker.readUntil(topics.model(), records -> !records.isEmpty()
                && records.get(records.size() - 1).value().totalCount() == total, timeout));
    }

    /**
     * Starts {@code train}, sends Iris rows 0 … {@code n − 1}, waits for the model of all of them, stops it cleanly
     * and deletes its local state ({@code appState}): the next start restores every store from its changelog.
     */
    static void trainStopAndWipe(ProductProcess train, KafkaBroker broker, KafkaProducer<byte[], byte[]> producer,
                                 Topics topics, List<LabelledRow> rows, int n, Path appState, Duration timeout)
            throws Exception {
        train.start();
        train.awaitRunning(timeout);
        send(producer, topics, rows, 0, n);
        assertEquals(n, lastModel(broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), timeout,
                train::assertAlive)).totalCount(), "first model");
        assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        deleteRecursively(appState);
    }

    /**
     * Sends Iris rows {@code first} … {@code first + count − 1} and checks that the model which absorbed them holds
     * exactly rows 0 … {@code first + count − 1}: the total, the counts per class of the Iris reference, and a
     * lineage of them all from partition 0.
     */
    static void assertTrainsOnExactly(ProductProcess train, KafkaBroker broker, KafkaProducer<byte[], byte[]> producer,
                                      Topics topics, List<LabelledRow> rows, int first, int count, String modelId,
                                      Duration timeout) throws Exception {
        send(producer, topics, rows, first, count);
        ModelParameters last = lastModel(broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), timeout,
                train::assertAlive));
        int all = first + count;
        ModelParameters expected = Iris.model(modelId, last.version(), rows.subList(0, all), last.features());
        String found = "final model: total " + last.totalCount() + ", per class " + counts(last) + ", lineage "
                + last.sources() + "\n" + train.tails(30);
        assertEquals(all, last.totalCount(), found);
        assertEquals(counts(expected), counts(last), found);
        assertEquals(Map.of("0", (long) all), last.sources(), found);
    }

    static ModelParameters lastModel(List<ConsumerRecord<String, ModelParameters>> models) {
        assertFalse(models.isEmpty(), "no model published");
        return models.get(models.size() - 1).value();
    }

    /** Events per class label. */
    static Map<String, Long> counts(ModelParameters model) {
        return model.classes().stream().collect(Collectors.toMap(ClassParameters::label, ClassParameters::count,
                Long::sum, TreeMap::new));
    }

    /** Deletes {@code root} and everything below it, if it exists. */
    static void deleteRecursively(Path root) throws Exception {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
