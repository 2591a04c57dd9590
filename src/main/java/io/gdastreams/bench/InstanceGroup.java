package io.gdastreams.bench;

import io.gdastreams.bench.InstanceHosts.Host;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A stage's application as N instances in one consumer group, one on each {@link InstanceHosts} JVM, each with its
 * own state directory. Started together; RUNNING once every instance has said so (the last of them is
 * {@link #runningAt()}). Closing stops the application in every host and leaves the hosts for the next stage,
 * unless the group was given hosts of its own ({@code --memory}), which it then closes too.
 */
final class InstanceGroup implements AppUnderTest {

    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(60);
    /** Longer than an instance's own close timeout (60 s: a large transaction to abort or commit). */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);

    private final Stage stage;
    private final String applicationId;
    private final List<Host> hosts;
    private final InstanceHosts owned;
    private final long startedAt;
    private long runningAt;

    /**
     * @param hosts     where the instances run, one per host
     * @param owned     whether the group closes {@code hosts} when it closes
     * @param arguments the {@link BenchInstance#arguments} of instance i (its own state directory)
     */
    InstanceGroup(Stage stage, InstanceHosts hosts, boolean owned, String applicationId,
                  IntFunction<List<String>> arguments, Duration startTimeout) {
        this.stage = stage;
        this.applicationId = applicationId;
        this.hosts = hosts.hosts();
        this.owned = owned ? hosts : null;
        this.startedAt = System.currentTimeMillis();
        try {
            for (Host host : this.hosts) {
                host.send(BenchInstance.startCommand(arguments.apply(host.index())));
            }
            Deadline deadline = Deadline.after(stage, startTimeout);
            for (Host host : this.hosts) {
                runningAt = Math.max(runningAt, Long.parseLong(host.reply(BenchInstance.RUNNING, deadline)));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Per instance: heap used after a full GC (bytes), asked of the instance itself. */
    List<Long> heapUsedAfterGc() {
        List<Long> heaps = new ArrayList<>();
        for (Host host : hosts) {
            host.send(BenchInstance.HEAP);
            heaps.add(Long.parseLong(host.reply(BenchInstance.HEAP, Deadline.after(stage, REPLY_TIMEOUT))));
        }
        return heaps;
    }

    /** Per instance: its resident memory now and at its peak. */
    List<ProcessMemory> memory() {
        return hosts.stream().map(h -> ProcessMemory.of(h.process().pid())).toList();
    }

    /** The process ids of the JVMs the instances run in. */
    List<Long> pids() {
        return hosts.stream().map(h -> h.process().pid()).toList();
    }

    @Override
    public Stage stage() {
        return stage;
    }

    @Override
    public String applicationId() {
        return applicationId;
    }

    @Override
    public long runningAt() {
        return runningAt;
    }

    @Override
    public double startupSeconds() {
        return (runningAt - startedAt) / 1000.0;
    }

    /** CPU seconds of the application's threads since RUNNING, summed over the instances. */
    @Override
    public double threadCpuSeconds() {
        return InstanceHosts.usageSum(hosts, BenchInstance.USAGE_CPU, Deadline.after(stage, REPLY_TIMEOUT));
    }

    /** Seconds the instances' JVMs compiled since RUNNING, summed. */
    @Override
    public double jitSeconds() {
        return InstanceHosts.usageSum(hosts, BenchInstance.USAGE_JIT, Deadline.after(stage, REPLY_TIMEOUT));
    }

    @Override
    public void checkHealthy() {
        hosts.forEach(Host::check);
    }

    /**
     * Stops the application in every host; a host that does not answer in time is killed (a later stage then fails
     * on it, quoting its log).
     */
    @Override
    public void close() {
        for (Host host : hosts) {
            try {
                host.send(BenchInstance.STOP);
            } catch (RuntimeException e) {
                // gone: nothing to stop
            }
        }
        Deadline deadline = Deadline.after(stage, STOP_TIMEOUT);
        for (Host host : hosts) {
            try {
                host.reply(BenchInstance.STOPPED, deadline);
            } catch (RuntimeException e) {
                host.destroy();
            }
        }
        if (owned != null) {
            owned.close();
        }
    }
}
