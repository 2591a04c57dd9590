package io.gdastreams.math;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Running count, mean and scatter matrix S = Σ (x−μ)(x−μ)ᵀ of a stream of d-dimensional points.
 *
 * <p>Updates use Welford's recurrence and merges Chan et al.'s pairwise formula. Both work on coordinates
 * relative to a pivot (the first observation): data such as 1e12 ± 1e-3 then keeps its full precision,
 * because the differences x − pivot are exact and small. The scatter is translation invariant, so only the
 * mean needs the pivot added back. Only the upper triangle of S is stored (row-major, packed).
 *
 * <p>Mutable and not thread-safe. Per update it allocates nothing.
 */
public final class RunningGaussian {

    private static final byte FORMAT_VERSION = 1;

    private final int d;
    private long n;
    /** The first observation; meaningless while n == 0. */
    private final double[] pivot;
    /** μ − pivot. */
    private final double[] relativeMean;
    /** Upper triangle of S, packed row by row: (0,0) (0,1) … (0,d−1) (1,1) … */
    private final double[] packedScatter;
    /** Scratch for one update: δ = (x − pivot) − μ_old and (x − pivot) − μ_new. */
    private final double[] delta;
    private final double[] centred;

    /** An empty statistic of the given dimension (d ≥ 1). */
    public RunningGaussian(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
        }
        this.d = dimension;
        this.pivot = new double[dimension];
        this.relativeMean = new double[dimension];
        this.packedScatter = new double[packedSize(dimension)];
        this.delta = new double[dimension];
        this.centred = new double[dimension];
    }

    public int dimension() {
        return d;
    }

    public long count() {
        return n;
    }

    /** Welford update with one observation. {@code x}: length d, all finite; not modified. */
    public void update(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("expected " + d + " values, got " + x.length);
        }
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("non-finite value " + v);
            }
        }
        if (n == 0) {
            System.arraycopy(x, 0, pivot, 0, d);
            Arrays.fill(relativeMean, 0.0);
            Arrays.fill(packedScatter, 0.0);
            n = 1;
            return;
        }
        n++;
        for (int i = 0; i < d; i++) {
            double y = x[i] - pivot[i];
            delta[i] = y - relativeMean[i];
            relativeMean[i] += delta[i] / n;
            centred[i] = y - relativeMean[i];
        }
        // The O(d²) loop reads two vectors only: δ (old mean) and x − μ_new, both computed once above.
        int p = 0;
        for (int i = 0; i < d; i++) {
            double di = delta[i];
            for (int j = i; j < d; j++) {
                packedScatter[p++] += di * centred[j];
            }
        }
    }

    /** Chan et al. pairwise merge of {@code other} into this. {@code other}: same dimension; not modified. */
    public void merge(RunningGaussian other) {
        if (other.d != d) {
            throw new IllegalArgumentException("dimension mismatch: " + d + " vs " + other.d);
        }
        if (other.n == 0) {
            return;
        }
        if (n == 0) {
            copyFrom(other);
            return;
        }
        long total = n + other.n;
        double weight = (double) other.n / total;
        double cross = (double) n * other.n / total;
        for (int i = 0; i < d; i++) {
            // other's mean relative to our pivot; the pivot difference of close values is exact.
            double otherMean = other.relativeMean[i] + (other.pivot[i] - pivot[i]);
            delta[i] = otherMean - relativeMean[i];
        }
        int p = 0;
        for (int i = 0; i < d; i++) {
            double di = delta[i] * cross;
            for (int j = i; j < d; j++) {
                packedScatter[p] += other.packedScatter[p] + di * delta[j];
                p++;
            }
        }
        for (int i = 0; i < d; i++) {
            relativeMean[i] += delta[i] * weight;
        }
        n = total;
    }

    /** A copy of the mean (length d); zeros while empty. */
    public double[] mean() {
        double[] mean = new double[d];
        if (n > 0) {
            for (int i = 0; i < d; i++) {
                mean[i] = pivot[i] + relativeMean[i];
            }
        }
        return mean;
    }

    /** A copy of the full symmetric scatter matrix (d × d). */
    public double[][] scatter() {
        double[][] s = new double[d][d];
        int p = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                s[i][j] = packedScatter[p];
                s[j][i] = packedScatter[p];
                p++;
            }
        }
        return s;
    }

    /** A deep copy. */
    public RunningGaussian copy() {
        RunningGaussian copy = new RunningGaussian(d);
        copy.copyFrom(this);
        return copy;
    }

    /** Compact, versioned binary form (for state stores and internal topics). */
    public byte[] toBytes() {
        ByteBuffer buffer = ByteBuffer.allocate(serializedSize(d));
        buffer.put(FORMAT_VERSION).putInt(d).putLong(n);
        // Bulk copies (a training task serialises its class after every event): same big-endian layout as
        // putDouble one at a time, several times faster at large d (docs/BENCHMARKS.md).
        buffer.asDoubleBuffer().put(pivot).put(relativeMean).put(packedScatter);
        return buffer.array();
    }

    /** Inverse of {@link #toBytes()}; throws IllegalArgumentException on a corrupt or foreign buffer. */
    public static RunningGaussian fromBytes(byte[] bytes) {
        if (bytes == null || bytes.length < 13) {
            throw new IllegalArgumentException("not a RunningGaussian: too short");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        byte version = buffer.get();
        if (version != FORMAT_VERSION) {
            throw new IllegalArgumentException("unsupported RunningGaussian format version " + version);
        }
        int d = buffer.getInt();
        if (d < 1 || (long) serializedSize(d) != bytes.length) {
            throw new IllegalArgumentException("not a RunningGaussian: dimension " + d + " does not match "
                    + bytes.length + " bytes");
        }
        long n = buffer.getLong();
        if (n < 0) {
            throw new IllegalArgumentException("not a RunningGaussian: negative count " + n);
        }
        RunningGaussian g = new RunningGaussian(d);
        g.n = n;
        try {
            buffer.asDoubleBuffer().get(g.pivot).get(g.relativeMean).get(g.packedScatter);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("not a RunningGaussian: truncated", e);
        }
        // A NaN or infinity would poison every later merge and model, so a damaged state is refused here.
        if (!allFinite(g.pivot) || !allFinite(g.relativeMean) || !allFinite(g.packedScatter)) {
            throw new IllegalArgumentException("not a RunningGaussian: non-finite values");
        }
        return g;
    }

    private void copyFrom(RunningGaussian other) {
        n = other.n;
        System.arraycopy(other.pivot, 0, pivot, 0, d);
        System.arraycopy(other.relativeMean, 0, relativeMean, 0, d);
        System.arraycopy(other.packedScatter, 0, packedScatter, 0, packedScatter.length);
    }

    private static boolean allFinite(double[] values) {
        for (double v : values) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    private static int packedSize(int d) {
        return d * (d + 1) / 2;
    }

    private static int serializedSize(int d) {
        long size = 1L + 4 + 8 + 8L * (2L * d + (long) d * (d + 1) / 2);
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("dimension too large: " + d);
        }
        return (int) size;
    }
}
