package io.gdastreams.bench;

import io.gdastreams.service.StreamsApp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Main class of one child JVM of {@code bench --instances N} (and of {@code --memory}): an instance host, which runs
 * one stage's application at a time ({@link StageApps}, the same as in the bench's JVM) for as many stages as the
 * bench gives it, so that the warm-up's passes warm the JVM that the measured rounds then run in. Commands on
 * standard input, one line each, answered on standard output:
 * <ul>
 *   <li>{@value #START} and the application's arguments, separated by tabs ({@link #startCommand}): starts it and
 *       answers {@value #RUNNING} {@code <epoch ms>} once RUNNING;</li>
 *   <li>{@value #STOP}: closes it, answers {@value #STOPPED};</li>
 *   <li>{@value #USAGE}: {@value #USAGE} {@code <cpu s> <jit s> <jit total s>}, the CPU seconds of the running
 *       application's threads and the seconds this JVM compiled, both since RUNNING, then all it compiled so far
 *       (NaN where the JVM does not measure them);</li>
 *   <li>{@value #HEAP}: {@value #HEAP} {@code <bytes>}, the heap used after a full GC;</li>
 *   <li>{@value #EXIT}, or standard input closing: closes what runs and exits.</li>
 * </ul>
 * A failed application, or one that cannot start, ends the JVM with {@link #FAILED} (its log says why).
 */
public final class BenchInstance {

    static final String START = "START";
    static final String RUNNING = "RUNNING";
    static final String STOP = "STOP";
    static final String STOPPED = "STOPPED";
    static final String USAGE = "USAGE";
    /** The fields of a {@value #USAGE} answer after its tag, in order. */
    static final int USAGE_CPU = 0;
    static final int USAGE_JIT = 1;
    static final int USAGE_JIT_TOTAL = 2;
    static final String HEAP = "HEAP";
    static final String EXIT = "EXIT";
    private static final String SEPARATOR = "\t";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);
    private static final int FIXED_ARGUMENTS = 12;
    private static final Duration HEALTH_CHECK = Duration.ofMillis(500);
    /** Exit code of an instance whose application failed. */
    static final int FAILED = 3;

    /** The application running now, null between stages; the health check and STOP take it under this lock. */
    private final Object lock = new Object();
    private StreamsApp running;
    private double cpuAtRunning;
    private double jitAtRunning;

    private BenchInstance() {
    }

    /** The arguments of an application of {@code stage} (the run's --set keys last). */
    static List<String> arguments(Stage stage, BenchSettings settings, String topicPrefix, String applicationId,
                                  String bootstrapServers, Path stateDirectory) {
        List<String> args = new ArrayList<>(List.of(stage.name(), topicPrefix, applicationId, bootstrapServers,
                stateDirectory.toString(), Integer.toString(settings.classes()), Integer.toString(settings.features()),
                Long.toString(settings.seed()), Integer.toString(settings.partitions()),
                Integer.toString(settings.threads()), settings.guarantee(),
                Long.toString(settings.publishInterval().toMillis())));
        settings.configuration().set().forEach((key, value) -> args.add(key + "=" + value));
        return args;
    }

    /** The {@value #START} line that runs an application with {@code arguments}. */
    static String startCommand(List<String> arguments) {
        for (String argument : arguments) {
            if (argument.contains(SEPARATOR) || argument.contains("\n") || argument.contains("\r")) {
                throw new IllegalArgumentException("an instance argument cannot hold a tab or a line break: "
                        + argument);
            }
        }
        return START + SEPARATOR + String.join(SEPARATOR, arguments);
    }

    public static void main(String[] args) throws IOException {
        new BenchInstance().serve();
        System.exit(0);
    }

    private void serve() throws IOException {
        startHealthCheck();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            for (String line = in.readLine(); line != null && !line.strip().equals(EXIT); line = in.readLine()) {
                String command = line.strip();
                if (line.startsWith(START + SEPARATOR)) {
                    start(line.substring(START.length() + 1).split(SEPARATOR, -1));
                } else if (command.equals(STOP)) {
                    stop();
                    answer(STOPPED);
                } else if (command.equals(USAGE)) {
                    answer(usage());
                } else if (command.equals(HEAP)) {
                    answer(HEAP + " " + heapUsedAfterGc());
                } else if (!command.isEmpty()) {
                    System.err.println("unknown command: " + command);
                    System.err.flush();
                }
            }
        } finally {
            stop();
        }
    }

    private void start(String[] args) {
        if (args.length < FIXED_ARGUMENTS) {
            throw new IllegalArgumentException("expected at least " + FIXED_ARGUMENTS + " arguments, got "
                    + Arrays.toString(args));
        }
        stop(); // one application at a time
        Stage stage = Stage.valueOf(args[0]);
        String topicPrefix = args[1];
        List<String> sets = List.of(args).subList(FIXED_ARGUMENTS, args.length);
        int classes = Integer.parseInt(args[5]);
        int features = Integer.parseInt(args[6]);
        BenchSettings settings = new BenchSettings(classes, features, 1, Integer.parseInt(args[8]),
                Integer.parseInt(args[9]), args[10], Long.parseLong(args[7]), 0, 1,
                Duration.ofMillis(Long.parseLong(args[11])), BenchConfiguration.of(sets, classes, features));
        System.err.println("--- " + stage.label() + " " + args[2]); // the log holds every stage of this host
        System.err.flush();
        StreamsApp app = new StreamsApp(stage.label(), StageApps.topology(stage, settings,
                BenchClients.topicsNamed(topicPrefix)),
                StageApps.properties(stage, settings, args[2], args[3], Path.of(args[4])), CLOSE_TIMEOUT);
        try {
            app.start();
            app.awaitRunning(START_TIMEOUT);
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.err.flush();
            app.close();
            Runtime.getRuntime().halt(FAILED);
        }
        synchronized (lock) {
            running = app;
            cpuAtRunning = ThreadCpu.seconds(app.applicationId());
            jitAtRunning = JitTime.seconds();
        }
        answer(RUNNING + " " + app.runningAt());
    }

    private void stop() {
        StreamsApp app;
        synchronized (lock) {
            app = running;
            running = null; // closing passes through PENDING_SHUTDOWN: not a failure
        }
        if (app != null) {
            app.close();
        }
    }

    private String usage() {
        double cpu;
        double jit;
        double jitTotal = JitTime.seconds();
        synchronized (lock) {
            cpu = running == null ? Double.NaN : ThreadCpu.seconds(running.applicationId()) - cpuAtRunning;
            jit = running == null ? Double.NaN : jitTotal - jitAtRunning;
        }
        return String.format(Locale.ROOT, "%s %s %s %s", USAGE, cpu, jit, jitTotal);
    }

    private static void answer(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * A failed application would leave this JVM alive in its command loop; exit instead, so that the bench's
     * health check sees the instance gone at once (and quotes its log) rather than waiting for the stage timeout.
     */
    private void startHealthCheck() {
        Thread watcher = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(HEALTH_CHECK.toMillis());
                    synchronized (lock) {
                        if (running != null) {
                            running.checkHealthy();
                        }
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    System.err.println("instance failed: " + e);
                    System.err.flush();
                    Runtime.getRuntime().halt(FAILED);
                }
            }
        }, "bench-instance-health");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Heap in use after two full collections (the second collects what the first's finalisation released). */
    static long heapUsedAfterGc() {
        System.gc();
        System.gc();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return heap.getUsed();
    }
}
