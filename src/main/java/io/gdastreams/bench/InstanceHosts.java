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
 * The child JVMs of {@code bench --instances N}: N {@link BenchInstance} hosts on the bench's class path, each under
 * the application CPUs' {@code taskset} prefix when pinned, each with its standard error in {@code host-<i>.log}
 * under the run's state directory. They live as long as this object, so one bench run's stages (the warm-up's
 * passes, then the measured rounds) run in the same N JVMs one after the other, as they run in the bench's own JVM
 * without {@code --instances}: a child started per stage compiled its hot paths during the measured stage.
 */
final class InstanceHosts implements AutoCloseable {

    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);
    private static final int LOG_TAIL_LINES = 15;

    /** One host JVM: its process, its log, and the lines it has written on standard output, not yet read. */
    record Host(int index, Process process, Path log, BlockingQueue<String> lines) {

        void send(String command) {
            try {
                OutputStream in = process.getOutputStream();
                in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) {
                check();
                throw new IllegalStateException("instance host " + index + " does not listen: " + e.getMessage(), e);
            }
        }

        /** The rest of the next line that starts with {@code tag}, skipping any other. */
        String reply(String tag, Deadline deadline) {
            while (true) {
                String line;
                try {
                    line = lines.poll(BenchClients.POLL.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted waiting for instance host " + index, e);
                }
                if (line != null && line.startsWith(tag)
                        && (line.length() == tag.length() || line.charAt(tag.length()) == ' ')) {
                    return line.substring(tag.length()).strip();
                }
                if (line == null) {
                    check();
                    deadline.check("waiting for " + tag + " from instance host " + index);
                }
            }
        }

        /** Field {@code field} ({@code BenchInstance.USAGE_*}) of the host's {@value BenchInstance#USAGE} answer. */
        double usage(int field, Deadline deadline) {
            send(BenchInstance.USAGE);
            return Double.parseDouble(reply(BenchInstance.USAGE, deadline).split(" ")[field]);
        }

        /** Throws, quoting the end of its log, when the host has exited. */
        void check() {
            if (!process.isAlive()) {
                throw new IllegalStateException("instance host " + index + " (pid " + process.pid()
                        + ") exited with code " + process.exitValue() + "; last lines of " + log + ":\n"
                        + tail(log));
            }
        }

        void destroy() {
            process.destroyForcibly();
        }
    }

    // Copy-on-write: the exit hook may read it while the constructor still adds hosts.
    private final List<Host> hosts = new CopyOnWriteArrayList<>();
    /**
     * Kills the hosts if the bench's JVM is stopped (SIGTERM, Ctrl-C) before {@link #close}. Without it they
     * would see their standard input close and then wait up to their close timeout for a broker that went with the
     * bench (about a minute, measured), holding memory and CPU a next run would share.
     */
    private final Thread killOnExit = new Thread(this::destroyAll, "bench-instances-kill-on-exit");

    /**
     * @param count         how many hosts
     * @param commandPrefix the application CPUs' {@code taskset} prefix, or none
     * @param heap          their {@code -Xmx} (e.g. 1g)
     * @param logDirectory  where their logs go
     */
    InstanceHosts(int count, List<String> commandPrefix, String heap, Path logDirectory) {
        Runtime.getRuntime().addShutdownHook(killOnExit);
        try {
            for (int i = 0; i < count; i++) {
                hosts.add(launch(i, commandPrefix, heap, logDirectory));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static Host launch(int i, List<String> prefix, String heap, Path logDirectory) {
        List<String> command = new ArrayList<>(prefix);
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.addAll(KernelChoice.childJvmOptions()); // the bench's own scoring kernel
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-Dorg.slf4j.simpleLogger.log.org.apache.kafka=error");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BenchInstance.class.getName());
        Path log = logDirectory.resolve("host-" + i + ".log");
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
                    // the host is gone; Host.check reports it
                }
            }, "bench-instance-host-" + i);
            reader.setDaemon(true);
            reader.start();
            return new Host(i, process, log, lines);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start instance host " + i + ": " + e.getMessage(), e);
        }
    }

    List<Host> hosts() {
        return List.copyOf(hosts);
    }

    /**
     * Seconds the hosts' JITs have compiled so far, summed (asked of each), for the warm-up's "quiet" test; NaN when
     * one does not report it.
     */
    double compileSeconds(Duration timeout) {
        return usageSum(hosts, BenchInstance.USAGE_JIT_TOTAL, Deadline.after("instance hosts", timeout));
    }

    /** Field {@code field} of the {@value BenchInstance#USAGE} answers of {@code hosts}, summed. */
    static double usageSum(List<Host> hosts, int field, Deadline deadline) {
        double sum = 0;
        for (Host host : hosts) {
            sum += host.usage(field, deadline);
        }
        return sum;
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
        hosts.forEach(Host::destroy);
    }

    /** Asks every host to exit (each closes what it runs), waits, and kills what is left. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs (or ran) anyway
        }
        for (Host host : hosts) {
            try {
                host.send(BenchInstance.EXIT);
                host.process().getOutputStream().close();
            } catch (IOException | RuntimeException e) {
                // already gone
            }
        }
        for (Host host : hosts) {
            try {
                if (!host.process().waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    host.destroy();
                    host.process().waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                host.destroy();
                Thread.currentThread().interrupt();
            }
        }
    }
}
