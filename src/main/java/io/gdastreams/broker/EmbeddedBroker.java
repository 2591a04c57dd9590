package io.gdastreams.broker;

import io.gdastreams.broker.BrokerReadiness.PortTakenException;
import io.gdastreams.lifecycle.ShutdownSequence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Apache Kafka (KRaft, combined broker + controller) in a separate JVM, started from our own
 * class path: {@code kafka.tools.StorageTool format --standalone}, then {@code kafka.Kafka server.properties}.
 * It listens on 127.0.0.1 only, on free ports; data and the broker log live in a temporary directory that is
 * deleted on {@link #close()} (also on Ctrl-C, through a shutdown hook).
 *
 * <p>The parts: {@link BrokerLauncher} makes the JVMs (configuration, storage format, launch),
 * {@link BrokerReadiness} waits until the broker answers, {@link BrokerWorkspace} owns the directory, the current
 * child JVM and the shutdown hook, {@link BrokerProcesses} stops and signals it. This class sequences them.
 *
 * <p>The package-private {@link #pause()}, {@link #resume()} and {@link #killAndRestart(Duration)} exist for the
 * fault-injection tests only (reached through a test-side wrapper); the commands never call them.
 */
public final class EmbeddedBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(90);
    private static final int START_ATTEMPTS = 3;
    private static final Duration RESTART_PORT_RETRY = Duration.ofSeconds(1);

    private final BrokerWorkspace workspace;
    private final Path logFile;
    private final Path serverProperties;
    private final String bootstrapServers;
    /** The broker JVM; replaced by {@link #killAndRestart(Duration)}. */
    private volatile Process process;

    private EmbeddedBroker(BrokerWorkspace workspace, Path logFile, Path serverProperties, String bootstrapServers,
                           Process process) {
        this.workspace = workspace;
        this.logFile = logFile;
        this.serverProperties = serverProperties;
        this.bootstrapServers = bootstrapServers;
        this.process = process;
    }

    /** Starts a broker and waits (at most {@code timeout}) until an AdminClient sees it. */
    public static EmbeddedBroker start(Duration timeout) {
        return start(timeout, List.of());
    }

    /**
     * As {@link #start(Duration)}, the broker JVM's command line preceded by {@code launchPrefix} (the bench's
     * {@code taskset -c CPUS}).
     */
    public static EmbeddedBroker start(Duration timeout, List<String> launchPrefix) {
        return start(timeout, launchPrefix, Map.of());
    }

    /**
     * As {@link #start(Duration, List)}, with {@code overrides} in the broker's {@code server.properties} in place of
     * (or beside) its defaults: what a test needs of a broker that the product's does not do (Kafka's own retention
     * checks, say). The listeners and the directories are not to be overridden.
     */
    public static EmbeddedBroker start(Duration timeout, List<String> launchPrefix, Map<String, String> overrides) {
        return start(timeout, launchPrefix, overrides, Map.of());
    }

    /**
     * As {@link #start(Duration, List, Map)}, its readiness asked with {@code client} settings: the security of a
     * listener the overrides made (SASL, say).
     */
    public static EmbeddedBroker start(Duration timeout, List<String> launchPrefix, Map<String, String> overrides,
                                       Map<String, String> client) {
        BrokerLauncher.requireBrokerClasses();
        BrokerWorkspace.deleteStaleDirectories();
        BrokerWorkspace workspace = new BrokerWorkspace();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return startIn(workspace, timeout, launchPrefix, overrides, client);
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

    /**
     * Refuses (a {@code UserError} saying which jar has one) when this jar has no embedded broker: called before a
     * command announces that it starts one.
     */
    public static void requireAvailable() {
        BrokerLauncher.requireBrokerClasses();
    }

    /**
     * A broker on {@code port} whose data lives in {@code dataDir} and is kept when it stops ({@code broker
     * --data-dir}): started again on the same directory it has every topic, offset and committed record of the
     * previous run. {@code dataDir} null: a temporary directory, deleted on exit, as for {@link #start}. A port
     * already in use is a BrokerException naming it.
     */
    public static EmbeddedBroker startAt(int port, Path dataDir, Duration timeout) {
        BrokerLauncher.requireBrokerClasses();
        BrokerWorkspace.deleteStaleDirectories();
        if (!BrokerLauncher.canListenOn(port)) {
            // Checked first: a broker already there would answer the readiness probe for the one that cannot bind.
            throw new BrokerException("port " + port + " on 127.0.0.1 is in use: stop what listens there or choose"
                    + " another --port");
        }
        BrokerWorkspace workspace = dataDir == null ? new BrokerWorkspace() : new BrokerWorkspace(dataDir);
        try {
            Path directory = workspace.directory();
            Path logFile = directory.resolve("broker.log");
            Path serverProperties = directory.resolve("server.properties");
            String bootstrap = BrokerLauncher.configureKept(workspace, serverProperties,
                    directory.resolve(BrokerWorkspace.DATA), logFile, port);
            for (int attempt = 1; ; attempt++) {
                long logFrom = BrokerReadiness.logSize(logFile);
                Process process = BrokerLauncher.launch(workspace, serverProperties, logFile);
                try {
                    BrokerReadiness.await(process, bootstrap, logFile, logFrom, timeout);
                    return new EmbeddedBroker(workspace, logFile, serverProperties, bootstrap, process);
                } catch (PortTakenException e) {
                    BrokerProcesses.stop(process);
                    // A kept directory's ports cannot change; a short-lived holder (a connection) can be waited out.
                    if (attempt == START_ATTEMPTS) {
                        throw new BrokerException(portTaken(e.port(), port,
                                BrokerLauncher.controllerPort(serverProperties), directory));
                    }
                    LOG.info("broker port {} taken; retrying on the same ports", e.port());
                    BrokerProcesses.sleep(RESTART_PORT_RETRY.toMillis());
                } catch (RuntimeException e) {
                    BrokerProcesses.stop(process);
                    throw e;
                }
            }
        } catch (RuntimeException e) {
            workspace.close();
            throw e;
        }
    }

    /** Why a broker on {@code port} with {@code controllerPort} in {@code directory} could not start. */
    static String portTaken(int taken, int port, int controllerPort, Path directory) {
        if (taken == controllerPort) {
            return "the controller port " + controllerPort + " of the broker in " + directory + " is in use by another"
                    + " process (it was chosen when the directory was formatted, and must stay the same): `ss -tanp |"
                    + " grep :" + controllerPort + "` shows who holds it; start the broker again once it is free";
        }
        return "port " + (taken < 0 ? port + " (or the controller's, " + controllerPort + ")" : taken) + " on 127.0.0.1"
                + " is in use by another process: stop what holds it or choose another --port";
    }

    /** The directory of the broker's data and log (deleted on exit unless it was given to {@link #startAt}). */
    public Path directory() {
        return workspace.directory();
    }

    /** Whether the data outlives this process. */
    public boolean keepsData() {
        return workspace.kept();
    }

    private static EmbeddedBroker startIn(BrokerWorkspace workspace, Duration timeout, List<String> launchPrefix,
                                          Map<String, String> overrides, Map<String, String> client) {
        Path directory = workspace.directory();
        workspace.clear();
        Path logFile = directory.resolve("broker.log");
        Path serverProperties = directory.resolve("server.properties");
        String bootstrap = BrokerLauncher.configureAndFormat(workspace, serverProperties,
                directory.resolve(BrokerWorkspace.DATA), logFile, overrides);
        long logFrom = BrokerReadiness.logSize(logFile);
        Process process = BrokerLauncher.launch(workspace, serverProperties, logFile, launchPrefix);
        try {
            BrokerReadiness.await(process, bootstrap, logFile, logFrom, timeout, client);
        } catch (RuntimeException e) {
            BrokerProcesses.stop(process);
            throw e;
        }
        LOG.debug("embedded broker ready at {} (data and log in {})", bootstrap, directory);
        return new EmbeddedBroker(workspace, logFile, serverProperties, bootstrap, process);
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
    public long pid() {
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
        workspace.kill(process);
        for (int attempt = 1; ; attempt++) {
            long logFrom = BrokerReadiness.logSize(logFile);
            process = BrokerLauncher.launch(workspace, serverProperties, logFile);
            try {
                BrokerReadiness.await(process, bootstrapServers, logFile, logFrom, timeout);
                LOG.debug("embedded broker restarted at {} (pid {})", bootstrapServers, process.pid());
                return;
            } catch (PortTakenException e) {
                // The ports must stay the same for the clients; only a short-lived holder can be waited out.
                if (attempt == START_ATTEMPTS) {
                    throw new BrokerException("restarted broker could not bind its ports " + bootstrapServers
                            + " after " + START_ATTEMPTS + " attempts" + e.getMessage());
                }
                LOG.info("broker port still taken after the kill; retrying on the same ports");
                BrokerProcesses.sleep(RESTART_PORT_RETRY.toMillis());
            } catch (RuntimeException e) {
                BrokerProcesses.stop(process);
                throw e;
            }
        }
    }

    /**
     * Hands the Ctrl-C clean-up of this broker to {@code sequence}, so that it stops after the applications
     * registered later (which need it to close cleanly) instead of concurrently with them.
     */
    public EmbeddedBroker registerWith(ShutdownSequence sequence) {
        sequence.register(this);
        workspace.removeHook();
        return this;
    }

    /** Stops the broker (SIGTERM, then SIGKILL after a grace period) and deletes its directory. Idempotent. */
    @Override
    public void close() {
        workspace.close();
    }

    /** The embedded broker could not be started; the message carries the tail of the broker log. */
    public static final class BrokerException extends RuntimeException {
        public BrokerException(String message) {
            super(message);
        }
    }
}
