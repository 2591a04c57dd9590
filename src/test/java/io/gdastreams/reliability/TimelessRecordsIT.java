package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.TimelessRecordInterceptor;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records without a valid timestamp (-1: the Java producer refuses to set one, but writes -1 for a record that
 * reports it, and other clients write what they like) on every topic the services read (both inputs, the model
 * topic, the trainer's internal partials topic), with the product's {@code train} (forgetting on) and
 * {@code score} on a real broker: each stopped its service, at every restart on the same record (Kafka's default
 * extractor, a global store's record, the partials topic's own extractor). Now the labelled event is dead-lettered
 * (forgetting has no time to weigh it by), the unlabelled one scored, the model record read as any other, the
 * partials record dead-lettered as unreadable; both services go on and every valid event is absorbed once.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TimelessRecordsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int MORE = 10;

    @TempDir
    Path dir;

    /** A record the producer sends with timestamp -1 (RecordBatch.NO_TIMESTAMP), the one negative it passes on. */
    private static ProducerRecord<byte[], byte[]> timeless(String topic, String key, byte[] value) {
        return new ProducerRecord<>(topic, 0, key.getBytes(StandardCharsets.UTF_8), value) {
            @Override
            public Long timestamp() {
                return -1L;
            }
        };
    }

    @Test
    void recordsWithoutTimestampStopNeitherServiceAndEachIsAccountedFor(KafkaBroker broker) throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String appId = UniqueNames.of("timeless");
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris", appId,
                dir.resolve("state"), 1);
        config.put("gda.forgetting.half-life.ms", "86400000");
        String partials = TrainingTopology.partials(appId + "-training").name();
        List<LabelledRow> rows = Iris.rows();
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             ProductProcess score = new ProductProcess(Command.SCORE, config, dir, "score");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            train.start();
            train.awaitRunning(TIMEOUT);
            TrainingRuns.send(producer, topics, rows, 0, rows.size());
            ModelParameters trained = TrainingRuns.lastModel(broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, train::assertAlive));
            assertEquals(150, trained.totalCount());
            score.start();
            score.awaitRunning(TIMEOUT);

            // The model topic (both services' global stores) and the trainer's internal partials topic, too.
            producer.send(timeless(topics.model().name(), "iris", topics.model().valueBytes(trained))).get();
            long partialsAt = producer.send(timeless(partials, "iris", "not a snapshot".getBytes(
                    StandardCharsets.UTF_8))).get().offset();
            long labelledAt = producer.send(timeless(topics.labelled().name(), "timeless",
                    HostileRecords.validEvent(rows.get(0).x(), rows.get(0).label()))).get().offset();
            double[] x = rows.get(0).x();
            producer.send(timeless(topics.unlabelled().name(), "u-timeless", unlabelled(x))).get();

            List<ConsumerRecord<byte[], DeadLetter>> letters;
            try {
                letters = broker.readUntil(topics.deadLetters(), records -> {
                    train.assertAlive();
                    return records.size() >= 2;
                }, TIMEOUT);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + train.tails(80), e);
            }
            DeadLetter labelledLetter = letterFrom(letters, topics.labelled().name());
            assertEquals(labelledAt, labelledLetter.offset());
            assertEquals(partialsAt, letterFrom(letters, partials).offset());
            assertEquals("no event time: the record timestamp is -1 but gda.forgetting.half-life.ms weighs events"
                    + " by it", labelledLetter.reason());

            List<ConsumerRecord<byte[], Prediction>> predictions = broker.readUntil(topics.predictions(), records -> {
                score.assertAlive();
                return !records.isEmpty();
            }, TIMEOUT);
            ConsumerRecord<byte[], Prediction> prediction = predictions.get(0);
            assertEquals(Prediction.Status.SCORED, prediction.value().status(), prediction.value().reason());
            assertEquals(rows.get(0).label(), prediction.value().label());
            Header own = prediction.headers().lastHeader(TimelessRecordInterceptor.OWN_TIMESTAMP_HEADER);
            assertNotNull(own, "the prediction says its event had no timestamp");
            assertEquals("-1", new String(own.value(), StandardCharsets.US_ASCII));

            TrainingRuns.send(producer, topics, rows, 0, MORE);
            ModelParameters after = TrainingRuns.lastModel(broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, train::assertAlive));
            assertEquals(150 + MORE, after.totalCount(), "every valid event once, the timeless one not at all");
            train.assertAlive();
            score.assertAlive();

            // Restarted, both read the model topic's records again into their global stores, the timeless one too.
            train.sigterm();
            score.sigterm();
            train.start();
            score.start();
            train.awaitRunning(TIMEOUT);
            score.awaitRunning(TIMEOUT);
            producer.send(new ProducerRecord<>(topics.unlabelled().name(), 0, "u-after".getBytes(
                    StandardCharsets.UTF_8), unlabelled(x))).get();
            List<ConsumerRecord<byte[], Prediction>> all = broker.readUntil(topics.predictions(), records -> {
                score.assertAlive();
                return records.size() >= 2;
            }, TIMEOUT);
            assertEquals(Prediction.Status.SCORED, all.get(1).value().status(), all.get(1).value().reason());
            Thread.sleep(2_000);
            train.assertAlive();
            score.assertAlive();
            train.sigterm();
            score.sigterm();
        }
    }

    private static byte[] unlabelled(double[] x) {
        return ("{\"features\": {\"sepal_length\": " + x[0] + ", \"sepal_width\": " + x[1] + ", \"petal_length\": "
                + x[2] + ", \"petal_width\": " + x[3] + "}}").getBytes(StandardCharsets.UTF_8);
    }

    private static DeadLetter letterFrom(List<ConsumerRecord<byte[], DeadLetter>> letters, String topic) {
        return letters.stream().map(ConsumerRecord::value).filter(l -> topic.equals(l.topic())).findFirst()
                .orElseThrow(() -> new AssertionError("no dead letter from " + topic + ": " + letters));
    }
}
