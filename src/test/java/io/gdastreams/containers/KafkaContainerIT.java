package io.gdastreams.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;

/**
 * The broker image in a container, reached the way an application reaches a real cluster: over the advertised
 * 127.0.0.1 listener, with transactions. Needs Docker ({@link ContainerTest}).
 */
@ContainerTest
class KafkaContainerIT {

    private static final int PARTITIONS = 3;
    private static final int COMMITTED_PER_TRANSACTION = 50;
    private static final int ABORTED = 20;
    private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final long ADMIN_TIMEOUT_S = 60;

    @Container
    static final HostNetworkKafkaContainer KAFKA = new HostNetworkKafkaContainer(BrokerImage.configured());

    @Test
    void shouldAdvertiseOnlyTheLoopbackListener() throws Exception {
        try (Admin admin = admin()) {
            Collection<Node> nodes = admin.describeCluster().nodes().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);

            assertEquals(1, nodes.size(), "one combined KRaft node");
            Node node = nodes.iterator().next();
            assertEquals("127.0.0.1", node.host());
            assertEquals(KAFKA.getBootstrapServers(), node.host() + ":" + node.port());
        }
    }

    @Test
    void shouldShowReadCommittedConsumersOnlyCommittedTransactions() throws Exception {
        String topic = "tx-" + UUID.randomUUID();
        createTopic(topic);

        List<String> firstCommit = values("committed-a", COMMITTED_PER_TRANSACTION);
        List<String> aborted = values("aborted", ABORTED);
        List<String> secondCommit = values("committed-b", COMMITTED_PER_TRANSACTION);
        try (KafkaProducer<String, String> producer = transactionalProducer()) {
            producer.initTransactions();
            sendInTransaction(producer, topic, firstCommit);
            producer.commitTransaction();
            sendInTransaction(producer, topic, aborted);
            producer.abortTransaction();
            sendInTransaction(producer, topic, secondCommit);
            producer.commitTransaction();
        }

        List<String> expectedCommitted = new ArrayList<>(firstCommit);
        expectedCommitted.addAll(secondCommit);
        List<String> readCommitted = consumeAll(topic, "read_committed", expectedCommitted.size());
        List<String> readUncommitted = consumeAll(topic, "read_uncommitted", expectedCommitted.size() + ABORTED);

        assertEquals(sorted(expectedCommitted), sorted(readCommitted), "committed records, each exactly once");
        List<String> expectedUncommitted = new ArrayList<>(expectedCommitted);
        expectedUncommitted.addAll(aborted);
        assertEquals(sorted(expectedUncommitted), sorted(readUncommitted),
            "read_uncommitted also sees the aborted records, so the isolation above is the broker's doing");
        assertTrue(readCommitted.stream().noneMatch(v -> v.startsWith("aborted")));
    }

    private static void sendInTransaction(KafkaProducer<String, String> producer, String topic, List<String> values)
            throws InterruptedException, ExecutionException {
        producer.beginTransaction();
        for (String value : values) {
            // Keyed by the value, so records spread over all partitions.
            producer.send(new ProducerRecord<>(topic, value, value));
        }
        producer.flush();
    }

    /** Polls until {@code expected} records arrived, then one more poll to catch any surplus (duplicates). */
    private static List<String> consumeAll(String topic, String isolation, int expected) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + isolation + "-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                 new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + CONSUME_TIMEOUT.toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                    values.add(record.value());
                }
            }
            for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                values.add(record.value());
            }
        }
        return values;
    }

    private static KafkaProducer<String, String> transactionalProducer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-" + UUID.randomUUID());
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // The broker decompresses batches to validate them: this exercises the image's zstd JNI library.
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private static void createTopic(String topic) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1)))
                .all().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers()));
    }

    private static List<String> values(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).collect(Collectors.toList());
    }

    private static List<String> sorted(List<String> values) {
        return values.stream().sorted().collect(Collectors.toList());
    }
}
