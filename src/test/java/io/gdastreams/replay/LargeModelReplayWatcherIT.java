package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.Await;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.TopicProvisioner;
import io.gdastreams.settings.RecordSizeLimits;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The replay's reader takes a model far beyond its consumer's default fetch sizes (1 MiB per partition): they
 * are soft limits, so a 13.7 MB model on a topic from {@link TopicProvisioner} arrives whole.
 */
@ExtendWith(KafkaBrokerExtension.class)
class LargeModelReplayWatcherIT {

    private static final int D = 256;
    private static final int K = 10;
    private static final long SEED = 7L;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void shouldReadAModelLargerThanTheConsumerFetchSizes(KafkaBroker broker) throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        TopicProvisioner.ensure(broker.admin(), TopicProvisioner.plan(topics, 1, (short) -1));
        String modelId = UniqueNames.of("model-id");
        ModelParameters model = randomModel(modelId);
        byte[] json = topics.model().valueBytes(model);
        assertTrue(json.length > 10 * 1024 * 1024, "a model of " + json.length + " bytes");

        // The product's producer limits, as Kafka Streams gets them (without the "producer." prefix).
        Map<String, Object> producerConfig = new HashMap<>();
        RecordSizeLimits.streamsDefaults().forEach((key, value) -> {
            if (key.startsWith("producer.")) {
                producerConfig.put(key.substring("producer.".length()), value);
            }
        });
        producerConfig.put("bootstrap.servers", broker.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topics.model().name(), modelId.getBytes(StandardCharsets.UTF_8), json)).get();
        }
        try (ReplayWatcher watcher = new ReplayWatcher(broker.bootstrapServers(), new Properties(), topics, modelId)) {
            Await.until("the watcher has the model", TIMEOUT, () -> {
                watcher.poll();
                return watcher.model() != null;
            }, () -> watcher.recordsSeen() + " records seen");
            ModelParameters read = watcher.model();
            assertEquals(model.version(), read.version());
            for (int k = 0; k < K; k++) {
                ClassParameters expected = model.classes().get(k);
                ClassParameters actual = read.classes().get(k);
                assertArrayEquals(expected.mean(), actual.mean());
                for (int i = 0; i < D; i++) {
                    assertArrayEquals(expected.covariance()[i], actual.covariance()[i]);
                }
            }
        }
    }

    private static ModelParameters randomModel(String modelId) {
        Random random = new Random(SEED);
        List<String> features = new ArrayList<>();
        for (int j = 0; j < D; j++) {
            features.add("f" + j);
        }
        List<ClassParameters> classes = new ArrayList<>();
        for (int k = 0; k < K; k++) {
            double[] mean = new double[D];
            double[][] covariance = new double[D][D];
            for (int i = 0; i < D; i++) {
                mean[i] = random.nextGaussian();
                for (int j = 0; j <= i; j++) {
                    covariance[i][j] = covariance[j][i] = random.nextGaussian();
                }
            }
            classes.add(new ClassParameters("class-" + k, 100, 1.0 / K, mean, covariance));
        }
        return new ModelParameters(modelId, 42, features, 100L * K, classes, Map.of("0", 100L * K),
                "2026-11-22T10:00:00Z");
    }
}
