package io.gdastreams.math;

/**
 * The one d-vector a score needs as working space (the residual x − μ, whitened in place), one per thread.
 *
 * <p>Why per thread and not per compiled model or per caller: a compiled model is immutable and shared between
 * Kafka Streams stream threads (the scorer's model cache hands the same instance to every task), so scratch owned
 * by the model would be written by two threads at once; scratch passed in by the caller would make every caller
 * (the scoring processor, the live-scoring endpoint, replay, plots) carry a buffer sized for the model of the
 * moment. A thread scores one event at a time, so one buffer per thread is enough; it grows to the largest d that
 * thread has scored (8·d bytes; d is bounded by the model size limits) and is never shrunk. {@code ThreadLocal.get}
 * costs a few nanoseconds against the O(K·d²) of a score, and allocates nothing once the buffer exists. A score
 * never calls back into another score, so the buffer is never in use twice on one thread.
 */
final class ScoringScratch {

    private static final ThreadLocal<double[]> VECTOR = ThreadLocal.withInitial(() -> new double[0]);
    /** A group's own d-vectors ({@link Discriminant#score(double[][], int, double[][], double[])}). */
    private static final ThreadLocal<double[][]> GROUP = ThreadLocal.withInitial(
            () -> new double[CompiledCovariance.GROUP][0]);

    private ScoringScratch() {
    }

    /** This thread's buffer, of length ≥ d; its contents are undefined. */
    static double[] vector(int d) {
        double[] v = VECTOR.get();
        if (v.length < d) {
            v = new double[d];
            VECTOR.set(v);
        }
        return v;
    }

    /**
     * This thread's {@link CompiledCovariance#GROUP} vectors of length ≥ d, apart from {@link #vector}'s (a group's
     * kernel uses both); contents undefined. Used by a group's kernel only, which calls no single score while it
     * uses them.
     */
    static double[][] group(int d) {
        double[][] rows = GROUP.get();
        if (rows[0].length < d) {
            for (int p = 0; p < rows.length; p++) {
                rows[p] = new double[d];
            }
        }
        return rows;
    }
}
