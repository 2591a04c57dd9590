package io.gdastreams.math;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The triangular kernel alone, scalar against vector in one run (the vector benchmark needs
 * {@code --add-modules jdk.incubator.vector}; without it run only {@code whitenScalar}). One call is z = L⁻¹r and
 * ‖z‖² for one class: d(d+1) + 2d flops. Command and results: docs/BENCHMARKS.md, "Vector kernel".
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TriangularKernelBenchmark {

    @State(Scope.Thread)
    public static class KernelState {
        @Param({"8", "16", "32", "64", "128"})
        public int d;

        double[] packed;
        double[] source;
        double[] r;

        @Setup(Level.Trial)
        public void setUp() {
            SplittableRandom random = new SplittableRandom(42);
            double[][] a = new double[d][d];
            for (int i = 0; i < d; i++) {
                for (int j = 0; j <= i; j++) {
                    double v = i == j ? d : random.nextGaussian();
                    a[i][j] = v;
                    a[j][i] = v;
                }
            }
            packed = new double[TriangularKernel.packedSize(d)];
            TriangularKernel.packedInverse(CholeskyFactor.of(a).orElseThrow(), packed, 0);
            source = new double[d];
            for (int j = 0; j < d; j++) {
                source[j] = random.nextGaussian();
            }
            r = new double[d];
        }
    }

    @Benchmark
    public double whitenScalar(KernelState s) {
        System.arraycopy(s.source, 0, s.r, 0, s.d);
        return TriangularKernel.whitenScalar(s.packed, 0, s.r, s.d);
    }

    @Benchmark
    public double whitenVector(KernelState s) {
        System.arraycopy(s.source, 0, s.r, 0, s.d);
        return VectorTriangularKernel.whitenInPlace(s.packed, 0, s.r, s.d);
    }
}
