package io.gdastreams.math;

/**
 * Running count, mean and scatter matrix S = Σ (x−μ)(x−μ)ᵀ of a stream of d-dimensional points.
 *
 * <p>SKELETON: the public signatures below are the contract other packages build against; the bodies are
 * implemented in the math step. Mutable, not thread-safe.
 */
public final class RunningGaussian {

    /** An empty statistic of the given dimension (d ≥ 1). */
    public RunningGaussian(int dimension) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public int dimension() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public long count() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Welford update with one observation. {@code x}: length d, all finite; not modified. */
    public void update(double[] x) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Chan et al. pairwise merge of {@code other} into this. {@code other}: same dimension; not modified. */
    public void merge(RunningGaussian other) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** A copy of the mean (length d). */
    public double[] mean() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** A copy of the full symmetric scatter matrix (d × d). */
    public double[][] scatter() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** A deep copy. */
    public RunningGaussian copy() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Compact, versioned binary form (for state stores and internal topics). */
    public byte[] toBytes() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Inverse of {@link #toBytes()}; throws IllegalArgumentException on a corrupt or foreign buffer. */
    public static RunningGaussian fromBytes(byte[] bytes) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
