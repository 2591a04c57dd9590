package io.gdastreams.broker;

import io.gdastreams.broker.EmbeddedBroker.BrokerException;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.UserError;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;

/**
 * How the embedded broker's JVMs are made: the KRaft configuration (one node, broker and controller, 127.0.0.1
 * on free ports), {@code kafka.tools.StorageTool format --standalone}, then {@code kafka.Kafka server.properties}
 * through {@link BrokerChildMain}, each a child JVM on our own class path whose output goes to the broker log.
 */
final class BrokerLauncher {

    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> JVM_OPTIONS = List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC",
            // C1 only: the demo's broker lives for seconds; C2 compilation would cost more CPU than it saves
            // (measured: demo CPU time 16 s -> 10.5 s on 2 cores).
            "-XX:TieredStopAtLevel=1",
            "-Djava.awt.headless=true",
            // The broker's own log goes to the log file; keep it informative for diagnosing start failures.
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
            "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=info",
            // The transaction coordinator says at INFO when it skips a partition's marker (KAFKA-20734, see
            // docs/RELIABILITY.md); the CLI's own settings keep the kafka.* loggers at WARN.
            "-Dorg.slf4j.simpleLogger.log.kafka.coordinator.transaction=info",
            "-Dorg.slf4j.simpleLogger.showDateTime=true",
            "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");

    private BrokerLauncher() {
    }

    /**
     * The broker (kafka_2.13 and Scala) ships in target/gda-streams.jar only; the slim gda-streams-service.jar runs
     * {@code train} and {@code score} against a cluster and refuses to start a broker with a clear message.
     */
    static void requireBrokerClasses() {
        try {
            Class.forName("kafka.Kafka", false, BrokerLauncher.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new UserError("this jar has no embedded broker (gda-streams-service.jar runs train and score "
                    + "against a cluster): run demo and broker, and replay or bench without --bootstrap-servers, "
                    + "with gda-streams.jar");
        }
    }

    /**
     * Writes {@code serverProperties} for two free local ports and formats the storage below {@code dataDir};
     * returns the bootstrap address.
     */
    static String configureAndFormat(BrokerWorkspace workspace, Path serverProperties, Path dataDir, Path logFile,
                                     Map<String, String> overrides) {
        int brokerPort = LocalPorts.free(-1);
        int controllerPort = LocalPorts.free(brokerPort);
        writeServerProperties(serverProperties, dataDir, brokerPort, controllerPort, overrides);
        format(workspace, serverProperties, Uuid.randomUuid().toString(), logFile);
        return "127.0.0.1:" + brokerPort;
    }

    /**
     * The configuration of a broker whose data outlives it ({@code broker --data-dir}): the broker listens on
     * {@code brokerPort}; the controller keeps the port it was formatted with (the standalone quorum records its
     * voter's endpoint in the metadata log), read back from the previous {@code serverProperties}. Formats the
     * storage only when {@code dataDir} holds none yet. Returns the bootstrap address.
     */
    static String configureKept(BrokerWorkspace workspace, Path serverProperties, Path dataDir, Path logFile,
                                int brokerPort) {
        boolean formatted = Files.exists(dataDir.resolve("meta.properties"));
        int controllerPort = formatted ? controllerPort(serverProperties) : LocalPorts.free(brokerPort);
        if (controllerPort == brokerPort) {
            throw new BrokerException("port " + brokerPort + " is the controller port of the broker in " + dataDir
                    + " (recorded in " + serverProperties + " when it was formatted): choose another --port");
        }
        writeServerProperties(serverProperties, dataDir, brokerPort, controllerPort, Map.of());
        if (!formatted) {
            format(workspace, serverProperties, Uuid.randomUuid().toString(), logFile);
        }
        return "127.0.0.1:" + brokerPort;
    }

    /** The controller port recorded in {@code serverProperties}. */
    static int controllerPort(Path serverProperties) {
        java.util.Properties previous = new java.util.Properties();
        try (java.io.Reader in = Files.newBufferedReader(serverProperties, StandardCharsets.UTF_8)) {
            previous.load(in);
            String voters = previous.getProperty("controller.quorum.bootstrap.servers", "");
            return Integer.parseInt(voters.substring(voters.lastIndexOf(':') + 1).strip());
        } catch (IOException | RuntimeException e) {
            throw new BrokerException("the data directory holds a broker's data but no readable "
                    + serverProperties.getFileName() + " (its controller port): " + e.getMessage());
        }
    }

    /** Starts the broker JVM; its output is appended to {@code logFile}. */
    static Process launch(BrokerWorkspace workspace, Path serverProperties, Path logFile) {
        return launch(workspace, serverProperties, logFile, List.of());
    }

    /**
     * Starts the broker JVM under {@code prefix} (e.g. {@code taskset -c 0}, which execs java in place, so the
     * process is the JVM itself); its output is appended to {@code logFile}.
     */
    static Process launch(BrokerWorkspace workspace, Path serverProperties, Path logFile, List<String> prefix) {
        ProcessBuilder java = javaCommand(BrokerChildMain.class.getName(), serverProperties.toString());
        List<String> command = new ArrayList<>(prefix);
        command.addAll(java.command());
        return workspace.launch(java.command(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())));
    }

    static void writeServerProperties(Path file, Path dataDir, int brokerPort, int controllerPort,
                                      Map<String, String> overrides) {
        List<String> defaults = List.of(
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
        // An override replaces the default of its key, in place; a key without one is added at the end.
        Map<String, String> left = new java.util.LinkedHashMap<>(overrides);
        List<String> lines = new ArrayList<>();
        for (String line : defaults) {
            String key = line.substring(0, line.indexOf('='));
            String value = left.remove(key);
            lines.add(value == null ? line : key + "=" + value);
        }
        left.forEach((key, value) -> lines.add(key + "=" + value));
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BrokerException("cannot write " + file + ": " + FileProblem.reason(e));
        }
    }

    private static void format(BrokerWorkspace workspace, Path serverProperties, String clusterId, Path logFile) {
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
                        + "); last lines of " + logFile + ":\n" + BrokerReadiness.logTail(logFile));
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

    /** Whether a listener can bind 127.0.0.1:{@code port} now (nothing listens there). */
    static boolean canListenOn(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as a server binds: a closed connection's TIME_WAIT does not count
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
