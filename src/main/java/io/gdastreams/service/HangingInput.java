package io.gdastreams.service;

import io.gdastreams.model.PartitionProgress;
import io.gdastreams.topology.ChangelogProgress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether the training input behind a transaction that holds a {@code class-stats} restore was ever committed: the
 * lowest next offset the training progress entries in the transaction's records reach, against the offset the
 * trainer's consumer group has committed on that input partition.
 *
 * <p>Why this proves it: the trainer writes its progress (the next input offset) with every event, in the same
 * transaction as the input offsets it commits, and offsets only move forward. Had the transaction committed, the
 * group's committed offset would be at least every next offset it recorded. A committed offset below the lowest one
 * (or none) means the transaction never committed: its records are training the group will read again, and an abort
 * loses nothing. A committed offset at or past it means the coordinator may have committed the transaction without
 * writing its marker on this partition: an abort would then drop training the group has moved past. The committed
 * offset is asked with {@code requireStable}, so an offset commit still pending (a transaction open on the group's
 * offsets too) is no answer at all.
 *
 * @param inputPartition   the input partition the progress entries are of
 * @param lowestNextOffset the lowest next offset among them
 * @param committed        the group's committed offset on that partition; empty when it has none
 */
record HangingInput(String inputTopic, int inputPartition, long lowestNextOffset, OptionalLong committed) {

    /** The trainer's consumer group and input topic, where the committed offsets are asked. */
    record Training(String groupId, String inputTopic) {
    }

    /** True when the group never committed the input behind the transaction's records. */
    boolean neverCommitted() {
        return committed.isEmpty() || committed.getAsLong() < lowestNextOffset;
    }

    /** "offset 12 of labelled-0, past the consumer group's committed offset 9", and the like. */
    String describe() {
        String input = inputTopic + "-" + inputPartition;
        String group = committed.isEmpty() ? "the consumer group has committed none on it"
                : "the consumer group committed offset " + committed.getAsLong();
        return "the training progress in its records reaches from offset " + lowestNextOffset + " of " + input
                + "; " + group;
    }

    /**
     * Reads offsets {@code [start, end)} of {@code changelog} through {@code uncommitted} (a read_uncommitted reader,
     * assigned nothing) for training progress entries and asks {@code admin} for the group's committed offset on
     * their input partition. Empty when the partition is not a {@code class-stats} changelog or its records there
     * hold no progress entry (nothing can be proved then).
     */
    static Optional<HangingInput> read(Consumer<byte[], byte[]> uncommitted, Admin admin, Training training,
                                       TopicPartition changelog, long start, long end, Duration timeout)
            throws ExecutionException, InterruptedException, TimeoutException {
        if (!ChangelogProgress.isClassStatsChangelog(changelog.topic()) || start >= end) {
            return Optional.empty();
        }
        uncommitted.assign(List.of(changelog));
        uncommitted.seek(changelog, start);
        OptionalLong lowest = OptionalLong.empty();
        int partition = -1;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (uncommitted.position(changelog) < end) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("read " + changelog + " from offset " + start + " for " + timeout
                        + " without reaching offset " + end);
            }
            for (ConsumerRecord<byte[], byte[]> record : uncommitted.poll(Duration.ofMillis(100)).records(changelog)) {
                if (record.offset() >= end) {
                    break;
                }
                Optional<PartitionProgress> progress = ChangelogProgress.of(record.key(), record.value());
                if (progress.isPresent() && (lowest.isEmpty()
                        || progress.get().nextOffset() < lowest.getAsLong())) {
                    lowest = OptionalLong.of(progress.get().nextOffset());
                    partition = progress.get().partition();
                }
            }
        }
        if (lowest.isEmpty()) {
            return Optional.empty();
        }
        TopicPartition input = new TopicPartition(training.inputTopic(), partition);
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(
                        Map.of(training.groupId(), new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(input))),
                        new ListConsumerGroupOffsetsOptions().requireStable(true))
                .partitionsToOffsetAndMetadata(training.groupId()).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        OffsetAndMetadata committed = offsets.get(input);
        return Optional.of(new HangingInput(training.inputTopic(), partition, lowest.getAsLong(),
                committed == null ? OptionalLong.empty() : OptionalLong.of(committed.offset())));
    }
}
