package io.gdastreams.topology;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Big-endian numbers written into a byte array at an offset, as {@link java.nio.ByteBuffer} and
 * {@link java.io.DataOutputStream} write them. For the values written on every event (the progress entry and the
 * prequential state): a byte-array view handle costs a bounds check per number, where a heap ByteBuffer's
 * put adds position and session bookkeeping that showed in the profile. Each method returns the offset after what
 * it wrote.
 */
final class BigEndianBytes {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private BigEndianBytes() {
    }

    static int putInt(byte[] out, int at, int value) {
        INT.set(out, at, value);
        return at + Integer.BYTES;
    }

    static int putLong(byte[] out, int at, long value) {
        LONG.set(out, at, value);
        return at + Long.BYTES;
    }

    /** The double's raw bits, as {@link java.nio.ByteBuffer#putDouble} writes them. */
    static int putDouble(byte[] out, int at, double value) {
        LONG.set(out, at, Double.doubleToRawLongBits(value));
        return at + Long.BYTES;
    }

    static int put(byte[] out, int at, byte[] bytes) {
        System.arraycopy(bytes, 0, out, at, bytes.length);
        return at + bytes.length;
    }
}
