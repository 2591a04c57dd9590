package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The training stage's wait for its model, on a real broker: a record on the stage's dead-letter topic ends the wait
 * at once with its reason and coordinates (the bench's events are valid, so the model would never reach the count),
 * rather than after the stage timeout.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ModelWatcherIT {

    /** Far beyond what the test takes: reaching it would mean the dead letter was not seen. */
    private static final Duration STAGE_TIMEOUT = Duration.ofSeconds(120);

    @Test
    void shouldEndTheWaitForTheModelAtTheFirstDeadLetterWithItsReason(KafkaBroker broker) throws Exception {
        try (BenchClients clients = new BenchClients(broker.bootstrapServers())) {
            Topics topics = clients.createTopics(UniqueNames.of("watcher-") + "-", 2, Stage.TRAINING);
            // As the topology writes one: the reason, the source coordinates, the original bytes.
            String letter = "{\"reason\":\"too many features: 16 > 4 (gda.max.features)\",\"topic\":\"in\","
                    + "\"partition\":1,\"offset\":7,\"keyBase64\":null,\"valueBase64\":\"e30=\"}";
            Properties properties = new Properties();
            properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(topics.deadLetters().name(), 1, null,
                        letter.getBytes(StandardCharsets.UTF_8))).get();
            }
            try (ModelWatcher models = new ModelWatcher(clients.consumer(), topics.model(),
                    topics.deadLetters(), STAGE_TIMEOUT)) {
                IllegalStateException failure = assertThrows(IllegalStateException.class,
                        () -> models.awaitTotal(300, new Healthy()));
                assertEquals("training: the application dead-lettered a record, so the model will not reach 300 "
                        + "events: too many features: 16 > 4 (gda.max.features) (from in-1 at offset 7); see "
                        + topics.deadLetters().name() + "-1 at offset 0", failure.getMessage());
            }
        }
    }

    /** An application that never fails: the watcher's own check is what is tested. */
    private static final class Healthy implements AppUnderTest {
        @Override
        public Stage stage() {
            return Stage.TRAINING;
        }

        @Override
        public String applicationId() {
            return "none";
        }

        @Override
        public long runningAt() {
            return 0;
        }

        @Override
        public double startupSeconds() {
            return 0;
        }

        @Override
        public void checkHealthy() {
        }

        @Override
        public void close() {
        }
    }
}
