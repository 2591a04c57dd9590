package io.gdastreams.math;

import java.util.List;
import java.util.function.Predicate;

/**
 * Which triangular kernel scores: the Vector API one ({@code VectorTriangularKernel}) when the JVM was started with
 * {@code --add-modules jdk.incubator.vector} and the CPU has 256-bit vectors, else the scalar one
 * ({@link TriangularKernel#whitenScalar}). Both give the same bits, so the choice changes speed only.
 *
 * <p>Why an optional module: the Vector API is still an incubator module (JDK 17 to 25), which the JVM resolves
 * only when asked to, and prints "WARNING: Using incubator modules: jdk.incubator.vector" at startup when it is.
 * Without the flag the vector class is never loaded (its only call site is behind {@link #VECTOR}, a constant
 * false), so the product runs on any JDK ≥ 17 without it; {@code bin/gda-streams} passes the flag unless
 * {@code GDA_STREAMS_VECTOR=off}.
 */
public final class KernelChoice {

    /** The incubator module of the Vector API. */
    static final String VECTOR_MODULE = "jdk.incubator.vector";

    /**
     * Below this d the scalar kernel is used even with the module: measured in thread CPU time (docs/BENCHMARKS.md,
     * "Vector kernel"), scalar/vector is 0.8–1.0 at d = 4, 0.9–1.3 at d = 8 and 1.13–1.16 at d = 10, rising to
     * ≈ 1.3–1.4 at d = 16 and ≈ 3 at d = 64; with one or two blocks of four rows there is too little to share.
     */
    static final int VECTOR_MIN_DIMENSION = 10;

    /**
     * Whether this JVM scores with the vector kernel (for d ≥ {@link #VECTOR_MIN_DIMENSION}, once
     * {@link VectorWarmUp} has compiled it).
     */
    static final boolean VECTOR = vectorKernel(name -> ModuleLayer.boot().findModule(name).isPresent());

    static {
        if (VECTOR) {
            VectorWarmUp.start();
        }
    }

    private KernelChoice() {
    }

    /**
     * The choice, given whether a module is in the boot layer: the vector class is touched only once the module is
     * known to be there.
     */
    static boolean vectorKernel(Predicate<String> inBootLayer) {
        return inBootLayer.test(VECTOR_MODULE) && VectorTriangularKernel.supported();
    }

    /**
     * The JVM options that give a child JVM (bench instances, test children) this JVM's kernel: the module flag when
     * this JVM has the module, else none.
     */
    public static List<String> childJvmOptions() {
        return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent()
                ? List.of("--add-modules=" + VECTOR_MODULE) : List.of();
    }

    /**
     * Waits (at most {@code timeoutMillis}) until the vector kernel, if chosen, has been warmed up, so that a
     * benchmark measures the kernel it means to; true when scores now use the kernel {@link #describe} names.
     */
    public static boolean awaitWarmUp(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (VECTOR && !VectorWarmUp.done() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return !VECTOR || VectorWarmUp.done();
    }

    /** "vector (d >= 10)" or "scalar", for logs and benchmark reports. */
    public static String describe() {
        return VECTOR ? "vector (d >= " + VECTOR_MIN_DIMENSION + ")" : "scalar";
    }
}
