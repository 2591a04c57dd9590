package io.gdastreams.math;

/**
 * Scalar against vector triangular kernel, interleaved in one JVM and timed in thread CPU time (minimum over
 * {@value #ROUNDS} measured rounds after {@value #WARM_UP_CPU_MILLIS} ms of thread CPU time of unmeasured rounds per
 * d, {@link CpuTimeRounds}): {@link TriangularKernelBenchmark}'s companion for a loaded machine. Needs
 * {@code --add-modules jdk.incubator.vector}. Usage: {@code KernelCpuTime 16 64 …}; results: docs/BENCHMARKS.md,
 * "Vector kernel".
 */
public final class KernelCpuTime {

    private static final int ROUNDS = 25;
    private static final long WARM_UP_CPU_MILLIS = 2000;
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
            CpuTimeRounds.Result r = new CpuTimeRounds()
                    .variant("scalar", m -> {
                        for (int i = 0; i < m; i++) {
                            System.arraycopy(s.source, 0, s.r, 0, d);
                            sink += TriangularKernel.whitenScalar(s.packed, 0, s.r, d);
                        }
                    })
                    .variant("vector", m -> {
                        for (int i = 0; i < m; i++) {
                            System.arraycopy(s.source, 0, s.r, 0, d);
                            sink += VectorTriangularKernel.whitenInPlace(s.packed, 0, s.r, d);
                        }
                    })
                    .measure(n, WARM_UP_CPU_MILLIS, ROUNDS);
            double scalar = r.nanos("scalar");
            double vector = r.nanos("vector");
            double flops = d * (d + 1.0) + 2.0 * d;
            System.out.printf("d=%d: scalar %.1f ns (%.2f GFLOP/s), vector %.1f ns (%.2f GFLOP/s), scalar/vector %.2f"
                    + " (sink %s)%n", d, scalar, flops / scalar, vector, flops / vector, scalar / vector, sink != 0);
        }
    }
}
