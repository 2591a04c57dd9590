package io.gdastreams.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Where one bench run's applications under test run ({@link RunShape}): in the bench's own JVM; as
 * {@code --instances} child JVMs that live for the whole run ({@link InstanceHosts}: the warm-up warms the JVMs the
 * rounds are measured in, as it does the bench's own); or, for {@code --memory}, which reports each stage's peak
 * resident memory, in child JVMs of each stage's own.
 */
final class AppPlacement implements AutoCloseable {

    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(60);

    private final RunShape shape;
    private final Path logDirectory;
    private final boolean hostsPerStage;
    /** The run's hosts when they live for it; null in process or per stage. */
    private final InstanceHosts hosts;

    private AppPlacement(RunShape shape, Path logDirectory, boolean hostsPerStage) {
        this.shape = shape;
        this.logDirectory = logDirectory;
        this.hostsPerStage = hostsPerStage;
        this.hosts = shape.instances() == 0 || hostsPerStage ? null : newHosts();
    }

    /** The applications of {@code shape}, the instances' logs in {@code logDirectory}; hosts started now. */
    static AppPlacement forRun(RunShape shape, Path logDirectory) {
        return new AppPlacement(shape, logDirectory, false);
    }

    /** Every stage's application in child JVMs of its own ({@code shape.instances()}, at least one). */
    static AppPlacement hostsPerStage(RunShape shape, Path logDirectory) {
        if (shape.instances() < 1) {
            throw new IllegalArgumentException("hosts per stage need at least one instance");
        }
        return new AppPlacement(shape, logDirectory, true);
    }

    RunShape shape() {
        return shape;
    }

    /** The process ids of the run's hosts (none in process or per stage): a profiler can attach to them. */
    List<Long> hostPids() {
        return hosts == null ? List.of() : hosts.hosts().stream().map(h -> h.process().pid()).toList();
    }

    private InstanceHosts newHosts() {
        return new InstanceHosts(shape.instances(), shape.pinning().appCommandPrefix(), shape.instanceHeap(),
                logDirectory);
    }

    /**
     * Starts a stage's application: {@code inProcess} when the run has no instances, else one instance per host
     * with {@code arguments} (of instance i).
     */
    AppUnderTest start(Stage stage, String applicationId, Supplier<AppUnderTest> inProcess,
                       IntFunction<List<String>> arguments, Duration startTimeout) {
        if (shape.instances() == 0) {
            return inProcess.get();
        }
        return hostsPerStage ? new InstanceGroup(stage, newHosts(), true, applicationId, arguments, startTimeout)
                : new InstanceGroup(stage, hosts, false, applicationId, arguments, startTimeout);
    }

    /**
     * Seconds compiled so far by the JITs the applications run on: the bench's, and the run's hosts' (for the
     * warm-up's "quiet" test); NaN where one is not reported.
     */
    double compileSeconds() {
        return JitTime.seconds() + (hosts == null ? 0 : hosts.compileSeconds(REPLY_TIMEOUT));
    }

    @Override
    public void close() {
        if (hosts != null) {
            hosts.close();
        }
    }
}
