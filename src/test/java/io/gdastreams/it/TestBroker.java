package io.gdastreams.it;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.service.TopicProvisioner;
import io.gdastreams.topology.Topic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
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
import org.apache.kafka.streams.StreamsConfig;

/**
 * A real broker as integration tests use it, whatever runs it (the in-JVM {@link KafkaBroker}, or a container):
 * topics, a producer, a read_committed reader, and Kafka Streams settings for a fast test application. Only
 * {@link #bootstrapServers()} and {@link #admin()} differ between brokers; everything else is built on them.
 */
public interface TestBroker {

    String bootstrapServers();

    /** A shared admin client; do not close it. */
    Admin admin();

    /**
     * Creates each topic with the given partition count (replication factor 1) and waits until the broker serves
     * every partition (writing earlier can lose records: see {@link TopicProvisioner#awaitServed}).
     */
    default void createTopics(Map<String, Integer> partitionsByTopic) {
        List<NewTopic> topics = new ArrayList<>();
        partitionsByTopic.forEach((name, partitions) -> topics.add(new NewTopic(name, partitions, (short) 1)));
        try {
            admin().createTopics(topics).all().get();
            TopicProvisioner.awaitServed(admin(), partitionsByTopic.keySet());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topics " + partitionsByTopic.keySet(), e.getCause());
        }
    }

    /** {@link #streamsProperties(String, String, Path)} on this broker. */
    default Properties streamsProperties(String applicationId, Path stateDir) {
        return streamsProperties(bootstrapServers(), applicationId, stateDir);
    }

    /**
     * Kafka Streams settings for a test application: exactly_once_v2, commit every 100 ms, no record cache,
     * synchronous producer sends (linger.ms=0), replication factor 1 for internal topics.
     */
    static Properties streamsProperties(String bootstrapServers, String applicationId, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
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
    default KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(producerConfig(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** As {@link #producer()}, writing keys and values as {@code topic} declares them. */
    default <K, V> KafkaProducer<K, V> producer(Topic<K, V> topic) {
        return new KafkaProducer<>(producerConfig(), topic.keySerializer(), topic.valueSerializer());
    }

    /**
     * As {@link #producer()}, transactional under a unique id, with transactions that the coordinator leaves open
     * for {@code timeout} (a transaction left open by a crashed writer looks like that until then, a hanging one for
     * good); the caller initialises its transactions and closes it.
     */
    default KafkaProducer<byte[], byte[]> transactionalProducer(Duration timeout) {
        Map<String, Object> config = producerConfig();
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, UniqueNames.of("transactional"));
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Math.toIntExact(timeout.toMillis()));
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        return config;
    }

    /**
     * End offset of every partition of {@code topic}, by partition: under read_committed, the last stable offset
     * (nothing of an open transaction counts).
     */
    default Map<Integer, Long> endOffsets(Topic<?, ?> topic) {
        return endOffsets(topic.name());
    }

    /** {@link #endOffsets(Topic)} by name. */
    default Map<Integer, Long> endOffsets(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = readCommittedFromBeginning(topic)) {
            Map<Integer, Long> ends = new HashMap<>();
            consumer.endOffsets(consumer.assignment()).forEach((tp, offset) -> ends.put(tp.partition(), offset));
            return ends;
        }
    }

    /**
     * A read_committed consumer without a group, assigned every partition of {@code topic} from its beginning;
     * the caller polls and closes it. {@link #readUntil} and {@link #readAll} open one per call; a reader that
     * keeps its position between checks (to note when each record became visible) keeps one open.
     */
    default KafkaConsumer<byte[], byte[]> readCommittedFromBeginning(String topic) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return consumer;
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /**
     * The models on {@code modelTopic} up to the first whose lineage ({@code sources}) covers every record now on
     * {@code labelledTopic}; {@code whileWaiting} runs before every check (e.g. to fail fast when a stream thread
     * died). Fails after {@code timeout}.
     */
    default List<ConsumerRecord<String, ModelParameters>> readModelsUntilAbsorbed(
            Topic<?, ?> labelledTopic, Topic<String, ModelParameters> modelTopic, Duration timeout,
            Runnable whileWaiting) {
        Map<String, Long> expectedSources = new TreeMap<>();
        endOffsets(labelledTopic).forEach((p, end) -> expectedSources.put(Integer.toString(p), end));
        return readUntil(modelTopic,
                records -> {
                    whileWaiting.run();
                    return !records.isEmpty() && expectedSources.equals(
                            new TreeMap<>(records.get(records.size() - 1).value().sources()));
                }, timeout);
    }

    /** {@link #readUntil(String, Deserializer, Deserializer, Predicate, Duration)}, decoded as {@code topic} declares. */
    default <K, V> List<ConsumerRecord<K, V>> readUntil(Topic<K, V> topic, Predicate<List<ConsumerRecord<K, V>>> done,
                                                        Duration timeout) {
        return readUntil(topic.name(), topic.keyDeserializer(), topic.valueDeserializer(), done, timeout);
    }

    /**
     * Reads {@code topic} from the beginning (read_committed, no consumer group) until {@code done} holds for
     * everything read so far, and returns it; fails after {@code timeout}.
     */
    default <K, V> List<ConsumerRecord<K, V>> readUntil(String topic, Deserializer<K> keys, Deserializer<V> values,
                                                        Predicate<List<ConsumerRecord<K, V>>> done,
                                                        Duration timeout) {
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = readCommittedFromBeginning(topic)) {
            while (!done.test(records)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out after " + timeout + " reading " + topic + "; read "
                            + records.size() + " records");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    records.add(decoded(r, keys, values));
                }
            }
        }
        return records;
    }

    /**
     * Every committed record of {@code topic} up to its last stable offset as of the call (a read_committed
     * consumer's end offsets): what the topic holds now, with nothing still to come counted in.
     */
    default <K, V> List<ConsumerRecord<K, V>> readAll(String topic, Deserializer<K> keys, Deserializer<V> values,
                                                      Duration timeout) {
        Map<Integer, Long> ends = endOffsets(topic);
        Map<Integer, Long> positions = new HashMap<>();
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = readCommittedFromBeginning(topic)) {
            while (true) {
                for (TopicPartition tp : consumer.assignment()) {
                    positions.put(tp.partition(), consumer.position(tp));
                }
                boolean atEnd = ends.entrySet().stream()
                        .allMatch(e -> positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
                if (atEnd) {
                    return records;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out after " + timeout + " reading " + topic + " to " + ends);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    records.add(decoded(r, keys, values));
                }
            }
        }
    }

    /** {@link #readAll(String, Deserializer, Deserializer, Duration)}, decoded as {@code topic} declares. */
    default <K, V> List<ConsumerRecord<K, V>> readAll(Topic<K, V> topic, Duration timeout) {
        return readAll(topic.name(), topic.keyDeserializer(), topic.valueDeserializer(), timeout);
    }

    /** {@link #readAll(String, Deserializer, Deserializer, Duration)} with keys and values as they are stored. */
    default List<ConsumerRecord<byte[], byte[]>> readAll(String topic, Duration timeout) {
        return readAll(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer(), timeout);
    }

    private static <K, V> ConsumerRecord<K, V> decoded(ConsumerRecord<byte[], byte[]> r, Deserializer<K> keys,
                                                       Deserializer<V> values) {
        return new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), r.timestamp(), r.timestampType(),
                r.serializedKeySize(), r.serializedValueSize(), keys.deserialize(r.topic(), r.key()),
                values.deserialize(r.topic(), r.value()), r.headers(), r.leaderEpoch());
    }
}
