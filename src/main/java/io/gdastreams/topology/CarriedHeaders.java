package io.gdastreams.topology;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The headers an event's outputs (its prediction, its dead letter) carry: the event's own, as Kafka Streams passes
 * them on (a trace id, say), when together they are small; else none. Headers count towards the broker's record
 * size limit: an event with nearly 1 MiB of headers is accepted, but its prediction or dead letter with those
 * headers and a longer value would be refused, failing the task on that record after every restart.
 */
public final class CarriedHeaders {

    /**
     * Most bytes of an event's headers ({@link #size}) that its outputs carry; with a prediction below 512 KiB, or a
     * dead letter below 900 KiB, and a key of at most 64 KiB, the output stays within the broker's default 1 MiB.
     */
    public static final int MAX_BYTES = 16 * 1024;
    /** What a header costs besides its name and value, at most: its record framing (two varints, a length each). */
    private static final int PER_HEADER = 10;

    private CarriedHeaders() {
    }

    /** {@code headers} when within {@link #MAX_BYTES}, else an empty set. */
    static Headers of(Headers headers) {
        return size(headers, MAX_BYTES + 1) <= MAX_BYTES ? headers : new RecordHeaders();
    }

    /**
     * The bytes {@code headers} take in a record, at most: names counted at 3 bytes a character (their most in
     * UTF-8), values, and {@link #PER_HEADER} each (so that many empty headers count too); counting stops above
     * {@code stopAbove}.
     */
    public static long size(Iterable<Header> headers, long stopAbove) {
        long size = 0;
        for (Header header : headers) {
            size += PER_HEADER + 3L * header.key().length() + (header.value() == null ? 0 : header.value().length);
            if (size > stopAbove) {
                break;
            }
        }
        return size;
    }
}
