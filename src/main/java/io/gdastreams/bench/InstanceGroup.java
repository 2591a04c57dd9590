package io.gdastreams.bench;

import io.gdastreams.math.KernelChoice;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stage's application as N child JVMs ({@link BenchInstance}) in one consumer group, on the bench's class path,
 * each under the application CPUs' {@code taskset} prefix when pinned, each with its own state directory and its
 * standard error in {@code <stage>-<i>.log} under the run's state directory. Started together; RUNNING once every
 * instance has said so (the last of them is {@link #runningAt()}).
 */
final class InstanceGroup implements AppUnderTest {

    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final int LOG_TAIL_LINES = 15;

    private record Instance(Process process, Path log, BlockingQueue<String> lines) {
    }

    private final Stage stage;
    private final String applicationId;
    // Copy-on-write: the exit hook may read it while the constructor still adds instances.
    private final List<Instance> instances = new CopyOnWriteArrayList<>();
    private final long startedAt;
    private long runningAt;
    /**
     * Kills the instances if the bench's JVM is stopped (SIGTERM, Ctrl-C) before {@link #close}. Without it they
     * would see their standard input close and then wait up to their close timeout for a broker that went with the
     * bench (about a minute, measured), holding memory and CPU a next run would share.
     */
    private final Thread killOnExit = new Thread(this::destroyAll, "bench-instances-kill-on-exit");

    /**
     * @param arguments the {@link BenchInstance} arguments of instance i (its own state directory)
     * @param heap      the children's {@code -Xmx} (e.g. 1g)
     */
    InstanceGroup(Stage stage, int count, String applicationId, java.util.function.IntFunction<List<String>> arguments,
                  List<String> commandPrefix, String heap, Path logDirectory, Duration startTimeout) {
        this.stage = stage;
        this.applicationId = applicationId;
        this.startedAt = System.currentTimeMillis();
        Runtime.getRuntime().addShutdownHook(killOnExit);
        try {
            for (int i = 0; i < count; i++) {
                instances.add(launch(i, arguments.apply(i), commandPrefix, heap, logDirectory));
            }
            Deadline deadline = Deadline.after(stage, startTimeout);
            for (Instance instance : instances) {
                runningAt = Math.max(runningAt, Long.parseLong(reply(instance, BenchInstance.RUNNING, deadline)));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private Instance launch(int i, List<String> arguments, List<String> prefix, String heap, Path logDirectory) {
        List<String> command = new ArrayList<>(prefix);
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.addAll(KernelChoice.childJvmOptions()); // the bench's own scoring kernel
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-Dorg.slf4j.simpleLogger.log.org.apache.kafka=error");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BenchInstance.class.getName());
        command.addAll(arguments);
        Path log = logDirectory.resolve(stage.label() + "-" + i + ".log");
        try {
            Files.createDirectories(logDirectory);
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (var out = process.inputReader(StandardCharsets.UTF_8)) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the instance is gone; checkHealthy reports it
                }
            }, "bench-instance-" + stage.label() + "-" + i);
            reader.setDaemon(true);
            reader.start();
            return new Instance(process, log, lines);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start instance " + i + " of " + stage.label() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The rest of the next line of {@code instance} that starts with {@code tag}. */
    private String reply(Instance instance, String tag, Deadline deadline) {
        while (true) {
            String line;
            try {
                line = instance.lines().poll(BenchClients.POLL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for an instance", e);
            }
            if (line != null && line.startsWith(tag + " ")) {
                return line.substring(tag.length() + 1).strip();
            }
            if (line == null) {
                check(instance);
                deadline.check("waiting for " + tag + " from instance " + instance.process().pid());
            }
        }
    }

    /** Per instance: heap used after a full GC (bytes), asked of the instance itself. */
    List<Long> heapUsedAfterGc() {
        List<Long> heaps = new ArrayList<>();
        for (Instance instance : instances) {
            send(instance, BenchInstance.HEAP);
            heaps.add(Long.parseLong(reply(instance, BenchInstance.HEAP, Deadline.after(stage, REPLY_TIMEOUT))));
        }
        return heaps;
    }

    /** Per instance: its resident memory now and at its peak. */
    List<ProcessMemory> memory() {
        return instances.stream().map(i -> ProcessMemory.of(i.process().pid())).toList();
    }

    private static void send(Instance instance, String command) {
        try {
            OutputStream in = instance.process().getOutputStream();
            in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new IllegalStateException("instance " + instance.process().pid() + " does not listen: "
                    + e.getMessage(), e);
        }
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

    @Override
    public void checkHealthy() {
        instances.forEach(this::check);
    }

    private void check(Instance instance) {
        if (!instance.process().isAlive()) {
            throw new IllegalStateException(stage.label() + ": instance " + instance.process().pid()
                    + " exited with code " + instance.process().exitValue() + "; last lines of " + instance.log()
                    + ":\n" + tail(instance.log()));
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private void destroyAll() {
        for (Instance instance : instances) {
            instance.process().destroyForcibly();
        }
    }

    /** Asks every instance to stop (it closes its application), waits, and kills what is left. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs (or ran) anyway
        }
        for (Instance instance : instances) {
            try {
                send(instance, BenchInstance.STOP);
                instance.process().getOutputStream().close();
            } catch (IOException | RuntimeException e) {
                // already gone
            }
        }
        for (Instance instance : instances) {
            try {
                if (!instance.process().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    instance.process().destroyForcibly();
                    instance.process().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                instance.process().destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
