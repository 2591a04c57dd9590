package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The topic part of a stalled replay's diagnosis on a real broker: the log end offset counts what is written
 * (records and transaction markers, open transactions too), the last stable offset stops at the first open
 * transaction, which is what tells "written but never committed" from "never written".
 */
@ExtendWith(KafkaBrokerExtension.class)
class StallDiagnosisIT {

    @Test
    void endAndStableOffsetsTellAnOpenTransactionFromACommittedOne(KafkaBroker broker) throws Exception {
        String topic = KafkaBroker.uniqueName("stall-diagnosis");
        broker.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        assertEquals("end 0, stable 0", StallDiagnosis.offsets(broker.admin(), topic), "an empty topic");

        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, new byte[] {1}));
            producer.commitTransaction(); // offset 0 the record, 1 the commit marker
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, new byte[] {2})).get(30, TimeUnit.SECONDS); // offset 2, open
            assertEquals("end 3, stable 2", StallDiagnosis.offsets(broker.admin(), topic));
            producer.abortTransaction();
        }
        assertTrue(StallDiagnosis.offsets(broker.admin(), "no-such-topic-" + topic).startsWith("unknown ("),
                "a topic that cannot be read says so");
    }
}
