package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.ModelSerde;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.ModelSigning;
import io.gdastreams.topology.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signed models and secrets on a real broker, through the product's {@code train} and {@code score} with a signing
 * key in their environment: an attacker writes a forged model under the right key id and a far higher version;
 * the scorer keeps scoring with the genuine model and the trainer publishes its own over it. Then every output of
 * the run (both processes' logs, every record of every topic with its headers, {@code /models} and
 * {@code /metrics}) is searched for the secrets: the signing secret and an (unused) keystore password.
 */
@ExtendWith(KafkaBrokerExtension.class)
class SignedModelIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final String MODEL_ID = "signed";
    private static final String SIGNING_SECRET = "SIGNING-SECRET-7f3a9c1e5b";
    private static final String KEYS = "k1:" + SIGNING_SECRET;
    private static final String KEYSTORE_PASSWORD = "KEYSTORE-PASSWORD-4d2e8b";
    private static final long FORGED_VERSION = 1_000_000;
    private static final Pattern ENDPOINT = Pattern.compile("scoring: HTTP endpoint on (http://[^ ]+)");

    @TempDir
    Path dir;

    @Test
    void forgedModelIsNeverScoredWithAndNoOutputContainsASecret(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        String app = KafkaBroker.uniqueName("signed");
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID, app,
                dir.resolve("state"), 2);
        // Not used on a PLAINTEXT listener, but handed to every client: it must not be printed.
        config.put("ssl.keystore.password", KEYSTORE_PASSWORD);
        Map<String, String> scoreConfig = new java.util.LinkedHashMap<>(config);
        scoreConfig.put("gda.http.port", "0");
        ModelSigning signing = ModelSigning.parse(KEYS);
        List<String> outputs = new ArrayList<>();
        // Kafka's own INFO lines in the children: their configuration dumps (every client's keys) are searched too.
        String kafkaLog = System.getProperty("product.kafka.log");
        System.setProperty("product.kafka.log", "info");
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train")
                     .withEnvironment(Map.of("GDA_MODEL_SIGNING_KEY", KEYS));
             ProductProcess score = new ProductProcess(Command.SCORE, scoreConfig, dir, "score")
                     .withEnvironment(Map.of("GDA_MODEL_SIGNING_KEY", KEYS));
             KafkaProducer<byte[], byte[]> producer = producer(broker)) {
            train.start();
            train.awaitRunning(TIMEOUT);
            score.start();
            score.awaitRunning(TIMEOUT);
            int n = 0;
            for (LabelledRow row : Iris.rows()) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + n++).getBytes(
                        StandardCharsets.UTF_8), HostileRecords.validEvent(row.x(), row.label()))).get();
            }
            producer.send(new ProducerRecord<>(topics.labelled().name(), "bad".getBytes(StandardCharsets.UTF_8),
                    "{not json".getBytes(StandardCharsets.UTF_8))).get(); // one dead letter in the outputs
            ModelParameters genuine = awaitModel(broker, topics, signing, 150, -1);

            // The attacker: the right key id, a far higher version, an HMAC under a guessed key.
            ModelParameters forgedModel = new ModelParameters(genuine.modelId(), FORGED_VERSION, genuine.features(),
                    genuine.totalCount(), genuine.classes(), genuine.sources(), genuine.updatedAt());
            byte[] forged = SerdeFactory.model().serializer().serialize(null, forgedModel);
            RecordHeaders wrong = new RecordHeaders();
            wrong.add(ModelSigning.HEADER, ("k1:" + Base64.getEncoder().encodeToString(
                    hmac("attacker-guess-of-the-secret!!", forged))).getBytes(StandardCharsets.US_ASCII));
            producer.send(new ProducerRecord<>(topics.model().name(), null, MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    forged, wrong)).get();
            ModelParameters republished = awaitModel(broker, topics, signing, 150, genuine.version());
            assertTrue(republished.version() > genuine.version() && republished.version() < FORGED_VERSION,
                    "the trainer published its own model over the forged one: version " + republished.version());

            for (int i = 0; i < 30; i++) {
                producer.send(new ProducerRecord<>(topics.unlabelled().name(), ("u-" + i).getBytes(
                        StandardCharsets.UTF_8), HostileRecords.validEvent(Iris.rows().get(i * 5).x(), "?"))).get();
            }
            List<Prediction> predictions = awaitPredictions(broker, topics, 30);
            for (Prediction p : predictions) {
                assertTrue(p.modelVersion() != FORGED_VERSION && p.modelVersion() <= republished.version(),
                        "scored with a genuine version, not the forged one: " + p.modelVersion());
            }
            assertTrue(score.log().contains("version " + FORGED_VERSION + " refused: bad signature under key id 'k1'"),
                    score.log());

            Matcher endpoint = ENDPOINT.matcher(score.log());
            assertTrue(endpoint.find(), score.log());
            HttpClient http = HttpClient.newHttpClient();
            for (String route : List.of("/models/" + MODEL_ID, "/metrics", "/health/ready")) {
                outputs.add(http.send(HttpRequest.newBuilder(URI.create(endpoint.group(1) + route)).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
            }
            train.sigterm();
            score.sigterm();
            outputs.add(train.allLogs());
            outputs.add(score.allLogs());
            for (String topic : List.of(topics.labelled().name(), topics.unlabelled().name(), topics.model().name(),
                    topics.predictions().name(), topics.deadLetters().name())) {
                for (ConsumerRecord<byte[], byte[]> r : readAll(broker, topic)) {
                    outputs.add(text(r.key()) + " " + text(r.value()));
                    for (Header h : r.headers()) {
                        outputs.add(h.key() + " " + text(h.value()));
                    }
                }
            }
        } finally {
            if (kafkaLog == null) {
                System.clearProperty("product.kafka.log");
            } else {
                System.setProperty("product.kafka.log", kafkaLog);
            }
        }
        assertTrue(outputs.stream().anyMatch(o -> o.contains("ssl.keystore.password")),
                "the clients' configuration dump is among the outputs searched");
        for (String output : outputs) {
            assertFalse(output.contains(SIGNING_SECRET), "the signing secret leaks:\n" + output);
            assertFalse(output.contains(KEYSTORE_PASSWORD), "the keystore password leaks:\n" + output);
        }
    }

    private static byte[] hmac(String key, byte[] value) throws java.security.GeneralSecurityException {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return mac.doFinal(value);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The newest model on the topic signed by {@code signing}, of {@code count} events and above {@code after}. */
    private static ModelParameters awaitModel(KafkaBroker broker, Topics topics, ModelSigning signing, long count,
                                              long after) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            ModelParameters newest = null;
            for (ConsumerRecord<byte[], byte[]> r : readAll(broker, topics.model().name())) {
                if (r.value() != null && signing.refusal(r.value(), r.headers()) == null) {
                    newest = ModelSerde.read(r.value());
                }
            }
            if (newest != null && newest.totalCount() == count && newest.version() > after) {
                return newest;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no signed model of " + count + " events above version " + after);
    }

    private static List<Prediction> awaitPredictions(KafkaBroker broker, Topics topics, int count)
            throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        List<Prediction> out = List.of();
        while (System.nanoTime() < deadline) {
            out = readAll(broker, topics.predictions().name()).stream()
                    .map(r -> SerdeFactory.prediction().deserializer().deserialize("p", r.value())).toList();
            if (out.size() >= count) {
                assertEquals(count, out.size());
                return out;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(out.size() + " predictions of " + count);
    }

    private static KafkaProducer<byte[], byte[]> producer(KafkaBroker broker) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Every record of {@code topic} up to its end now (read committed: no aborted transaction). */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(KafkaBroker broker, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }
}
