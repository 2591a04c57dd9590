package io.gdastreams.topology;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Gives a record without a valid timestamp (negative: -1 is "none"; a client that writes its record batches itself
 * can send one) the wall-clock time at which it is read, and keeps its own in the header
 * {@value #OWN_TIMESTAMP_HEADER}, before Kafka Streams sees it. Kafka Streams stops on such a record, after every
 * restart on the same one: its default extractor refuses it on an input topic, the internal partials topic's source
 * is made with {@code FailOnInvalidTimestamp}, and a global store (the model topic) builds its record from the raw
 * timestamp, which may not be negative, both when it reads and when it restores at start. Installed on the services'
 * main and global consumers, first among their interceptors, by the settings ({@code KafkaSettings.forRole}).
 *
 * <p>Only what needs the event time reads the header ({@link #own}): the trainer under
 * {@code gda.forgetting.half-life.ms} dead-letters the event, which has no time to be weighed by, and the combiner
 * does not take a refused snapshot of that kind for one sent after it started. Every other use takes the stand-in,
 * which is not repeatable (a record read again gets the time it is read again); nothing of the product depends on
 * stream time. The header goes on with the event's other headers to its prediction or dead letter. A poll without
 * such a record (every poll but a hostile one's) is passed on as it is.
 */
public final class TimelessRecordInterceptor implements ConsumerInterceptor<Object, Object> {

    /** The header that keeps a record's own (negative) timestamp, in decimal ASCII. */
    public static final String OWN_TIMESTAMP_HEADER = "gda.own-timestamp";

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        for (ConsumerRecord<Object, Object> record : records) {
            if (record.timestamp() < 0) {
                return restamped(records);
            }
        }
        return records;
    }

    private static ConsumerRecords<Object, Object> restamped(ConsumerRecords<Object, Object> records) {
        long now = System.currentTimeMillis();
        Map<TopicPartition, List<ConsumerRecord<Object, Object>>> byPartition = new HashMap<>();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<Object, Object>> out = new ArrayList<>();
            for (ConsumerRecord<Object, Object> r : records.records(partition)) {
                if (r.timestamp() >= 0) {
                    out.add(r);
                    continue;
                }
                // In place of a producer's header of that name.
                r.headers().remove(OWN_TIMESTAMP_HEADER);
                r.headers().add(OWN_TIMESTAMP_HEADER, Long.toString(r.timestamp()).getBytes(StandardCharsets.US_ASCII));
                out.add(new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), now, r.timestampType(),
                        r.serializedKeySize(), r.serializedValueSize(), r.key(), r.value(), r.headers(),
                        r.leaderEpoch(), r.deliveryCount()));
            }
            byPartition.put(partition, out);
        }
        // With the next offsets (and their leader epochs) Kafka Streams commits: the one-argument constructor has none.
        return new ConsumerRecords<>(byPartition, records.nextOffsets());
    }

    /**
     * A record's own timestamp: {@code timestamp} (what it is processed under) unless {@code headers} keep a negative
     * one ({@link #OWN_TIMESTAMP_HEADER}). A producer's header of that name on a record with a valid timestamp is
     * left as sent: a negative number there makes its own event one without a time; anything else is not a time.
     */
    static long own(long timestamp, Headers headers) {
        Header kept = headers.lastHeader(OWN_TIMESTAMP_HEADER);
        if (kept == null || kept.value() == null) {
            return timestamp;
        }
        try {
            long own = Long.parseLong(new String(kept.value(), StandardCharsets.US_ASCII));
            return own < 0 ? own : timestamp;
        } catch (NumberFormatException e) {
            return timestamp;
        }
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
