package io.gdastreams.reliability;

import io.gdastreams.app.Main;
import io.gdastreams.topology.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The product's own command ({@code io.gdastreams.app.Main train|score --config FILE}) in a JVM of its own on the
 * test classpath, for fault-injection tests: what runs is exactly what an operator runs, configured only by the
 * properties file this class writes. Each {@link #start()} logs to a new file ({@code <name>-<n>.log}).
 *
 * <p>The child does not inherit {@code GDA_*} or {@code KAFKA_STREAMS_*} variables from the test's environment:
 * they would override the file. A shutdown hook of the test JVM kills children still running when it exits
 * (failsafe stops a timed-out fork with SIGTERM); only a SIGKILL of the test JVM itself can leave one behind.
 */
public final class ProductProcess implements AutoCloseable {

    /** The CLI commands this class can run. */
    public enum Command {
        TRAIN("train", "training"),
        SCORE("score", "scoring");

        private final String cli;
        private final String role;

        Command(String cli, String role) {
            this.cli = cli;
            this.role = role;
        }

        /** The role the command prints and derives its application id from ({@code <gda.application.id>-<role>}). */
        public String role() {
            return role;
        }
    }

    /**
     * Exit status of {@code train} / {@code score} after SIGTERM: 128 + 15. The shutdown hook closes Kafka Streams
     * and ServiceRunner then returns 0, but the JVM is already exiting with the signal's status, which the
     * {@code System.exit(0)} of {@code Main} cannot change (measured: 143, as Ctrl-C gives 130; see ExitCodes).
     */
    public static final int SIGTERM_EXIT = 143;
    /** Exit status of a process killed by SIGKILL as Java reports it: 128 + 9. */
    public static final int SIGKILL_EXIT = 137;

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC");
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
                "product-process-reaper"));
    }

    private final Command command;
    private final Path configFile;
    private final Path logDir;
    private final String name;
    private Process process;
    private int starts;

    /**
     * Writes {@code config} (application {@code gda.*} keys and Kafka Streams keys, as in config/app.properties)
     * to {@code <workDir>/<name>.properties}; logs go to {@code workDir} too. Nothing starts yet.
     */
    public ProductProcess(Command command, Map<String, String> config, Path workDir, String name) {
        this.command = command;
        this.logDir = workDir;
        this.name = name;
        this.configFile = workDir.resolve(name + ".properties");
        writeProperties(configFile, config);
    }

    /**
     * The keys a test run needs: cluster, topics, model id, application id and state directory, with the fast
     * cadence of the tests ({@code gda.publish.interval.ms=200}, commit every 100 ms, no record cache, no
     * linger). The product creates missing topics ({@code gda.create.topics=true}) with {@code partitions}
     * partitions. Callers may add or override keys before constructing a {@link ProductProcess}.
     */
    public static Map<String, String> testConfig(String bootstrapServers, Topics topics, String modelId,
                                                 String applicationId, Path stateDir, int partitions) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("bootstrap.servers", bootstrapServers);
        config.put("gda.topic.labelled", topics.labelled());
        config.put("gda.topic.unlabelled", topics.unlabelled());
        config.put("gda.topic.model", topics.model());
        config.put("gda.topic.predictions", topics.predictions());
        config.put("gda.topic.dead-letters", topics.deadLetters());
        config.put("gda.model.id", modelId);
        config.put("gda.application.id", applicationId);
        config.put("gda.create.topics", "true");
        config.put("gda.partitions", Integer.toString(partitions));
        config.put("gda.publish.interval.ms", "200");
        config.put("state.dir", stateDir.toString());
        config.put("commit.interval.ms", "100");
        config.put("statestore.cache.max.bytes", "0");
        config.put("producer.linger.ms", "0");
        return config;
    }

    public Path configFile() {
        return configFile;
    }

    /** Starts the command in a new JVM, logging to a new file. */
    public void start() {
        if (isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        List<String> commandLine = new ArrayList<>();
        commandLine.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        commandLine.addAll(JVM_OPTIONS);
        commandLine.addAll(List.of("-cp", StreamsChildProcess.classpath(), Main.class.getName(), command.cli,
                "--config", configFile.toString()));
        try {
            Files.createDirectories(logDir);
            starts++;
            ProcessBuilder builder = new ProcessBuilder(commandLine).redirectErrorStream(true)
                    .redirectOutput(logFile(starts).toFile());
            builder.environment().keySet().removeIf(v -> v.startsWith("GDA_") || v.startsWith("KAFKA_STREAMS_"));
            process = builder.start();
            LIVE.add(process);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until the command reports that it runs ({@code <role>: running as application ...}: topics exist and
     * Kafka Streams was started). Fails if it exits first or after {@code timeout}.
     */
    public void awaitRunning(Duration timeout) throws InterruptedException {
        String marker = command.role + ": running as application";
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!log().contains(marker)) {
            if (!isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before running:\n" + log());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " not running after " + timeout + ":\n" + log());
            }
            Thread.sleep(100);
        }
    }

    /** SIGTERM ({@link Process#destroy()}), as an operator's Ctrl-C or a container stop; returns the exit status. */
    public int sigterm() {
        process.destroy();
        return awaitExit();
    }

    /** SIGKILL, as a crash or the OOM killer: no shutdown hook runs. Returns the exit status. */
    public int sigkill() {
        process.destroyForcibly();
        return awaitExit();
    }

    private int awaitExit() {
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " did not exit within " + STOP_TIMEOUT + ":\n" + log());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            LIVE.remove(process);
        }
        return process.exitValue();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** Output of the current (last started) process. */
    public String log() {
        return starts == 0 ? "" : read(logFile(starts));
    }

    /** Output of every start so far, in order. */
    public String allLogs() {
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= starts; i++) {
            all.append("----- ").append(name).append(" start ").append(i).append(" -----\n").append(read(logFile(i)));
        }
        return all.toString();
    }

    private Path logFile(int start) {
        return logDir.resolve(name + "-" + start + ".log");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void writeProperties(Path file, Map<String, String> config) {
        Properties properties = new Properties();
        properties.putAll(config);
        try {
            Files.createDirectories(file.getParent());
            try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                properties.store(writer, "written by " + ProductProcess.class.getSimpleName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL if still running: a test that failed midway leaves nothing behind. */
    @Override
    public void close() {
        if (isAlive()) {
            sigkill();
        }
    }
}
