package io.gdastreams.bench;

import java.util.Objects;

/**
 * Where and how the applications under test run, reported on every line.
 *
 * @param pinning      the CPU layout (shared, or broker and applications on disjoint CPUs)
 * @param instances    0: each stage's application in the bench's own JVM; N ≥ 1: as N instances in one group, in
 *                     N child JVMs ({@link AppPlacement})
 * @param instanceHeap the children's {@code -Xmx}
 */
record RunShape(CpuPinning pinning, int instances, String instanceHeap) {

    /** Bound on {@code --instances}: each is a JVM of its own (hundreds of MB), on this one machine. */
    static final int MAX_INSTANCES = 16;
    static final RunShape IN_PROCESS = new RunShape(CpuPinning.NONE, 0, "1g");

    RunShape {
        Objects.requireNonNull(pinning, "pinning");
        if (instances < 0 || instances > MAX_INSTANCES) {
            throw new IllegalArgumentException("--instances must be between 0 (in the bench's JVM) and "
                    + MAX_INSTANCES + ", got " + instances);
        }
        if (!instanceHeap.matches("[1-9][0-9]{0,5}[kKmMgG]")) {
            throw new IllegalArgumentException("--instance-heap must be a JVM size such as 512m or 2g, got "
                    + instanceHeap);
        }
    }
}
