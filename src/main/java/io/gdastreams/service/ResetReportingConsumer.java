package io.gdastreams.service;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' main consumer, telling what a reset skips. Kafka Streams reads with {@code auto.offset.reset=none}
 * and resets a partition itself when the broker refuses its position as out of range, i.e. the records there were
 * deleted (retention, or a deletion of records) before they were read: it seeks to the beginning (or the end, as
 * {@code auto.offset.reset} says) and goes on, saying nothing of the offsets in between. This consumer keeps the
 * position the broker refused and, after the seek, asks where reading resumes; the offsets between go to
 * {@code report}. That happens on the stream thread before any record after the gap is processed, so a report that
 * fails (or a crash before it) leaves the committed offset below the gap, and the next start finds it again.
 *
 * <p>At a first start a partition has no committed offset ({@code NoOffsetForPartitionException}): reading from the
 * earliest offset then skips nothing this application ever had, and nothing is reported.
 */
final class ResetReportingConsumer extends KafkaConsumer<byte[], byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(ResetReportingConsumer.class);

    /** The positions the broker refused, until the reset that follows (the stream thread's alone). */
    private final Map<TopicPartition, Long> refused = new HashMap<>();
    private final Consumer<DeletedInput> report;

    ResetReportingConsumer(Map<String, Object> config, Consumer<DeletedInput> report) {
        super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.report = report;
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        // Kafka Streams resets right after a refusal, before it polls again: an entry still here was not reset
        // (Kafka Streams failed first), and must not be reported by a later, unrelated seek.
        refused.clear();
        try {
            return super.poll(timeout);
        } catch (OffsetOutOfRangeException e) {
            refused.putAll(e.offsetOutOfRangePartitions());
            throw e;
        }
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        super.seekToBeginning(partitions);
        reportSkipped(partitions);
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        super.seekToEnd(partitions);
        reportSkipped(partitions);
    }

    /**
     * Kafka Streams commits a partition's offset only once it processes a record of it: with nothing after the gap
     * yet, the committed offset would stay at its start, and every restart would report the gap again. When the
     * group's stable committed offset is the gap's start (nothing before it is still being processed), committing
     * where reading resumes loses nothing; it keeps the committed offset's metadata (Kafka Streams' partition time).
     * Otherwise a record processed before the gap is not committed yet, and Kafka Streams' own commit moves on.
     */
    private void commitPastGap(TopicPartition partition, long from, long resumed) {
        try {
            // Under read_committed the consumer asks for stable offsets: a transaction's pending commit waits.
            OffsetAndMetadata committed = committed(Set.of(partition)).get(partition);
            if (committed != null && committed.offset() == from) {
                commitSync(Map.of(partition, new OffsetAndMetadata(resumed, Optional.empty(),
                        committed.metadata())));
            }
        } catch (KafkaException e) {
            LOG.warn("{}: the committed offset stays at {}, the start of the gap reported (a restart before a record"
                    + " after it is processed reports it again): {}", partition, from, e.getMessage());
        }
    }

    private void reportSkipped(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            Long from = refused.remove(partition);
            if (from == null) {
                continue;
            }
            // Resolves the seek now (the next poll would): where reading resumes.
            long resumed = position(partition);
            if (resumed > from) {
                report.accept(new DeletedInput(partition, from, resumed));
                commitPastGap(partition, from, resumed);
            } else if (resumed < from) {
                LOG.warn("{}: reading resumes at offset {}, below offset {} that the broker refused as out of range:"
                        + " the partition was truncated or recreated, and offsets {} to {} may be read again",
                        partition, resumed, from, resumed, from - 1);
            }
        }
    }
}
