package io.gdastreams.service;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.serde.SerdeFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The events a stopped scorer holds, read from the changelog of its pending store on the broker: the keys whose last
 * committed value is not a tombstone (an entry is deleted when its event is answered), and where each came from. A
 * reset that keeps the scorer's committed offsets deletes that changelog, so it must know: those events are behind
 * the committed offsets and live nowhere else, and the reset moves the offsets back to the earliest of them.
 *
 * <p>Read as a restore reads it (read_committed, from the beginning to the last stable offset). Records past the
 * last stable offset belong to a transaction still open (a scorer stopped in the middle of a commit, until its
 * transaction times out): what they hold cannot be known yet, so that is an error that says to wait.
 */
public final class HeldEventsOnBroker {

    private HeldEventsOnBroker() {
    }

    /**
     * What a changelog holds: {@code count} events, the earliest source offset of those held per input partition,
     * and how many are {@code unplaced} (entries of an older release, which did not keep their source).
     */
    public record Held(long count, Map<TopicPartition, Long> earliest, long unplaced) {

        public static final Held NONE = new Held(0, Map.of(), 0);

        public Held {
            earliest = Map.copyOf(earliest);
        }
    }

    /**
     * Where a reset that keeps the scorer's offsets moves them so that {@code held} is read again: each partition of
     * a held event that has a committed offset goes back to min(committed, earliest held) (one without a committed
     * offset is read from its start anyway; under at-least-once a held event may sit above the committed offset).
     * {@code refusal} says why that cannot keep every held event, or is null: an entry that does not say where it
     * came from, one from another topic than {@code unlabelled} (the configuration changed), or from a partition
     * that is gone or whose records there were deleted (retention) or never written (the topic was made again).
     */
    public record Rewind(Map<TopicPartition, Long> offsets, String refusal) {

        public static final Rewind NONE = new Rewind(Map.of(), null);

        public Rewind {
            offsets = Map.copyOf(offsets);
        }
    }

    /** The {@link Rewind} of {@code held} for a group with {@code committed} offsets reading {@code unlabelled}. */
    public static Rewind rewind(Admin admin, Held held, String unlabelled, Map<TopicPartition, Long> committed,
                                Duration timeout) {
        if (held.unplaced() > 0) {
            return new Rewind(Map.of(), held.unplaced() + " held event(s) do not say where they came from (kept by"
                    + " an earlier release, or damaged)");
        }
        for (TopicPartition p : held.earliest().keySet()) {
            if (!p.topic().equals(unlabelled)) {
                return new Rewind(Map.of(), "held events came from " + p + ", not from the configured unlabelled"
                        + " topic " + unlabelled);
            }
        }
        if (held.earliest().isEmpty()) {
            return Rewind.NONE;
        }
        String what = "read the offsets of " + unlabelled;
        int partitions = ApplicationReset.await(admin.describeTopics(List.of(unlabelled)).allTopicNames(), timeout,
                what).get(unlabelled).partitions().size();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicPartition p : held.earliest().keySet()) {
            if (p.partition() >= partitions) {
                return new Rewind(Map.of(), "held events came from " + p + ", which no longer exists");
            }
            earliest.put(p, OffsetSpec.earliest());
            latest.put(p, OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResultInfo> starts = ApplicationReset.await(admin.listOffsets(earliest).all(),
                timeout, what);
        Map<TopicPartition, ListOffsetsResultInfo> ends = ApplicationReset.await(admin.listOffsets(latest).all(),
                timeout, what);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> e : held.earliest().entrySet()) {
            TopicPartition p = e.getKey();
            long offset = e.getValue();
            if (offset < starts.get(p).offset() || offset >= ends.get(p).offset()) {
                return new Rewind(Map.of(), "the record of a held event, " + p + " offset " + offset + ", is no longer"
                        + " on the topic (it holds offsets " + starts.get(p).offset() + " to " + ends.get(p).offset()
                        + "): deleted by retention, or the topic was made again");
            }
            Long kept = committed.get(p);
            if (kept != null) {
                offsets.put(p, Math.min(kept, offset));
            }
        }
        return new Rewind(offsets, null);
    }

    /**
     * The events held on {@code changelog} (none when the topic does not exist).
     *
     * @throws UserError  when a transaction is still open on it
     * @throws RunFailure when the broker does not answer within {@code timeout}
     */
    public static Held read(Admin admin, String changelog, String bootstrapServers, Properties client,
                            Duration timeout) {
        String what = "read " + changelog;
        if (!ApplicationReset.await(admin.listTopics().names(), timeout, what).contains(changelog)) {
            return Held.NONE;
        }
        Set<TopicPartition> partitions = ApplicationReset.await(admin.describeTopics(List.of(changelog))
                .allTopicNames(), timeout, what).get(changelog).partitions().stream()
                .map(p -> new TopicPartition(changelog, p.partition())).collect(Collectors.toSet());
        Map<TopicPartition, OffsetSpec> latest = partitions.stream()
                .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> stable = ApplicationReset.await(admin.listOffsets(latest,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all(), timeout, what);
        Map<TopicPartition, ListOffsetsResultInfo> ends = ApplicationReset.await(admin.listOffsets(latest,
                new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all(), timeout, what);
        for (TopicPartition p : partitions) {
            if (stable.get(p).offset() < ends.get(p).offset()) {
                throw new UserError(p + " has a transaction still open from offset " + stable.get(p).offset()
                        + " (a scorer stopped in the middle of a commit): the events it holds cannot be read until"
                        + " the transaction times out (transaction.timeout.ms); run reset again then");
            }
        }
        return read(partitions, stable, bootstrapServers, client, timeout);
    }

    private static Held read(Set<TopicPartition> partitions, Map<TopicPartition, ListOffsetsResultInfo> stable,
                             String bootstrapServers, Properties client, Duration timeout) {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "gda-streams-reset-held-events");
        Map<ByteBuffer, byte[]> held = new HashMap<>(); // changelog keys (per partition: sequences) → entry
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            Set<TopicPartition> unread = new HashSet<>(partitions);
            while (!unread.isEmpty()) {
                unread.removeIf(p -> consumer.position(p) >= stable.get(p).offset());
                if (System.nanoTime() > deadline) {
                    throw new RunFailure("cannot read " + unread + " to its end within " + timeout.toSeconds()
                            + " s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    // The sequence keys restart in each task: the changelog partition makes them unique.
                    ByteBuffer key = ByteBuffer.allocate(4 + record.key().length).putInt(record.partition())
                            .put(record.key()).flip();
                    if (record.value() == null) {
                        held.remove(key);
                    } else {
                        held.put(key, record.value());
                    }
                }
            }
        }
        return sources(held.values());
    }

    /** What the live entries {@code entries} (pending-store values) hold, and where they came from. */
    static Held sources(Iterable<byte[]> entries) {
        Deserializer<PendingEvent> reader = SerdeFactory.pendingEvent().deserializer();
        Map<TopicPartition, Long> earliest = new HashMap<>();
        long count = 0;
        long unplaced = 0;
        for (byte[] entry : entries) {
            count++;
            PendingEvent event;
            try {
                event = reader.deserialize(null, entry);
            } catch (RuntimeException e) {
                unplaced++; // damaged: the scorer dead-letters it on release; its source is not known here
                continue;
            }
            if (event.topic() == null || event.partition() == null || event.offset() == null) {
                unplaced++;
            } else {
                earliest.merge(new TopicPartition(event.topic(), event.partition()), event.offset(), Math::min);
            }
        }
        return new Held(count, earliest, unplaced);
    }
}
