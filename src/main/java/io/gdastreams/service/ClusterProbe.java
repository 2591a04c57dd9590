package io.gdastreams.service;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the cluster for its id before a service starts, so that a wrong or unreachable {@code bootstrap.servers}
 * ends the run within {@code gda.broker.timeout.ms} with a message that names it, instead of Kafka Streams
 * retrying without end and logging warnings. Only at start-up: a broker lost later is Kafka Streams' to wait for
 * (docs/RELIABILITY.md).
 */
public final class ClusterProbe {

    /** Between two rounds of connection attempts while nothing listens. */
    private static final Duration RETRY = Duration.ofMillis(250);
    /** The longest wait for one TCP connection (a host that drops packets). */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** The shortest: a refusal on the loopback takes well under a millisecond, a LAN's a few. */
    private static final Duration CONNECT_FLOOR = Duration.ofMillis(200);
    private static final int MAX_PORT = 65_535;
    private static final Logger LOG = LoggerFactory.getLogger(ClusterProbe.class);

    private ClusterProbe() {
    }

    /**
     * Returns when the cluster at {@code bootstrap} answers within {@code timeout} (the client settings of
     * {@code clientProperties}: security and the like); otherwise throws {@link RunFailure}.
     */
    static void awaitReachable(String bootstrap, Properties clientProperties, Duration timeout) {
        awaitReachable(bootstrap, clientProperties, timeout, "gda.broker.timeout.ms");
    }

    /** As {@link #awaitReachable(String, Properties, Duration)}, the timeout named {@code timeoutSetting}. */
    public static void awaitReachable(String bootstrap, Properties clientProperties, Duration timeout,
                                      String timeoutSetting) {
        long deadline = System.nanoTime() + timeout.toNanos();
        awaitListener(bootstrap, timeout, timeoutSetting, deadline);
        Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(1)));
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        int millis = (int) Math.min(Integer.MAX_VALUE, left.toMillis());
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        Admin admin = Admin.create(properties);
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis)).clusterId()
                    .get(left.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new RunFailure("cannot reach the Kafka cluster at " + bootstrap + " within " + timeout.toMillis()
                    + " ms (" + timeoutSetting + "): " + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage())
                    + "; check bootstrap.servers and that the brokers are up", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while reaching the Kafka cluster at " + bootstrap, e);
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /**
     * Returns once one of the bootstrap addresses accepts a TCP connection, trying them all every {@link #RETRY}
     * (a last round at the deadline); throws {@link RunFailure} at {@code deadline}. Without a Kafka client: its
     * network client logs a WARN for every refused attempt, a screenful before the failure's one line when nothing
     * listens. Host names are looked up once, first: when none resolves the run ends here as a setting to fix
     * ({@link UserError}, exit 2, naming them), as the Kafka client would refuse it; when some do not, one warning
     * names them and the others are tried (Kafka's own warning for them is off: simplelogger.properties). What else
     * the Kafka client refuses as a setting at once (an address it cannot parse, a port outside 1…65535) is left to
     * it, so that it is refused as before. A name lookup itself is not bounded by the deadline (the resolver's own
     * timeout applies).
     */
    private static void awaitListener(String bootstrap, Duration timeout, String timeoutSetting, long deadline) {
        List<String> addresses = Arrays.stream(bootstrap.split(",")).map(String::trim).filter(a -> !a.isEmpty())
                .toList();
        Map<String, InetAddress[]> resolved = new LinkedHashMap<>();
        List<String> unresolved = new ArrayList<>();
        for (String address : addresses) {
            String host = Utils.getHost(address);
            Integer port = Utils.getPort(address);
            if (host == null || port == null || port < 1 || port > MAX_PORT) {
                return;
            }
            try {
                resolved.put(address, InetAddress.getAllByName(host));
            } catch (UnknownHostException e) {
                unresolved.add(address);
            }
        }
        if (resolved.isEmpty() && !unresolved.isEmpty()) {
            throw new UserError("no host of bootstrap.servers resolves (" + String.join(", ", unresolved)
                    + "): check the host names and that this machine can resolve them");
        }
        if (!unresolved.isEmpty()) {
            LOG.warn("bootstrap.servers: {} {} not resolve; the Kafka clients use the other servers",
                    String.join(", ", unresolved), unresolved.size() == 1 ? "does" : "do");
        }
        String last = null;
        while (!resolved.isEmpty()) {
            for (Map.Entry<String, InetAddress[]> entry : resolved.entrySet()) {
                String address = entry.getKey();
                int port = Utils.getPort(address);
                // Every address of the name, as Kafka's clients try them (client.dns.lookup=use_all_dns_ips).
                for (InetAddress ip : entry.getValue()) {
                    try (Socket socket = new Socket()) {
                        // At least CONNECT_FLOOR, so that the last round at the deadline still hears a refusal.
                        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                        socket.connect(new InetSocketAddress(ip, port), (int) Math.max(CONNECT_FLOOR.toMillis(),
                                Math.min(left, CONNECT_TIMEOUT.toMillis())));
                        return;
                    } catch (IOException e) {
                        last = address + ": " + (e.getMessage() != null ? e.getMessage()
                                : e.getClass().getSimpleName());
                    }
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new RunFailure("cannot reach the Kafka cluster at " + bootstrap + " within "
                        + timeout.toMillis() + " ms (" + timeoutSetting + "): no broker accepted a connection ("
                        + last + "); check bootstrap.servers and that the brokers are up");
            }
            try {
                Thread.sleep(Math.max(1, Math.min(RETRY.toMillis(), TimeUnit.NANOSECONDS.toMillis(left))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RunFailure("interrupted while reaching the Kafka cluster at " + bootstrap, e);
            }
        }
    }
}
