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

/**
 * Main class of one child instance of {@code bench --instances N} (and of {@code --memory}): runs one stage's
 * application ({@link StageApps}, the same as in the bench's JVM) until its standard input says {@value #STOP}
 * or closes. Protocol on standard output, one line each: {@value #RUNNING} {@code <epoch ms>} once RUNNING, and
 * {@value #HEAP} {@code <bytes>} (heap used after a full GC) in answer to {@value #HEAP} on standard input.
 * Arguments: {@link #arguments} writes them, {@link #main} reads them back.
 */
public final class BenchInstance {

    static final String RUNNING = "RUNNING";
    static final String HEAP = "HEAP";
    static final String STOP = "STOP";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);
    private static final int FIXED_ARGUMENTS = 12;
    private static final Duration HEALTH_CHECK = Duration.ofMillis(500);
    /** Exit code of an instance whose application failed. */
    static final int FAILED = 3;
    private static volatile boolean stopping;

    private BenchInstance() {
    }

    /** The command-line arguments of an instance of {@code stage} (the run's --set keys last). */
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

    public static void main(String[] args) throws IOException {
        if (args.length < FIXED_ARGUMENTS) {
            throw new IllegalArgumentException("expected at least " + FIXED_ARGUMENTS + " arguments, got "
                    + Arrays.toString(args));
        }
        Stage stage = Stage.valueOf(args[0]);
        String topicPrefix = args[1];
        List<String> sets = List.of(args).subList(FIXED_ARGUMENTS, args.length);
        int classes = Integer.parseInt(args[5]);
        int features = Integer.parseInt(args[6]);
        BenchSettings settings = new BenchSettings(classes, features, 1, Integer.parseInt(args[8]),
                Integer.parseInt(args[9]), args[10], Long.parseLong(args[7]), 0, 1,
                Duration.ofMillis(Long.parseLong(args[11])), BenchConfiguration.of(sets, classes, features));
        StreamsApp app = new StreamsApp(stage.label(), StageApps.topology(stage, settings,
                BenchClients.topicsNamed(topicPrefix)),
                StageApps.properties(stage, settings, args[2], args[3], Path.of(args[4])), CLOSE_TIMEOUT);
        try {
            app.start();
            app.awaitRunning(START_TIMEOUT);
            System.out.println(RUNNING + " " + app.runningAt());
            System.out.flush();
            exitWhenFailed(app);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.strip().equals(STOP); line = in.readLine()) {
                if (line.strip().equals(HEAP)) {
                    System.out.println(HEAP + " " + heapUsedAfterGc());
                    System.out.flush();
                }
            }
        } finally {
            stopping = true;
            app.close();
        }
        System.exit(0);
    }

    /**
     * A failed application leaves this JVM alive in its stdin loop; exit instead, so that the bench's health
     * check sees the instance gone at once (and quotes its log) rather than waiting for the stage timeout.
     */
    private static void exitWhenFailed(StreamsApp app) {
        Thread watcher = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(HEALTH_CHECK.toMillis());
                    if (stopping) {
                        return; // closing on request passes through PENDING_SHUTDOWN: not a failure
                    }
                    app.checkHealthy();
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
