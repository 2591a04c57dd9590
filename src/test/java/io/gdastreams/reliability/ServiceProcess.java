package io.gdastreams.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code train} or {@code score} service in a JVM of its own ({@link ServiceChild}), stopped as an operator or an
 * orchestrator stops it: SIGTERM, then wait for the process to exit. Each start writes its output to a log file of
 * its own.
 */
final class ServiceProcess implements AutoCloseable {

    /** How long a SIGTERM may take: the service closes Kafka Streams within 10 s, plus JVM exit. */
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    private final List<String> command;
    private final Path logDir;
    private final String name;
    private Process process;
    private int starts;

    ServiceProcess(String name, List<String> args, Path logDir) {
        this.name = name;
        this.logDir = logDir;
        this.command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", StreamsChildProcess.classpath(),
                ServiceChild.class.getName()));
        command.addAll(args);
    }

    void start() {
        try {
            Files.createDirectories(logDir);
            starts++;
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(logFile(starts).toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends SIGTERM and waits until the process has exited; returns how long that took. */
    Duration terminate() {
        long start = System.nanoTime();
        process.destroy();
        try {
            if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " did not exit within " + EXIT_TIMEOUT + " of SIGTERM\n" + log());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The output of the current (last started) process. */
    String log() {
        try {
            return Files.readString(logFile(starts));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The last {@code lines} lines of every start's output, for a failure message. */
    String tails(int lines) {
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= starts; i++) {
            all.append("---- ").append(name).append(" start ").append(i).append(" (").append(logFile(i))
                    .append(")\n");
            try {
                List<String> log = Files.readAllLines(logFile(i));
                log.subList(Math.max(0, log.size() - lines), log.size()).forEach(l -> all.append(l).append('\n'));
            } catch (IOException e) {
                all.append("(no log: ").append(e).append(")\n");
            }
        }
        return all.toString();
    }

    private Path logFile(int start) {
        return logDir.resolve(name + "-" + start + ".log");
    }

    @Override
    public void close() {
        if (isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
