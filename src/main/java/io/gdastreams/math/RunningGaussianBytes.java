package io.gdastreams.math;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The binary form of a {@link RunningGaussian} (big-endian). Version 1, unweighted: version byte, d int, n long,
 * then d doubles of pivot, d of μ − pivot and d(d+1)/2 of the packed upper triangle of S. Version 2, weighted:
 * version byte, d int, n long, retractions long, W double, V double, reference time long, then the same vectors.
 * An unweighted statistic is always written as version 1, so that a training without weights writes what it
 * wrote before they existed. Version 3, a diagonal statistic (weighted or not): the header of version 2, a byte
 * 1 if weighted else 0, then d doubles of pivot, d of μ − pivot and d of the diagonal of S. All three versions are
 * read.
 */
final class RunningGaussianBytes {

    private static final byte FORMAT_VERSION = 1;
    /** The weighted layout: adds retractions, W, V and the reference time after the count. */
    private static final byte FORMAT_VERSION_WEIGHTED = 2;
    /** The diagonal layout: the header of version 2, and d scatter entries instead of d(d+1)/2. */
    private static final byte FORMAT_VERSION_DIAGONAL = 3;

    private static final VarHandle BIG_ENDIAN_DOUBLE =
            MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);

    private RunningGaussianBytes() {
    }

    static byte[] write(RunningGaussian g) {
        ByteBuffer buffer = ByteBuffer.allocate(serializedSize(g.d, g.weighted || g.diagonal, g.diagonal));
        if (g.weighted || g.diagonal) {
            buffer.put(g.diagonal ? FORMAT_VERSION_DIAGONAL : FORMAT_VERSION_WEIGHTED).putInt(g.d).putLong(g.n)
                    .putLong(g.retractions).putDouble(g.weight).putDouble(g.squaredWeights).putLong(g.referenceTime);
            if (g.diagonal) {
                buffer.put((byte) (g.weighted ? 1 : 0));
            }
        } else {
            buffer.put(FORMAT_VERSION).putInt(g.d).putLong(g.n);
        }
        // A training task serialises its class after every event. A big-endian double view of the array (one
        // byte-swapping store per double, compiled in line) is faster than a DoubleBuffer's bulk put, whose byte
        // swap is a native copy on a little-endian machine: 155 → 95–98 ns at d = 16, 2.09 → 1.72–1.76 µs at
        // d = 64, same bytes (docs/BENCHMARKS.md). read() takes the doubles through the same view.
        byte[] out = buffer.array();
        int at = putDoubles(out, buffer.position(), g.pivot);
        at = putDoubles(out, at, g.relativeMean);
        putDoubles(out, at, g.packedScatter);
        return out;
    }

    /** Writes {@code values} big-endian into {@code out} from {@code at}; returns the index after them. */
    private static int putDoubles(byte[] out, int at, double[] values) {
        for (double v : values) {
            BIG_ENDIAN_DOUBLE.set(out, at, v);
            at += Double.BYTES;
        }
        return at;
    }

    /** Reads {@code values.length} big-endian doubles of {@code in} from {@code at}; returns the index after them. */
    private static int getDoubles(byte[] in, int at, double[] values) {
        for (int i = 0; i < values.length; i++) {
            values[i] = (double) BIG_ENDIAN_DOUBLE.get(in, at);
            at += Double.BYTES;
        }
        return at;
    }

    static RunningGaussian read(byte[] bytes) {
        if (bytes == null || bytes.length < 13) {
            throw new IllegalArgumentException("not a RunningGaussian: too short");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        byte version = buffer.get();
        if (version != FORMAT_VERSION && version != FORMAT_VERSION_WEIGHTED && version != FORMAT_VERSION_DIAGONAL) {
            throw new IllegalArgumentException("unsupported RunningGaussian format version " + version);
        }
        boolean isDiagonal = version == FORMAT_VERSION_DIAGONAL;
        boolean hasWeights = version != FORMAT_VERSION;
        int d = buffer.getInt();
        if (d < 1 || (long) serializedSize(d, hasWeights, isDiagonal) != bytes.length) {
            throw new IllegalArgumentException("not a RunningGaussian: dimension " + d + " does not match "
                    + bytes.length + " bytes");
        }
        long n = buffer.getLong();
        if (n < 0) {
            throw new IllegalArgumentException("not a RunningGaussian: negative count " + n);
        }
        RunningGaussian g = RunningGaussian.of(d, isDiagonal);
        g.n = n;
        if (hasWeights) {
            g.retractions = buffer.getLong();
            g.weight = buffer.getDouble();
            g.squaredWeights = buffer.getDouble();
            g.referenceTime = buffer.getLong();
            if (g.retractions < 0 || !(g.weight >= 0 && g.squaredWeights >= 0)
                    || !Double.isFinite(g.weight) || !Double.isFinite(g.squaredWeights)
                    || (n == 0 && g.weight != 0)) {
                throw new IllegalArgumentException("not a RunningGaussian: invalid weights (retractions "
                        + g.retractions + ", W " + g.weight + ", V " + g.squaredWeights + ", n " + n + ")");
            }
            if (isDiagonal) {
                byte flag = buffer.get();
                if (flag != 0 && flag != 1) {
                    throw new IllegalArgumentException("not a RunningGaussian: weighted flag " + flag);
                }
                g.weighted = flag == 1;
            } else {
                g.weighted = true;
            }
        } else {
            g.weight = n;
            g.squaredWeights = n;
        }
        // The length was checked against the dimension above, so the doubles fill the rest exactly.
        int at = getDoubles(bytes, buffer.position(), g.pivot);
        at = getDoubles(bytes, at, g.relativeMean);
        getDoubles(bytes, at, g.packedScatter);
        // A NaN or infinity would poison every later merge and model, so a damaged state is refused here.
        if (!allFinite(g.pivot) || !allFinite(g.relativeMean) || !allFinite(g.packedScatter)) {
            throw new IllegalArgumentException("not a RunningGaussian: non-finite values");
        }
        return g;
    }

    private static boolean allFinite(double[] values) {
        for (double v : values) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    private static int serializedSize(int d, boolean withWeights, boolean diagonal) {
        long size = 1L + 4 + 8 + (withWeights ? 32 : 0) + (diagonal ? 1 : 0)
                + 8L * (2L * d + (diagonal ? d : (long) d * (d + 1) / 2));
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("dimension too large: " + d);
        }
        return (int) size;
    }
}
