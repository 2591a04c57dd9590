package io.gdastreams.bench;

import io.gdastreams.service.TopicProvisioner;
import io.gdastreams.settings.RecordSizeLimits;
import io.gdastreams.topology.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The benchmark's own Kafka clients on one cluster: an admin client for the stages' topics and the applications'
 * committed offsets, and the producers and consumers that load the inputs and read the outputs back (committed
 * records only).
 */
final class BenchClients implements AutoCloseable {

    /** How long one poll (or one wait between two offset checks) lasts. */
    static final Duration POLL = Duration.ofMillis(100);
    private static final long ADMIN_TIMEOUT_SECONDS = 60;
    /**
     * How long one admin call may wait for the broker (Kafka's default: 30 s per request, 60 s per call). At K = 100,
     * d = 256 with four partitions ({@code bench --memory}) each partition sends a 26 MB snapshot per publish
     * interval, and the broker, busy writing them, left the committed-offset read unanswered for over a minute.
     */
    static final Duration ADMIN_CALL_TIMEOUT = Duration.ofSeconds(120);

    private final String bootstrapServers;
    private final Admin admin;
    /** {@link #ADMIN_CALL_TIMEOUT} or a test's shorter one: the admin's request and call timeout. */
    private final Duration callTimeout;

    BenchClients(String bootstrapServers) {
        this(bootstrapServers, ADMIN_CALL_TIMEOUT);
    }

    BenchClients(String bootstrapServers, Duration callTimeout) {
        this.bootstrapServers = bootstrapServers;
        this.callTimeout = callTimeout;
        Properties adminProperties = new Properties();
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        adminProperties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) callTimeout.toMillis());
        adminProperties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) callTimeout.toMillis());
        this.admin = Admin.create(adminProperties);
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * The six topics of one stage, named {@code prefix + role}, created with
     * {@code message.timestamp.type=LogAppendTime} (every timestamp read back is the broker's append time); the
     * model topic compacted with one partition and the services' large-record bound. Returns once every partition is
     * served.
     */
    Topics createTopics(String prefix, int partitions, Stage stage) {
        Topics topics = topicsNamed(prefix);
        Map<String, String> appendTime = Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
        // The services' own plan (TopicProvisioner): the model topic's record limits (the broker's 1 MiB default
        // refused models beyond d ≈ 100 at K = 10) and the decompressed-size bounds; every topic stamped by the broker.
        List<NewTopic> plan = new ArrayList<>();
        for (NewTopic topic : TopicProvisioner.plan(topics, partitions, (short) 1, appendTime)) {
            Map<String, String> config = new HashMap<>(topic.configs()); // the model topic's lacks appendTime
            config.putAll(appendTime);
            plan.add(new NewTopic(topic.name(), topic.numPartitions(), (short) 1).configs(config));
        }
        try {
            // As the services create theirs: without the decompressed-size bound on a broker that does not know it.
            TopicProvisioner.ensure(admin, plan);
        } catch (IllegalStateException e) {
            throw failure("cannot create the topics of stage " + stage.label(), e);
        }
        return topics;
    }

    /**
     * The six topics of a stage, named {@code prefix + role}; the metrics topic too: a training stage with
     * gda.prequential=true writes to it.
     */
    static Topics topicsNamed(String prefix) {
        return new Topics(prefix + "labelled", prefix + "unlabelled", prefix + "model", prefix + "predictions",
                prefix + "dead-letters").withMetrics(prefix + "model-metrics");
    }

    /**
     * The bytes the cluster's brokers hold in the logs of every topic whose name starts with {@code prefix}, except
     * {@code excluded}, over all replicas (the bench's topics have one): record batches as written, with their
     * headers, transaction markers and aborted batches; after compression when the producer compressed. What an
     * application made the brokers receive and write, read from the brokers themselves.
     */
    long storedBytes(String prefix, Set<String> excluded) {
        try {
            long timeout = callTimeout.toMillis() + POLL.toMillis();
            List<Integer> brokers = admin.describeCluster().nodes().get(timeout, TimeUnit.MILLISECONDS).stream()
                    .map(Node::id).toList();
            long bytes = 0;
            for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions()
                    .get(timeout, TimeUnit.MILLISECONDS).values()) {
                for (LogDirDescription dir : dirs.values()) {
                    for (Map.Entry<TopicPartition, ReplicaInfo> replica
                            : dir.replicaInfos().entrySet()) {
                        String topic = replica.getKey().topic();
                        if (topic.startsWith(prefix) && !excluded.contains(topic)) {
                            bytes += replica.getValue().size();
                        }
                    }
                }
            }
            return bytes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted reading the log sizes of " + prefix + "*", e);
        } catch (ExecutionException | TimeoutException e) {
            throw failure("cannot read the log sizes of " + prefix + "*", e);
        }
    }

    /** Waits until the application's committed offsets on {@code input} reach {@code ends}. */
    void awaitCommitted(AppUnderTest app, String input, long[] ends, Duration timeout) {
        awaitCommitted(app.stage(), app.applicationId(), app::checkHealthy, input, ends, timeout);
    }

    /**
     * Waits until the committed offsets of group {@code applicationId} on {@code input} reach {@code ends}, checking
     * {@code checkHealthy} between reads. A read the broker does not answer in time, or answers with a retriable
     * error, is asked again until {@code timeout}; then the stage fails with the offsets last read and the last
     * failure. Any other error fails it at once.
     */
    void awaitCommitted(Stage stage, String applicationId, Runnable checkHealthy, String input, long[] ends,
                        Duration timeout) {
        Deadline deadline = Deadline.after(stage, timeout);
        Map<TopicPartition, OffsetAndMetadata> committed = null;
        int failedReads = 0;
        Throwable lastFailure = null;
        while (true) {
            try {
                committed = admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata()
                        .get(callTimeout.toMillis() + POLL.toMillis(), TimeUnit.MILLISECONDS);
                if (reached(committed, input, ends)) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                if (!(cause instanceof TimeoutException || cause instanceof RetriableException)) {
                    throw failure("cannot read the committed offsets of " + applicationId, e);
                }
                failedReads++;
                lastFailure = cause;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure("interrupted reading the committed offsets of " + applicationId, e);
            }
            checkHealthy.run();
            String failures = failedReads == 0 ? "" : "; " + failedReads + " read(s) of the committed offsets got no"
                    + " answer within " + callTimeout.toMillis() + " ms or a retriable error, the last: "
                    + lastFailure;
            deadline.check("after " + timeout.toSeconds() + " s waiting for the committed offsets of " + applicationId
                    + " to reach the end of " + input + " (last read: " + (committed == null ? "none succeeded"
                    : committed) + ")" + failures);
            sleep(POLL);
        }
    }

    private static boolean reached(Map<TopicPartition, OffsetAndMetadata> committed, String input, long[] ends) {
        for (int p = 0; p < ends.length; p++) {
            OffsetAndMetadata offset = committed.get(new TopicPartition(input, p));
            if (offset == null || offset.offset() < ends[p]) {
                return false;
            }
        }
        return true;
    }

    KafkaProducer<byte[], byte[]> producer(int lingerMs) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        // The scoring stage's model is published by this producer: the applications' record bound, not 1 MiB.
        properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, RecordSizeLimits.MAX_RECORD_BYTES);
        properties.put(ProducerConfig.BUFFER_MEMORY_CONFIG, (long) RecordSizeLimits.MAX_RECORD_BYTES);
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    KafkaConsumer<byte[], byte[]> consumer() {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static List<TopicPartition> partitionsOf(KafkaConsumer<?, ?> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic, Duration.ofSeconds(ADMIN_TIMEOUT_SECONDS))
                .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        return partitions;
    }

    /** A client call that failed, with the root cause rather than the future's ExecutionException wrapper. */
    static IllegalStateException failure(String message, Exception cause) {
        Throwable root = cause instanceof ExecutionException && cause.getCause() != null ? cause.getCause() : cause;
        return new IllegalStateException(message + ": " + root, root);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(10));
    }
}
