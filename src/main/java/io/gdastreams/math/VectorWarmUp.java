package io.gdastreams.math;

/**
 * Compiles the vector kernel before the first score uses it. Until C2 has compiled it, the Vector API runs as
 * plain Java that allocates every vector: measured on a fresh JVM (docs/BENCHMARKS.md, "Vector kernel"), the first
 * 1000 scores at d = 64 took 1.5–2.4 s instead of ≈ 60 ms on the scalar kernel. So a daemon thread calls the
 * kernel {@link #CALLS} times on a fixed factor, at d = 28 (one group of four blocks, one of two, one single
 * block: every path) and d = 64, and the class-lane sums ({@link VectorClassLanes}), while scores use the scalar
 * forms (the same bits); {@link #done} then switches them over. Started once, by {@link KernelChoice}, and only when
 * the vector kernel was chosen.
 */
final class VectorWarmUp {

    /** Enough calls for C2 to compile the kernel (its thresholds are ≈ 10⁴ invocations or loop iterations). */
    static final int CALLS = 20_000;

    private static volatile boolean done;

    private VectorWarmUp() {
    }

    /** Whether the warm-up has finished (or failed: the kernel is then used as it is). */
    static boolean done() {
        return done;
    }

    static void start() {
        Thread thread = new Thread(VectorWarmUp::run, "gda-vector-kernel-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private static void run() {
        try {
            double[] small = identityFactor(28);
            double[] large = identityFactor(64);
            double[] r = new double[64];
            // The class-lane sums: 4 classes (one group) and 12 (two groups, then one), d = 16 and 64.
            double[] lanes = new double[64 * 12];
            double[] q = new double[12];
            double sink = 0.0;
            for (int call = 0; call < CALLS; call++) {
                java.util.Arrays.fill(r, 1.0 + call);
                sink += (call & 1) == 0
                        ? VectorTriangularKernel.whitenInPlace(small, 0, r, 28)
                        : VectorTriangularKernel.whitenInPlace(large, 0, r, 64);
                int d = (call & 2) == 0 ? 16 : 64;
                int kp = (call & 4) == 0 ? 4 : 12;
                VectorClassLanes.scaledSquares(r, lanes, lanes, d, kp, q, 0);
                VectorClassLanes.squares(r, lanes, d, kp, q, 0);
                sink += q[0];
            }
            if (sink == 42.0) { // keeps the loop from being removed; practically never true
                Thread.yield();
            }
        } finally {
            done = true;
        }
    }

    /** L⁻¹ = I in the kernel's layout. */
    private static double[] identityFactor(int d) {
        double[] packed = new double[TriangularKernel.packedSize(d)];
        for (int i = 0; i < d; i++) {
            packed[TriangularKernel.index(d, i, i)] = 1.0;
        }
        return packed;
    }
}
