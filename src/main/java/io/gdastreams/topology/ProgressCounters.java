package io.gdastreams.topology;

import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.SerdeFactory;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The binary form of a partition's counters under the {@code progress} key of the {@code class-stats} store
 * ({@link PartitionState}). Format 1: byte 1, int partition, long next offset, long applied, long dead-lettered
 * (big-endian, 29 bytes); the features are not in it but under the {@code schema} key, written only when they
 * change, so that the per-event write stays small. A progress of the earlier layout (JSON, first byte '{') is
 * still read, and rewritten in this one on load.
 */
final class ProgressCounters {

    /** First byte of the binary counters; a JSON progress (the layout before it) starts with '{'. */
    private static final byte FORMAT = 1;
    private static final int BYTES = 1 + Integer.BYTES + 3 * Long.BYTES;

    private ProgressCounters() {
    }

    static byte[] encode(PartitionProgress p) {
        return ByteBuffer.allocate(BYTES).put(FORMAT).putInt(p.partition()).putLong(p.nextOffset())
                .putLong(p.applied()).putLong(p.deadLettered()).array();
    }

    /** The progress in {@code bytes} (either layout), with {@code schema} (null: none persisted) as features. */
    static PartitionProgress decode(byte[] bytes, List<String> schema) {
        if (bytes.length > 0 && bytes[0] == '{') {
            return SerdeFactory.partitionProgress().deserializer().deserialize(null, bytes); // earlier layout
        }
        if (bytes.length != BYTES || bytes[0] != FORMAT) {
            throw new IllegalArgumentException("expected " + BYTES + " bytes of format " + FORMAT
                    + ", got " + bytes.length + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 1, BYTES - 1);
        return new PartitionProgress(buffer.getInt(), buffer.getLong(), buffer.getLong(), buffer.getLong(),
                schema == null ? List.of() : schema);
    }

    /** Whether {@code bytes} (read back from the store) are of an earlier layout, to be rewritten in this one. */
    static boolean isEarlierLayout(byte[] bytes) {
        return bytes.length > 0 && bytes[0] != FORMAT;
    }
}
