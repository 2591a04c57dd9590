package io.gdastreams.math;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Scalar against vector triangular kernel, interleaved in one JVM and timed in thread CPU time (minimum over
 * rounds 6–30): {@link TriangularKernelBenchmark}'s companion for a loaded machine. Needs
 * {@code --add-modules jdk.incubator.vector}. Usage: {@code KernelCpuTime 16 64 …}; results: docs/BENCHMARKS.md,
 * "Vector kernel".
 */
public final class KernelCpuTime {

    private static final int ROUNDS = 30;
    private static final int WARM_UP_ROUNDS = 5;
    private static double sink;

    private KernelCpuTime() {
    }

    public static void main(String[] args) throws InterruptedException {
        KernelChoice.awaitWarmUp(60_000); // its thread would otherwise compete with the first rounds
        System.out.println("kernel choice: " + KernelChoice.describe());
        for (String arg : args) {
            TriangularKernelBenchmark.KernelState s = new TriangularKernelBenchmark.KernelState();
            s.d = Integer.parseInt(arg);
            s.setUp();
            int d = s.d;
            int n = Math.max(5000, 20_000_000 / (d * d + 16 * d));
            ThreadMXBean clock = ManagementFactory.getThreadMXBean();
            double scalar = Double.MAX_VALUE;
            double vector = Double.MAX_VALUE;
            for (int round = 0; round < ROUNDS; round++) {
                long t0 = clock.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    System.arraycopy(s.source, 0, s.r, 0, d);
                    sink += TriangularKernel.whitenScalar(s.packed, 0, s.r, d);
                }
                long t1 = clock.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    System.arraycopy(s.source, 0, s.r, 0, d);
                    sink += VectorTriangularKernel.whitenInPlace(s.packed, 0, s.r, d);
                }
                long t2 = clock.getCurrentThreadCpuTime();
                if (round >= WARM_UP_ROUNDS) {
                    scalar = Math.min(scalar, (t1 - t0) / (double) n);
                    vector = Math.min(vector, (t2 - t1) / (double) n);
                }
            }
            double flops = d * (d + 1.0) + 2.0 * d;
            System.out.printf("d=%d: scalar %.1f ns (%.2f GFLOP/s), vector %.1f ns (%.2f GFLOP/s), scalar/vector %.2f"
                    + " (sink %s)%n", d, scalar, flops / scalar, vector, flops / vector, scalar / vector, sink != 0);
        }
    }
}
