package io.gdastreams.topology;

import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.SerdeFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The binary form of a partition's counters under the {@code progress} key of the {@code class-stats} store
 * ({@link PartitionState}), and of what is stored with them. Format 1: byte 1, int partition, long next offset,
 * long applied, long dead-lettered (big-endian, 29 bytes); the features are not in it but under the {@code schema}
 * key, written only when they change, so that the per-event write stays small. Format 2: the same with byte 2
 * first, followed by the partition's prequential state ({@link PrequentialStateBytes}, to the end of the value):
 * the state that test-then-train writes per event rides in the one value every event writes anyway, instead of a
 * put of its own. A progress of the earliest layout (JSON, first byte '{') is still read, and rewritten on load.
 */
final class ProgressCounters {

    /** First byte of the binary counters; a JSON progress (the layout before it) starts with '{'. */
    private static final byte FORMAT = 1;
    /** First byte of the counters followed by the prequential state. */
    private static final byte FORMAT_WITH_TAIL = 2;
    static final int BYTES = 1 + Integer.BYTES + 3 * Long.BYTES;

    private ProgressCounters() {
    }

    /** What is stored with the counters: written into the same value, after them. */
    interface Tail {
        /** The size of the tail in bytes; 0: none (then the value is format 1). */
        int storedSize();

        /** Writes exactly {@link #storedSize()} bytes into {@code out} from {@code at}; returns the offset after. */
        int writeTo(byte[] out, int at);
    }

    /** A loaded tail that nothing took up, written back as it was. */
    record KeptTail(byte[] bytes) implements Tail {
        @Override
        public int storedSize() {
            return bytes.length;
        }

        @Override
        public int writeTo(byte[] out, int at) {
            return BigEndianBytes.put(out, at, bytes);
        }
    }

    /** A stored progress value: the counters, and the tail stored after them (null: none, format 1). */
    record Stored(PartitionProgress progress, byte[] tail) {
    }

    static byte[] encode(PartitionProgress p) {
        return encode(p, null);
    }

    /** {@code p} with {@code tail} (null or of size 0: none) after it. */
    static byte[] encode(PartitionProgress p, Tail tail) {
        int extra = tail == null ? 0 : tail.storedSize();
        byte[] out = new byte[BYTES + extra];
        out[0] = extra == 0 ? FORMAT : FORMAT_WITH_TAIL;
        int at = BigEndianBytes.putInt(out, 1, p.partition());
        at = BigEndianBytes.putLong(out, at, p.nextOffset());
        at = BigEndianBytes.putLong(out, at, p.applied());
        at = BigEndianBytes.putLong(out, at, p.deadLettered());
        if (extra > 0) {
            int end = tail.writeTo(out, at);
            if (end != out.length) {
                throw new IllegalStateException("the tail wrote " + (end - at) + " of " + extra + " bytes");
            }
        }
        return out;
    }

    /**
     * The progress in {@code bytes} (any layout), with {@code schema} (null: none persisted) as features, and the
     * tail of a format-2 value.
     */
    static Stored decodeStored(byte[] bytes, List<String> schema) {
        if (bytes.length > 0 && bytes[0] == '{') { // earliest layout
            return new Stored(SerdeFactory.partitionProgress().deserializer().deserialize(null, bytes), null);
        }
        boolean tail = bytes.length > 0 && bytes[0] == FORMAT_WITH_TAIL;
        if (tail ? bytes.length <= BYTES : bytes.length != BYTES || bytes[0] != FORMAT) {
            throw new IllegalArgumentException("expected " + BYTES + " bytes of format " + FORMAT
                    + " or more of format " + FORMAT_WITH_TAIL + ", got " + bytes.length + " bytes"
                    + (bytes.length > 0 ? " of format " + bytes[0] : ""));
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 1, BYTES - 1);
        PartitionProgress progress = new PartitionProgress(buffer.getInt(), buffer.getLong(), buffer.getLong(),
                buffer.getLong(), schema == null ? List.of() : schema);
        return new Stored(progress, tail ? Arrays.copyOfRange(bytes, BYTES, bytes.length) : null);
    }

    /** Whether {@code bytes} (read back from the store) are of the JSON layout, to be rewritten in a binary one. */
    static boolean isEarlierLayout(byte[] bytes) {
        return bytes.length > 0 && bytes[0] != FORMAT && bytes[0] != FORMAT_WITH_TAIL;
    }
}
