package io.gdastreams.config;

/**
 * The largest record gda-streams writes, declared once. The application raises Kafka's limits to
 * {@link #MAX_RECORD_BYTES} (the defaults it gives {@code producer.max.request.size}, {@code producer.buffer.memory}
 * and {@code topic.max.message.bytes}: {@code settings.RecordSizeLimits}), and the trainer keeps a model below what is
 * left of the producer's limit after the record's framing ({@code TrainingSettings.maxModelBytes}).
 */
public final class RecordBounds {

    /**
     * 64 MiB: room for K·d² up to about 3·10⁶ in the model JSON (e.g. 10 classes at d = 512), and well below the
     * broker's {@code socket.request.max.bytes} (100 MiB), the ceiling of a whole produce request.
     */
    public static final int MAX_RECORD_BYTES = 64 * 1024 * 1024;

    /**
     * 1 MiB: the largest event record (key, value and headers, decompressed) the input topics gda-streams creates
     * accept ({@code max.decompressed.message.bytes}, Kafka 4.4 brokers and 4.2.2). Kafka's
     * {@code max.message.bytes} bounds a record batch as it travels, compressed: without this bound, a batch of a few
     * kilobytes can hold a record of gigabytes (zeros compress that well), and a poll of such records exhausts any
     * heap, again after every restart. 1 MiB is what the broker's default batch limit lets through uncompressed; the
     * scorer holds no event above 512 KiB anyway.
     */
    public static final int MAX_EVENT_RECORD_BYTES = 1024 * 1024;

    /** Key (the model id, at most a few hundred bytes), record and batch headers. */
    public static final int RECORD_FRAMING_BYTES = 64 * 1024;

    /** The largest model under the default producer limit. */
    public static final long DEFAULT_MODEL_RECORD_LIMIT = modelRecordLimit(MAX_RECORD_BYTES);

    private RecordBounds() {
    }

    /** The largest model record under a producer's {@code max.request.size} of {@code maxRequestSize} bytes. */
    public static long modelRecordLimit(long maxRequestSize) {
        return Math.max(1, maxRequestSize - RECORD_FRAMING_BYTES);
    }
}
