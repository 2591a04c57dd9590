package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A well-formed partial snapshot forged onto the trainer's internal partials topic, newer than its partition's
 * (a far offset) but holding fewer events, on a real broker with the product's {@code train}: an audit saw it taken,
 * the model would have gone back, and the trainer stopped, again at every start (its combiner's store held it).
 * Now it is dead-lettered with the reason, the trainer goes on, no model goes back, and a restart finds nothing
 * to stop on.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ForgedSnapshotIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int MORE = 10;

    @TempDir
    Path dir;

    @Test
    void aForgedSnapshotThatHoldsLessIsDeadLetteredAndTheTrainerGoesOn(KafkaBroker broker) throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String appId = UniqueNames.of("forged");
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris", appId,
                dir.resolve("state"), 2);
        List<LabelledRow> rows = Iris.rows();
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            train.start();
            train.awaitRunning(TIMEOUT);
            TrainingRuns.send(producer, topics, rows, 0, rows.size());
            ModelParameters trained = TrainingRuns.lastModel(broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, train::assertAlive));
            assertEquals(150, trained.totalCount());

            RunningGaussian ahead = new RunningGaussian(trained.features().size());
            ahead.update(new double[] {1, 1, 1, 1});
            ahead.update(new double[] {2, 3, 2, 3});
            TreeMap<String, RunningGaussian> classes = new TreeMap<>(Map.of("ahead", ahead));
            byte[] forged = SerdeFactory.partialSnapshot().serializer().serialize("t", new PartialSnapshot("iris",
                    new PartitionProgress(0, 1_000_000_000_000L, 2, 0, trained.features()), classes));
            producer.send(new ProducerRecord<>(TrainingTopology.partials(appId + "-training").name(),
                    "iris".getBytes(StandardCharsets.UTF_8), forged)).get();

            List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readUntil(topics.deadLetters(), records -> {
                train.assertAlive();
                return records.stream().anyMatch(r -> r.value().reason().contains("has applied 2 events, fewer"));
            }, TIMEOUT);
            DeadLetter letter = letters.get(letters.size() - 1).value();
            assertEquals(TrainingTopology.partials(appId + "-training").name(), letter.topic());

            TrainingRuns.send(producer, topics, rows, 0, MORE);
            ModelParameters after = TrainingRuns.lastModel(broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, train::assertAlive));
            assertEquals(150 + MORE, after.totalCount(), "the trainer went on: every event once");

            // An older genuine model written again after the last one (a replay): once compacted it would be all a
            // scorer that starts finds. The trainer publishes its model again above it.
            long replay = producer.send(new ProducerRecord<>(topics.model().name(),
                    "iris".getBytes(StandardCharsets.UTF_8), topics.model().valueBytes(trained))).get().offset();
            List<ConsumerRecord<String, ModelParameters>> republished = broker.readUntil(topics.model(), records -> {
                train.assertAlive();
                return !records.isEmpty() && TrainingRuns.lastModel(records).version() > after.version();
            }, TIMEOUT);
            ModelParameters again = TrainingRuns.lastModel(republished);
            assertEquals(after.version() + 1, again.version(), "above the last version, not the replayed one");
            assertEquals(after.sources(), again.sources());
            assertEquals(150 + MORE, again.totalCount());
            train.sigterm();

            // A restart reads the combiner's store back: nothing in it stops the trainer now.
            train.start();
            List<ConsumerRecord<String, ModelParameters>> models = broker.readUntil(topics.model(), records -> {
                train.assertAlive();
                return records.size() > 1 && TrainingRuns.lastModel(records).version() > again.version();
            }, TIMEOUT);
            long previous = 0;
            for (ConsumerRecord<String, ModelParameters> r : models) {
                if (r.offset() == replay) {
                    continue; // the replay written above, not a publication
                }
                assertTrue(r.value().eventsAbsorbed() >= previous, "no model goes back: " + r.value().version());
                previous = r.value().eventsAbsorbed();
            }
            assertEquals(150 + MORE, TrainingRuns.lastModel(models).totalCount());
            Thread.sleep(2_000);
            train.assertAlive();
            train.sigterm();
        }
    }
}
