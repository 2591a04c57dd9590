package io.gdastreams.topology;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * The timestamp Kafka Streams processes a record under: its own, or, for a record without a valid one (negative: a
 * client that writes record batches itself can send -1), the partition's stream time (the wall clock before the
 * partition has one), with its own value kept in the header {@value #OWN_TIMESTAMP_HEADER}. Kafka Streams' default
 * extractor stops the task on such a record, after every restart at the same record (a crash loop); a negative
 * timestamp, which Kafka Streams would drop, is never returned. The topologies name it on every source they declare;
 * in the services {@link TimelessRecordInterceptor} has restamped such a record before (wall clock), and covers the
 * sources Kafka Streams reads without an extractor of ours.
 *
 * <p>Only what needs the event time looks at the header: the trainer under {@code gda.forgetting.half-life.ms}
 * dead-letters the event (it has no time to be weighed by). Every other use (a prediction's timestamp, a
 * test-then-train window) takes the stand-in. The header goes on with the event's other headers to its prediction or
 * dead letter. On a record without a valid timestamp the mark replaces a producer's header of that name; on another
 * record such a header is left as sent: a negative number there makes the producer's own event timeless, anything
 * else is not read as a time.
 */
public final class RecordTimestamps implements TimestampExtractor {

    /** The header that keeps a record's own (negative) timestamp, in decimal ASCII. */
    public static final String OWN_TIMESTAMP_HEADER = "gda.own-timestamp";

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long own = record.timestamp();
        if (own >= 0) {
            return own;
        }
        mark(record.headers(), own);
        return partitionTime >= 0 ? partitionTime : System.currentTimeMillis();
    }

    /** Keeps {@code own} (negative) in {@code headers}, in place of a producer's header of that name or a mark. */
    static void mark(Headers headers, long own) {
        headers.remove(OWN_TIMESTAMP_HEADER);
        headers.add(OWN_TIMESTAMP_HEADER, Long.toString(own).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The record's own timestamp: {@code timestamp} (what it is processed under) unless {@code headers} keep another
     * ({@link #OWN_TIMESTAMP_HEADER}, negative).
     */
    static long own(long timestamp, Headers headers) {
        Header kept = headers.lastHeader(OWN_TIMESTAMP_HEADER);
        if (kept == null) {
            return timestamp;
        }
        try {
            long own = kept.value() == null ? 0 : Long.parseLong(new String(kept.value(), StandardCharsets.US_ASCII));
            return own < 0 ? own : timestamp;
        } catch (NumberFormatException e) {
            return timestamp; // a producer's header of that name, not a timestamp
        }
    }
}
