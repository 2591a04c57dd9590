package io.gdastreams.math;

/** The store's binary form of a class statistic, read for tests outside the package (what a changelog holds). */
public final class StoredStatistics {

    private StoredStatistics() {
    }

    /** A {@code class:<label>} value of the training store, as the trainer reads it back. */
    public static RunningGaussian read(byte[] bytes) {
        return RunningGaussianBytes.read(bytes);
    }
}
