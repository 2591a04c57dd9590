package io.gdastreams.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Time the JVM's JIT compilers have spent compiling so far. On a machine of two cores a C2 compiler thread still
 * busy with Kafka's client code takes most of a core from whatever is being measured: the bench warms up until
 * it is quiet ({@link WarmUp}) and reports what it compiled during each measured stage.
 */
final class JitTime {

    private JitTime() {
    }

    /**
     * Seconds of compilation so far, summed over the compiler threads (each compilation's elapsed time), or NaN
     * when the JVM does not report it.
     */
    static double seconds() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() / 1000.0
                : Double.NaN;
    }
}
