package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.RecordBounds;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compressed records that decompress to far more than a batch may carry, on a real broker with the product's
 * {@code score} (child JVMs with a 256 MiB heap, and 128 MiB for the records within the bound). Kafka's {@code max.message.bytes} bounds a batch as sent: a
 * producer that compresses sixty records of 8 MiB of spaces sends a few kilobytes, and before the topics carried
 * {@code max.decompressed.message.bytes} the scorer's consumer decompressed them into more than its heap and stopped
 * with an OutOfMemoryError, again at every restart (seen with this test). The input topics the product creates now
 * refuse such a record at the broker (the producer is told). Records within the bound, 300 of 1 MB, still filled
 * a 128 MiB heap, at every restart: now the client that ran out is started again reading fewer records at a
 * time (HeapBackoff), and every one is answered once. Topics made by hand without the bound are named at start, by
 * each service for what it reads.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DecompressionBombIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    /** Far above the 1 MiB bound; sixty of them are more than the scorer's 256 MiB heap. */
    private static final int BOMB_BYTES = 8 << 20;
    private static final int BOMBS = 60;
    /** Within the bound (value, key and framing), above what the scorer holds (512 KiB): answered at once. */
    private static final int LARGE_BYTES = 1_000_000;
    private static final int LARGE = 300;
    /** The heap of the scorer that reads them: 300 records of 1 MB are more than twice as much. */
    private static final String LARGE_HEAP = "128m";
    private static final Duration LARGE_TIMEOUT = Duration.ofSeconds(180);

    @TempDir
    Path dir;

    private static KafkaProducer<byte[], byte[]> compressingProducer(KafkaBroker broker) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd", ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 64 << 20,
                ProducerConfig.BUFFER_MEMORY_CONFIG, 256L << 20, ProducerConfig.LINGER_MS_CONFIG, 0),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static byte[] spaces(int bytes) {
        byte[] value = new byte[bytes];
        Arrays.fill(value, (byte) ' ');
        return value;
    }

    private Map<String, String> config(KafkaBroker broker, Topics topics) {
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris",
                UniqueNames.of("bomb"), dir.resolve("state"), 1);
        config.put("gda.features", String.join(",", Iris.FEATURES));
        return config;
    }

    private static Topics topics() {
        return new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
    }

    @Test
    void theInputTopicTheScorerCreatesRefusesRecordsThatDecompressBeyondTheBound(KafkaBroker broker) throws Exception {
        Topics topics = topics();
        List<LabelledRow> rows = Iris.rows();
        try (ProductProcess score = new ProductProcess(Command.SCORE, config(broker, topics), dir, "score")
                .withHeap(LARGE_HEAP);
             KafkaProducer<byte[], byte[]> producer = compressingProducer(broker)) {
            score.start();
            score.awaitRunning(TIMEOUT);
            producer.send(new ProducerRecord<>(topics.model().name(), "iris".getBytes(StandardCharsets.UTF_8),
                    topics.model().valueBytes(Iris.model("iris", 1, rows)))).get();
            byte[] bomb = spaces(BOMB_BYTES);
            for (int i = 0; i < BOMBS; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topics.unlabelled().name(), 0,
                        ("bomb-" + i).getBytes(StandardCharsets.UTF_8), bomb);
                ExecutionException refused = assertThrows(ExecutionException.class, () -> producer.send(record).get());
                assertInstanceOf(InvalidRecordException.class, refused.getCause(), refused.toString());
            }
            // The records within the bound are all on the topic before the scorer reads them, so that one fetch
            // brings them together (a few KB compressed, 300 MB decompressed): sent while it ran, it kept up with
            // them once in CI, and its heap never ran out.
            score.sigterm();
            byte[] large = spaces(LARGE_BYTES);
            for (int i = 0; i < LARGE; i++) {
                producer.send(new ProducerRecord<>(topics.unlabelled().name(), 0, ("large-" + i).getBytes(
                        StandardCharsets.UTF_8), large)).get();
            }
            producer.send(new ProducerRecord<>(topics.unlabelled().name(), 0, "ok".getBytes(StandardCharsets.UTF_8),
                    ("{\"features\": {\"sepal_length\": 5.1, \"sepal_width\": 3.5, \"petal_length\": 1.4,"
                            + " \"petal_width\": 0.2}}").getBytes(StandardCharsets.UTF_8))).get();
            score.start();
            List<ConsumerRecord<byte[], Prediction>> predictions;
            try {
                predictions = broker.readUntil(topics.predictions(), records -> {
                    score.assertAlive();
                    return records.size() >= LARGE + 1;
                }, LARGE_TIMEOUT);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + score.tails(80), e);
            }
            assertEquals(LARGE + 1, predictions.size());
            assertEquals(LARGE + 1, predictions.stream().map(p -> new String(p.key(), StandardCharsets.UTF_8))
                    .distinct().count(), "one answer per record, although the records were read again");
            for (ConsumerRecord<byte[], Prediction> p : predictions.subList(0, LARGE)) {
                assertEquals(Prediction.Status.UNSCORED, p.value().status(), p.value().reason());
            }
            assertEquals("setosa", predictions.get(LARGE).value().label());
            List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readUntil(topics.deadLetters(),
                    records -> records.size() >= LARGE, TIMEOUT);
            assertEquals(LARGE, letters.size());
            assertFalse(score.log().contains("decompressed size"), score.log());
            // A quarter of 128 MiB holds at most 32 records of the 1 MiB bound: so from the first failure on.
            Matcher lowered = Pattern.compile("scoring: the client ran out of heap; the next one reads at most (\\d+)"
                    + " records a poll \\(main.consumer.max.poll.records\\), (\\d+) buffered per input partition"
                    + " \\(buffered.records.per.partition\\)").matcher(score.log());
            assertTrue(lowered.find(), score.log());
            assertTrue(Integer.parseInt(lowered.group(1)) <= 32 && Integer.parseInt(lowered.group(2)) <= 32,
                    lowered.group());
            score.assertAlive();
            score.sigterm();
        }
    }

    @Test
    void topicsWithoutTheBoundAreNamedAtStartByTheServiceThatReadsThem(KafkaBroker broker) throws Exception {
        Topics topics = topics();
        // Made by hand, as an administrator would without the bound: both inputs and the model topic.
        broker.admin().createTopics(List.of(new NewTopic(topics.labelled().name(), Optional.of(1), Optional.empty()),
                new NewTopic(topics.unlabelled().name(), Optional.of(1), Optional.empty()),
                new NewTopic(topics.model().name(), Optional.of(1), Optional.empty()).configs(Map.of(
                        "cleanup.policy", "compact")))).all().get(30, TimeUnit.SECONDS);
        String model = " --entity-name " + topics.model().name() + " --add-config max.decompressed.message.bytes="
                + RecordBounds.MAX_RECORD_BYTES;
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config(broker, topics), dir, "train");
             ProductProcess score = new ProductProcess(Command.SCORE, config(broker, topics), dir, "score")) {
            train.start();
            score.start();
            train.awaitRunning(TIMEOUT);
            score.awaitRunning(TIMEOUT);
            assertTrue(train.log().contains("training: WARNING: the topics " + topics.labelled().name() + ", "
                    + topics.model().name() + " do not bound a record's decompressed size")
                    || train.log().contains("training: WARNING: the topics " + topics.model().name() + ", "
                    + topics.labelled().name() + " do not bound a record's decompressed size"), train.log());
            assertTrue(train.log().contains(" --entity-name " + topics.labelled().name()
                    + " --add-config max.decompressed.message.bytes=" + RecordBounds.MAX_EVENT_RECORD_BYTES),
                    train.log());
            assertTrue(train.log().contains(model), train.log());
            assertTrue(score.log().contains(" --entity-name " + topics.unlabelled().name()
                    + " --add-config max.decompressed.message.bytes=" + RecordBounds.MAX_EVENT_RECORD_BYTES),
                    score.log());
            assertTrue(score.log().contains(model), score.log());
            assertFalse(score.log().contains(topics.labelled().name() + " --add-config"), "the scorer names what"
                    + " it reads");
            train.sigterm();
            score.sigterm();
        }
    }
}
