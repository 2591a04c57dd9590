package io.gdastreams.broker;

import io.gdastreams.broker.EmbeddedBroker.BrokerException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Whether a just-launched broker JVM is up: its listener accepts connections and an AdminClient sees a node.
 * A broker that exits first is reported with the tail of its log, or as {@link PortTakenException} when a port
 * it was given was taken in the meantime (the caller retries).
 */
final class BrokerReadiness {

    private static final Duration READY_PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final int LOG_TAIL_LINES = 25;
    private static final Pattern BIND_FAILURE = Pattern.compile("failed to bind to [^\\s]*:(\\d+)");

    private BrokerReadiness() {
    }

    /**
     * Returns once the broker at {@code bootstrapServers} answers; throws when it exits or {@code timeout} ends.
     * {@code logFrom}: the size of {@code logFile} before this launch (the log of a kept directory grows across
     * starts), where a port it could not bind is looked for.
     */
    static void await(Process process, String bootstrapServers, Path logFile, long logFrom, Duration timeout) {
        await(process, bootstrapServers, logFile, logFrom, timeout, Map.of());
    }

    /** As above, the probe's client with {@code client} settings (a secured listener's). */
    static void await(Process process, String bootstrapServers, Path logFile, long logFrom, Duration timeout,
                      Map<String, String> client) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> adminConfig = new java.util.HashMap<>(client);
        adminConfig.putAll(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) READY_PROBE_TIMEOUT.toMillis(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READY_PROBE_TIMEOUT.toMillis(),
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200));
        // Wait for the listener socket first: an AdminClient polling a closed port logs a warning per attempt.
        while (!acceptsConnections(bootstrapServers)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                break;
            }
            BrokerProcesses.sleep(100);
        }
        try (Admin admin = Admin.create(adminConfig)) {
            while (true) {
                if (!process.isAlive()) {
                    String tail = logTail(logFile);
                    OptionalInt taken = takenPort(logFile, logFrom);
                    if (taken.isPresent()) {
                        throw new PortTakenException(taken.getAsInt());
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
                BrokerProcesses.sleep(100);
            }
        }
    }

    private static boolean acceptsConnections(String bootstrapServers) {
        int colon = bootstrapServers.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(bootstrapServers.substring(0, colon),
                    Integer.parseInt(bootstrapServers.substring(colon + 1))), 500);
            return true;
        } catch (IOException e) {
            return false;
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

    /** The size of {@code logFile} now (0 when there is none yet): where the next launch's lines begin. */
    static long logSize(Path logFile) {
        try {
            return Files.exists(logFile) ? Files.size(logFile) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * The port the broker could not bind, from its log after {@code from} ({@code Socket server failed to bind to
     * 127.0.0.1:43977: Address already in use}): the whole of it, as the line may be hundreds of lines before the
     * end (a kept directory's metadata is replayed after it). −1 when the line names no port.
     */
    static OptionalInt takenPort(Path logFile, long from) {
        try (SeekableByteChannel channel = Files.newByteChannel(logFile)) {
            channel.position(Math.min(from, channel.size()));
            String log = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
            if (!log.contains("Address already in use")) {
                return OptionalInt.empty();
            }
            Matcher bind = BIND_FAILURE.matcher(log);
            return OptionalInt.of(bind.find() ? Integer.parseInt(bind.group(1)) : -1);
        } catch (IOException | UncheckedIOException e) {
            return OptionalInt.empty();
        }
    }

    /** The broker exited because one of its ports was taken between choosing it and binding it. */
    static final class PortTakenException extends RuntimeException {

        private final int port;

        PortTakenException(int port) {
            super(port < 0 ? ": a port was taken by another process" : ": port " + port
                    + " was taken by another process");
            this.port = port;
        }

        /** The port taken; −1 when the broker's log did not say. */
        int port() {
            return port;
        }
    }
}
