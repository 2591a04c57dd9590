package io.gdastreams.service;

import io.gdastreams.topology.CommittedInput;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link CommittedInput} of a running Kafka Streams application, asked of the broker with the application's own
 * client settings (security included). Opened for one check when a task's state is loaded and closed after it:
 * that happens once per task start, so the clients are not worth keeping.
 */
public final class GroupCommittedInput implements CommittedInput {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommittedInput.class);
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final StreamsConfig config;
    private final String groupId;
    private final Duration timeout;
    private Admin admin;

    private GroupCommittedInput(Map<String, Object> appConfigs) {
        this.config = new StreamsConfig(appConfigs);
        this.groupId = config.getString(StreamsConfig.APPLICATION_ID_CONFIG);
        Object apiTimeout = appConfigs.get(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        this.timeout = apiTimeout == null ? DEFAULT_TIMEOUT : Duration.ofMillis(Long.parseLong(apiTimeout.toString()));
    }

    /** A {@link CommittedInput.Source}: the topology opens one per check of a restored task state. */
    public static CommittedInput open(Map<String, Object> appConfigs) {
        return new GroupCommittedInput(appConfigs);
    }

    @Override
    public OptionalLong committedOffset(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        if (admin == null) {
            admin = Admin.create(config.getAdminConfigs(groupId + "-restore-check"));
        }
        // requireStable: wait for a transaction that commits offsets of this partition to end, as the Kafka
        // Streams consumer does before it reads from the committed offset.
        ListConsumerGroupOffsetsOptions options = new ListConsumerGroupOffsetsOptions().requireStable(true);
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(
                            Map.of(groupId, new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(tp))), options)
                    .partitionsToOffsetAndMetadata(groupId).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            OffsetAndMetadata committed = offsets.get(tp);
            return committed == null ? OptionalLong.empty() : OptionalLong.of(committed.offset());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamsException("interrupted reading the committed offset of " + tp, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new StreamsException("cannot read the committed offset of " + tp + " for group " + groupId
                    + " to check the restored training state: " + e, e);
        }
    }

    @Override
    public boolean hasRecords(String topic, int partition, long from, long to) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Map<String, Object> props = new HashMap<>(config.getRestoreConsumerConfigs(groupId + "-restore-check"));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            long start = consumer.beginningOffsets(List.of(tp), timeout).get(tp);
            if (start > from) {
                // Deleted by retention: whether they were records or only transaction markers cannot be known.
                // Counting them as records would stop a trainer whose last read record merely aged out while
                // it was down; the lineage check against the published model still covers what it published.
                LOG.warn("{}: offsets {} to {} were deleted before the training state could be checked against them",
                        tp, from, Math.min(start, to));
                from = start;
            }
            if (from >= to) {
                return false;
            }
            consumer.seek(tp, from);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (consumer.position(tp, timeout) < to) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (records.records(tp).stream().anyMatch(r -> r.offset() < to)) {
                    return true;
                }
                if (System.nanoTime() > deadline) {
                    throw new StreamsException("cannot read offsets " + from + " to " + to + " of " + tp
                            + " within " + timeout + " to check the restored training state");
                }
            }
            return false;
        } catch (StreamsException e) {
            throw e;
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new StreamsException("cannot read offsets " + from + " to " + to + " of " + tp
                    + " to check the restored training state: " + e, e);
        }
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
