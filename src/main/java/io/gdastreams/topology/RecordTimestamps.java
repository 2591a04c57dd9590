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
 * timestamp, which Kafka Streams would drop, is never returned.
 *
 * <p>Only what needs the event time looks at the header: the trainer under {@code gda.forgetting.half-life.ms}
 * dead-letters the event (it has no time to be weighed by). Every other use (a prediction's timestamp, a
 * test-then-train window) takes the stand-in. The header goes on with the event's other headers to its prediction or
 * dead letter. A producer's header of that name is removed (or replaced), so that it cannot make an event look
 * timeless or give it another time.
 */
public final class RecordTimestamps implements TimestampExtractor {

    /** The header that keeps a record's own (negative) timestamp, in decimal ASCII. */
    public static final String OWN_TIMESTAMP_HEADER = "gda.own-timestamp";

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long own = record.timestamp();
        Headers headers = record.headers();
        if (own >= 0) {
            if (headers.lastHeader(OWN_TIMESTAMP_HEADER) != null) {
                headers.remove(OWN_TIMESTAMP_HEADER);
            }
            return own;
        }
        headers.remove(OWN_TIMESTAMP_HEADER); // a producer's header of this name, or this method's, if called again
        headers.add(OWN_TIMESTAMP_HEADER, Long.toString(own).getBytes(StandardCharsets.US_ASCII));
        return partitionTime >= 0 ? partitionTime : System.currentTimeMillis();
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
        // Written by extract, the only writer left: every record passes it, which replaces or removes the header.
        return Long.parseLong(new String(kept.value(), StandardCharsets.US_ASCII));
    }
}
