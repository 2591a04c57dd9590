package io.gdastreams.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.StreamsConfig;

/**
 * A real Kafka broker for integration tests: one combined KRaft node (controller + broker) in the test JVM,
 * via Kafka's own {@link KafkaClusterTestKit} (internal API, kept behind this class). Obtain it through
 * {@link KafkaBrokerExtension}; it is started once per JVM and shared, so tests isolate themselves with
 * {@link #uniqueName(String)} topics, application ids and state directories.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final KafkaClusterTestKit cluster;
    private final Admin admin;

    private KafkaBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        this.admin = cluster.admin();
    }

    static KafkaBroker start() {
        try {
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build())
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "4")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("transaction.state.log.num.partitions", "4")
                    .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                    .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                    // Tests create their topics; a typo should fail rather than create an empty topic.
                    .setConfigProp("auto.create.topics.enable", "false")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new KafkaBroker(cluster);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the test broker", e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** A shared admin client; do not close it. */
    public Admin admin() {
        return admin;
    }

    /** {@code prefix-<n>-<random>}: unique in this JVM and across runs against the same broker. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + SEQUENCE.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates each topic with the given partition count (replication factor 1) and waits until it exists. */
    public void createTopics(Map<String, Integer> partitionsByTopic) {
        List<NewTopic> topics = new ArrayList<>();
        partitionsByTopic.forEach((name, partitions) -> topics.add(new NewTopic(name, partitions, (short) 1)));
        try {
            admin.createTopics(topics).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topics " + partitionsByTopic.keySet(), e.getCause());
        }
    }

    /**
     * Kafka Streams settings for a test application: exactly_once_v2, commit every 100 ms, no record cache,
     * synchronous producer sends (linger.ms=0), replication factor 1 for internal topics.
     */
    public Properties streamsProperties(String applicationId, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 0);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return props;
    }

    /** A byte producer with acks=all, idempotence and linger.ms=0; the caller closes it. */
    public KafkaProducer<byte[], byte[]> producer() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** End offset of every partition of {@code topic}, by partition. */
    public Map<Integer, Long> endOffsets(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            Map<Integer, Long> ends = new HashMap<>();
            consumer.endOffsets(partitions).forEach((tp, offset) -> ends.put(tp.partition(), offset));
            return ends;
        }
    }

    /**
     * Reads {@code topic} from the beginning (read_committed, no consumer group) until {@code done} holds for
     * everything read so far, and returns it; fails after {@code timeout}.
     */
    public <K, V> List<ConsumerRecord<K, V>> readUntil(String topic, Deserializer<K> keys, Deserializer<V> values,
                                                       Predicate<List<ConsumerRecord<K, V>>> done, Duration timeout) {
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.assign(partitions(consumer, topic));
            consumer.seekToBeginning(consumer.assignment());
            while (!done.test(records)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out after " + timeout + " reading " + topic + "; read "
                            + records.size() + " records");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    records.add(new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), r.timestamp(),
                            r.timestampType(), r.serializedKeySize(), r.serializedValueSize(),
                            keys.deserialize(r.topic(), r.key()), values.deserialize(r.topic(), r.value()),
                            r.headers(), r.leaderEpoch()));
                }
            }
        }
        return records;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
            partitions.add(new TopicPartition(topic, info.partition()));
        }
        return partitions;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the test broker", e);
        }
    }
}
