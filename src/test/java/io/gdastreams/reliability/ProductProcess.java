package io.gdastreams.reliability;

import io.gdastreams.cli.Main;
import io.gdastreams.config.Role;
import io.gdastreams.math.KernelChoice;
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
import java.util.concurrent.TimeUnit;

/**
 * The product's own command ({@code io.gdastreams.cli.Main train|score --config FILE}) in a JVM of its own on the
 * test classpath, for fault-injection tests: what runs is exactly what an operator runs, configured only by the
 * properties file this class writes. Each {@link #start()} logs to a new file ({@code <name>-<n>.log}).
 *
 * <p>The child does not inherit {@code GDA_*} or {@code KAFKA_STREAMS_*} variables from the test's environment:
 * they would override the file. No child outlives the test JVM, however that JVM ends (failsafe stops a timed-out
 * fork with SIGTERM; a developer or CI may SIGKILL it, and then no shutdown hook runs): beside each child runs a
 * watch, a shell reading a pipe from the test JVM, which SIGKILLs the child when the pipe closes. The operating
 * system closes it whichever way the test JVM ends. The watch sits outside the child so that the child's JVM
 * runs {@link Main} and nothing else.
 */
public final class ProductProcess implements AutoCloseable {

    /** The CLI commands this class can run. */
    public enum Command {
        TRAIN("train", Role.TRAINING),
        SCORE("score", Role.SCORING);

        private final String cli;
        private final Role role;

        Command(String cli, Role role) {
            this.cli = cli;
            this.role = role;
        }

        /** The role the command prints and derives its application id from ({@code <gda.application.id>-<role>}). */
        public String role() {
            return role.toString();
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

    /** How a stop went: the exit status and the time from the signal until the process had exited. */
    public record Exit(int status, Duration afterSignal) {
    }

    /** How long a stop may take: the commands close Kafka Streams within 10 s, plus JVM exit. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private final Command command;
    private String heap = "256m";
    private final Path configFile;
    private final Path logDir;
    private final String name;
    private Process process;
    /**
     * Held while the child runs: the streams of an unreachable {@link Process} are closed by the garbage
     * collector, and the closed pipe would make the watch kill the child.
     */
    private Process watch;
    private int starts;
    /** Where the child finds the product: the test class path, or a built jar ({@link #fromJar}). */
    private String classpath = StreamsChildProcess.classpath();
    /** Variables given to the child on top of the cleaned environment (e.g. a secret, {@link #withEnvironment}). */
    private final Map<String, String> environment = new LinkedHashMap<>();

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
        config.put("gda.topic.labelled", topics.labelled().name());
        config.put("gda.topic.unlabelled", topics.unlabelled().name());
        config.put("gda.topic.model", topics.model().name());
        config.put("gda.topic.predictions", topics.predictions().name());
        config.put("gda.topic.dead-letters", topics.deadLetters().name());
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

    /** Gives the child a heap of {@code size} ({@code -Xmx}; 256m unless told). */
    public ProductProcess withHeap(String size) {
        this.heap = size;
        return this;
    }

    /** Runs the command from {@code jar} (e.g. target/gda-streams-service.jar) instead of the test class path. */
    public ProductProcess fromJar(Path jar) {
        this.classpath = jar.toAbsolutePath().toString();
        return this;
    }

    /**
     * Gives the child {@code variables} (e.g. {@code GDA_HTTP_TOKEN} or {@code GDA_MODEL_SIGNING_KEY}, which a
     * properties file may not hold).
     */
    public ProductProcess withEnvironment(Map<String, String> variables) {
        environment.putAll(variables);
        return this;
    }

    /** Starts the command in a new JVM, logging to a new file. */
    public void start() {
        if (isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        List<String> commandLine = new ArrayList<>();
        commandLine.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        commandLine.add("-Xmx" + heap);
        commandLine.addAll(JVM_OPTIONS);
        commandLine.addAll(KernelChoice.childJvmOptions()); // the vector kernel as in the test JVM (pom.xml argLine)
        // -Dproduct.kafka.log=info: Kafka's own loggers in the children at that level (diagnosing a fault run).
        String kafkaLog = System.getProperty("product.kafka.log");
        if (kafkaLog != null) {
            commandLine.add("-Dorg.slf4j.simpleLogger.log.org.apache.kafka=" + kafkaLog);
        }
        commandLine.addAll(List.of("-cp", classpath, Main.class.getName(), command.cli,
                "--config", configFile.toString()));
        try {
            Files.createDirectories(logDir);
            starts++;
            ProcessBuilder builder = new ProcessBuilder(commandLine).redirectErrorStream(true)
                    .redirectOutput(logFile(starts).toFile());
            builder.environment().keySet().removeIf(v -> v.startsWith("GDA_") || v.startsWith("KAFKA_STREAMS_"));
            builder.environment().putAll(environment);
            process = builder.start();
            watch = watchFromTestJvm(process);
        } catch (IOException e) {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts the watch that SIGKILLs {@code child} once this JVM is gone: {@code read} returns at the end of its
     * standard input, a pipe whose other end only this JVM holds. The watch goes when the child exits, so that it
     * never signals a process id the system has given to another process since.
     */
    private static Process watchFromTestJvm(Process child) throws IOException {
        Process watch = new ProcessBuilder("sh", "-c",
                "while read -r line; do :; done; kill -KILL " + child.pid() + " 2>/dev/null")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        child.onExit().thenRun(watch::destroyForcibly);
        return watch;
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

    /**
     * SIGTERM ({@link Process#destroy()}), as an operator's Ctrl-C or a container stop, and waits for the exit.
     */
    public Exit sigterm() {
        long signalled = System.nanoTime();
        process.destroy();
        return awaitExit(signalled);
    }

    /** SIGKILL, as a crash or the OOM killer: no shutdown hook runs. Waits for the exit. */
    public Exit sigkill() {
        long signalled = System.nanoTime();
        process.destroyForcibly();
        return awaitExit(signalled);
    }

    private Exit awaitExit(long signalled) {
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " did not exit within " + STOP_TIMEOUT + ":\n" + log());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new Exit(process.exitValue(), Duration.ofNanos(System.nanoTime() - signalled));
    }

    /** Waits up to {@code timeout} for the command to end by itself; returns its exit status, or fails. */
    public int awaitOwnExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " still running after " + timeout + ":\n" + log());
        }
        return process.exitValue();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Fails, with the output of every start, unless the command is running (it may have exited by itself). */
    public void assertAlive() {
        if (!isAlive()) {
            throw new AssertionError(name + (process == null ? " never started" : " exited with "
                    + process.exitValue()) + ":\n" + allLogs());
        }
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

    /** The last {@code lines} lines of every start's output, in order: enough of a long run for a failure message. */
    public String tails(int lines) {
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= starts; i++) {
            List<String> log = read(logFile(i)).lines().toList();
            all.append("----- ").append(name).append(" start ").append(i).append(", last ").append(lines)
                    .append(" lines -----\n");
            log.subList(Math.max(0, log.size() - lines), log.size()).forEach(l -> all.append(l).append('\n'));
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
