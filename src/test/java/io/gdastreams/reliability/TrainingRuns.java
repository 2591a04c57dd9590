package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** What the reliability tests of a trainer's state do alike: send rows, read the last model, wipe local state. */
final class TrainingRuns {

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
