package io.gdastreams.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Apache Kafka (KRaft, combined broker + controller) in a separate JVM, started from our own
 * class path: {@code kafka.tools.StorageTool format --standalone}, then {@code kafka.Kafka server.properties}.
 * It listens on 127.0.0.1 only, on free ports; data and the broker log live in a temporary directory that is
 * deleted on {@link #close()} (also on Ctrl-C, through a shutdown hook).
 *
 * <p>The package-private {@link #pause()}, {@link #resume()} and {@link #killAndRestart(Duration)} exist for the
 * fault-injection tests only (reached through a test-side wrapper); the commands never call them.
 */
public final class EmbeddedBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private static final Duration READY_PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final int LOG_TAIL_LINES = 25;
    private static final int START_ATTEMPTS = 3;
    private static final Duration RESTART_PORT_RETRY = Duration.ofSeconds(1);
    private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);
    private static final List<String> JVM_OPTIONS = List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC",
            // C1 only: the demo's broker lives for seconds; C2 compilation would cost more CPU than it saves
            // (measured: demo CPU time 16 s -> 10.5 s on 2 cores).
            "-XX:TieredStopAtLevel=1",
            "-Djava.awt.headless=true",
            // The broker's own log goes to the log file; keep it informative for diagnosing start failures.
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
            "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=info",
            "-Dorg.slf4j.simpleLogger.showDateTime=true",
            "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");

    /** Prefix of the temporary directories; the owner's pid follows, so stale ones can be recognised. */
    private static final String DIRECTORY_PREFIX = "gda-streams-broker-";

    private final Workspace workspace;
    private final Path logFile;
    private final Path serverProperties;
    private final String bootstrapServers;
    /** The broker JVM; replaced by {@link #killAndRestart(Duration)}. */
    private volatile Process process;

    private EmbeddedBroker(Workspace workspace, Path logFile, Path serverProperties, String bootstrapServers,
                           Process process) {
        this.workspace = workspace;
        this.logFile = logFile;
        this.serverProperties = serverProperties;
        this.bootstrapServers = bootstrapServers;
        this.process = process;
    }

    /** Starts a broker and waits (at most {@code timeout}) until an AdminClient sees it. */
    public static EmbeddedBroker start(Duration timeout) {
        requireBrokerClasses();
        deleteStaleDirectories();
        Workspace workspace = new Workspace();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return startIn(workspace, timeout);
                } catch (PortTakenException e) {
                    if (attempt == START_ATTEMPTS) {
                        throw new BrokerException("embedded broker could not bind its ports after "
                                + START_ATTEMPTS + " attempts" + e.getMessage());
                    }
                    LOG.info("broker port was taken meanwhile; retrying with new ports");
                }
            }
        } catch (RuntimeException e) {
            workspace.close();
            throw e;
        }
    }

    private static EmbeddedBroker startIn(Workspace workspace, Duration timeout) {
        Path directory = workspace.directory;
        deleteChildren(directory);
        Path dataDir = directory.resolve("data");
        Path logFile = directory.resolve("broker.log");
        Path serverProperties = directory.resolve("server.properties");
        int brokerPort = freePort();
        int controllerPort = freePort();
        while (controllerPort == brokerPort) {
            controllerPort = freePort();
        }
        String bootstrap = "127.0.0.1:" + brokerPort;
        writeServerProperties(serverProperties, dataDir, brokerPort, controllerPort);

        String clusterId = Uuid.randomUuid().toString();
        runFormat(workspace, serverProperties, clusterId, logFile);

        Process process = launchBroker(workspace, serverProperties, logFile);
        EmbeddedBroker broker = new EmbeddedBroker(workspace, logFile, serverProperties, bootstrap, process);
        try {
            broker.awaitReady(timeout);
        } catch (RuntimeException e) {
            stop(process);
            throw e;
        }
        LOG.debug("embedded broker ready at {} (data and log in {})", bootstrap, directory);
        return broker;
    }

    private static Process launchBroker(Workspace workspace, Path serverProperties, Path logFile) {
        return workspace.launch(javaCommand(BrokerChildMain.class.getName(), serverProperties.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())));
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Pid of the broker JVM (changes on {@link #killAndRestart(Duration)}). */
    long pid() {
        return process.pid();
    }

    /**
     * SIGSTOP: the broker JVM freezes with its sockets open, as a broker in a long GC pause or on a hung host
     * does (clients time out rather than see a refused connection). Returns once the kernel reports it stopped.
     * For the fault-injection tests.
     */
    void pause() {
        workspace.pause(process);
    }

    /** SIGCONT after {@link #pause()}. For the fault-injection tests. */
    void resume() {
        workspace.resume(process);
    }

    /**
     * SIGKILL, as a crash or the OOM killer would (no controlled shutdown, nothing flushed beyond the page cache),
     * then a new broker JVM on the SAME data directory and the SAME ports, so that clients reconnect to the
     * address they know. The storage is not formatted again: the broker recovers its logs and metadata as after
     * a real crash. Returns once an AdminClient sees the broker again: about 10 s, most of it the controller
     * refusing the new incarnation's registration until the dead one's session expires
     * ({@code broker.session.timeout.ms}, 9 s), exactly as after a real crash. For the fault-injection tests.
     */
    void killAndRestart(Duration timeout) {
        Process old = process;
        workspace.kill(old);
        for (int attempt = 1; ; attempt++) {
            process = launchBroker(workspace, serverProperties, logFile);
            try {
                awaitReady(timeout);
                LOG.debug("embedded broker restarted at {} (pid {})", bootstrapServers, process.pid());
                return;
            } catch (PortTakenException e) {
                // The ports must stay the same for the clients; only a short-lived holder can be waited out.
                if (attempt == START_ATTEMPTS) {
                    throw new BrokerException("restarted broker could not bind its ports " + bootstrapServers
                            + " after " + START_ATTEMPTS + " attempts" + e.getMessage());
                }
                LOG.info("broker port still taken after the kill; retrying on the same ports");
                sleep(RESTART_PORT_RETRY.toMillis());
            } catch (RuntimeException e) {
                stop(process);
                throw e;
            }
        }
    }

    /**
     * Hands the Ctrl-C clean-up of this broker to {@code sequence}, so that it stops after the applications
     * registered later (which need it to close cleanly) instead of concurrently with them.
     */
    EmbeddedBroker registerWith(ShutdownSequence sequence) {
        sequence.register(this);
        workspace.removeHook();
        return this;
    }

    /** Stops the broker (SIGTERM, then SIGKILL after a grace period) and deletes its directory. Idempotent. */
    @Override
    public void close() {
        workspace.close();
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The temporary directory and whichever child JVM runs in it (the storage tool, then the broker). A shutdown
     * hook, registered before the first child starts, stops the child and deletes the directory on Ctrl-C at any
     * point of the broker's life.
     */
    private static final class Workspace {
        private final Path directory;
        private final Thread hook = new Thread(this::release, "embedded-broker-cleanup");
        private Process child;
        private boolean paused;
        private boolean released;

        Workspace() {
            try {
                directory = Files.createTempDirectory(DIRECTORY_PREFIX + ProcessHandle.current().pid() + "-");
            } catch (IOException e) {
                throw new BrokerException("cannot create a temporary directory for the broker: " + e.getMessage());
            }
            Runtime.getRuntime().addShutdownHook(hook);
        }

        synchronized Process launch(ProcessBuilder builder) {
            if (released) {
                throw new BrokerException("the embedded broker is shutting down");
            }
            try {
                child = builder.start();
                return child;
            } catch (IOException e) {
                throw new BrokerException("cannot start a JVM for the broker: " + e.getMessage());
            }
        }

        synchronized void pause(Process process) {
            requireCurrent(process);
            signal(process, "STOP");
            paused = true;
            awaitRunState(process, true);
        }

        synchronized void resume(Process process) {
            requireCurrent(process);
            signal(process, "CONT");
            paused = false;
            awaitRunState(process, false);
        }

        /** SIGKILL and wait until the process is gone (a stopped process dies on SIGKILL too). */
        synchronized void kill(Process process) {
            requireCurrent(process);
            process.destroyForcibly();
            paused = false;
            try {
                if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new BrokerException("broker " + process.pid() + " did not die on SIGKILL");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BrokerException("interrupted while killing the embedded broker");
            }
        }

        private void requireCurrent(Process process) {
            if (released || process != child || !process.isAlive()) {
                throw new BrokerException("the embedded broker is not running");
            }
        }

        /** Releases first and removes the hook after: a Ctrl-C in between finds the hook still there. */
        void close() {
            release();
            removeHook();
        }

        void removeHook() {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down; the hook finds everything released.
            }
        }

        private synchronized void release() {
            if (released) {
                return;
            }
            released = true;
            if (child != null) {
                if (paused) {
                    // A stopped process would hold SIGTERM pending until the grace period ran out.
                    signal(child, "CONT");
                }
                stop(child);
            }
            Directories.deleteQuietly(directory);
        }
    }

    /** Sends {@code SIG<name>} with kill(1): Java can send only SIGTERM and SIGKILL. */
    private static void signal(Process process, String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!kill.waitFor(SIGNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                throw new BrokerException("kill -" + name + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new BrokerException("cannot run kill -" + name + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while signalling the embedded broker");
        }
    }

    /**
     * Waits until /proc says the process is stopped ({@code T}) or not, so that a caller's next step happens
     * after the signal took effect. Without /proc (not Linux) it returns at once.
     */
    private static void awaitRunState(Process process, boolean stopped) {
        Path stat = Paths.get("/proc", Long.toString(process.pid()), "stat");
        long deadline = System.nanoTime() + SIGNAL_TIMEOUT.toNanos();
        while (Files.isReadable(stat)) {
            String state;
            try {
                String line = Files.readString(stat, StandardCharsets.UTF_8);
                // "pid (comm) S ...": the state follows the last ')' (comm may contain spaces and parentheses).
                state = line.substring(line.lastIndexOf(')') + 2, line.lastIndexOf(')') + 3);
            } catch (IOException | RuntimeException e) {
                return;
            }
            if (state.equals("T") == stopped) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new BrokerException("broker " + process.pid() + " still in state " + state + " after "
                        + SIGNAL_TIMEOUT.toSeconds() + " s");
            }
            sleep(10);
        }
    }

    /** Directories left by an owner that was killed outright (no shutdown hook ran); its broker exited with it. */
    private static void deleteStaleDirectories() {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> entries = Files.list(tmp)) {
            entries.filter(EmbeddedBroker::isStale)
                    .forEach(Directories::deleteQuietly);
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("cannot scan {} for stale broker directories: {}", tmp, e.getMessage());
        }
    }

    /** A broker directory whose owning process (pid in the name) no longer runs. */
    private static boolean isStale(Path directory) {
        String name = directory.getFileName().toString();
        if (!name.startsWith(DIRECTORY_PREFIX)) {
            return false;
        }
        String rest = name.substring(DIRECTORY_PREFIX.length());
        int dash = rest.indexOf('-');
        if (dash <= 0) {
            return false;
        }
        try {
            long pid = Long.parseLong(rest.substring(0, dash));
            return ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> adminConfig = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) READY_PROBE_TIMEOUT.toMillis(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READY_PROBE_TIMEOUT.toMillis(),
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
        // Wait for the listener socket first: an AdminClient polling a closed port logs a warning per attempt.
        while (!acceptsConnections()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                break;
            }
            sleep(100);
        }
        try (Admin admin = Admin.create(adminConfig)) {
            while (true) {
                if (!process.isAlive()) {
                    String tail = logTail(logFile);
                    if (tail.contains("Address already in use")) {
                        throw new PortTakenException();
                    }
                    throw new BrokerException("embedded broker exited with code " + process.exitValue()
                            + " during start-up; last lines of " + logFile + ":\n" + tail);
                }
                try {
                    int nodes = admin.describeCluster(new DescribeClusterOptions()
                                    .timeoutMs((int) READY_PROBE_TIMEOUT.toMillis()))
                            .nodes().get(READY_PROBE_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS).size();
                    if (nodes > 0) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // Not up yet: probe again until the deadline.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new BrokerException("interrupted while waiting for the embedded broker");
                }
                if (System.nanoTime() > deadline) {
                    throw new BrokerException("embedded broker not ready after " + timeout.toSeconds()
                            + " s; last lines of " + logFile + ":\n" + logTail(logFile));
                }
                sleep(100);
            }
        }
    }

    private boolean acceptsConnections() {
        int colon = bootstrapServers.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(bootstrapServers.substring(0, colon),
                    Integer.parseInt(bootstrapServers.substring(colon + 1))), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void writeServerProperties(Path file, Path dataDir, int brokerPort, int controllerPort) {
        List<String> lines = List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                "log.dirs=" + dataDir.toAbsolutePath(),
                "num.partitions=1",
                "default.replication.factor=1",
                "min.insync.replicas=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=4",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=4",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                "log.flush.interval.messages=9223372036854775807",
                "log.retention.hours=-1");
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BrokerException("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static void runFormat(Workspace workspace, Path serverProperties, String clusterId, Path logFile) {
        try {
            Process format = workspace.launch(javaCommand("kafka.tools.StorageTool", "format", "--standalone",
                    "--cluster-id", clusterId, "--config", serverProperties.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())));
            if (!format.waitFor(FORMAT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                format.destroyForcibly();
                throw new BrokerException("formatting the broker storage took longer than "
                        + FORMAT_TIMEOUT.toSeconds() + " s");
            }
            if (format.exitValue() != 0) {
                throw new BrokerException("formatting the broker storage failed (exit " + format.exitValue()
                        + "); last lines of " + logFile + ":\n" + logTail(logFile));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while formatting the broker storage");
        }
    }

    private static ProcessBuilder javaCommand(String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    /**
     * The broker (kafka_2.13 and Scala) ships in target/gda-streams.jar only; the slim gda-streams-service.jar runs
     * {@code train} and {@code score} against a cluster and refuses to start a broker with a clear message.
     */
    static void requireBrokerClasses() {
        try {
            Class.forName("kafka.Kafka", false, EmbeddedBroker.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new UserError("this jar has no embedded broker (gda-streams-service.jar runs train and score "
                    + "against a cluster): run demo, and replay or bench without --bootstrap-servers, with "
                    + "gda-streams.jar");
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new BrokerException("cannot find a free local port: " + e.getMessage());
        }
    }

    /** The last lines of the broker log, for error messages. */
    static String logTail(Path logFile) {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(broker log unreadable: " + e.getMessage() + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while waiting for the embedded broker");
        }
    }

    private static void deleteChildren(Path directory) {
        try (Stream<Path> children = Files.list(directory)) {
            children.forEach(Directories::deleteQuietly);
        } catch (IOException e) {
            throw new BrokerException("cannot clean " + directory + ": " + e.getMessage());
        }
    }

    /** The embedded broker could not be started; the message carries the tail of the broker log. */
    public static final class BrokerException extends RuntimeException {
        public BrokerException(String message) {
            super(message);
        }
    }

    private static final class PortTakenException extends RuntimeException {
        PortTakenException() {
            super(": a port was taken by another process");
        }
    }
}
