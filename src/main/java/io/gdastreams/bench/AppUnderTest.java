package io.gdastreams.bench;

/**
 * The application of a stage while it is measured: in the bench's own JVM ({@link RunningApp}) or as N child
 * JVMs in one consumer group ({@link InstanceGroup}).
 */
interface AppUnderTest extends AutoCloseable {

    Stage stage();

    String applicationId();

    /** Wall-clock time at which the application (every instance) reached RUNNING: where the stage's clock starts. */
    long runningAt();

    /** From the start to {@link #runningAt()}, seconds (not part of the measured time). */
    double startupSeconds();

    /**
     * CPU seconds used by the application's threads since it reached RUNNING ({@link #runningAt()}, where the
     * stage's clock starts) when it runs in the bench's own JVM ({@link ThreadCpu}), NaN when it runs elsewhere.
     */
    default double threadCpuSeconds() {
        return Double.NaN;
    }

    /**
     * Seconds the bench's JVM spent compiling ({@link JitTime}) since the application reached RUNNING, when it runs
     * in that JVM (compilations of the bench's own threads included); NaN when it runs elsewhere.
     */
    default double jitSeconds() {
        return Double.NaN;
    }

    /** Throws when the application (an instance) has failed or died. */
    void checkHealthy();

    @Override
    void close();
}
