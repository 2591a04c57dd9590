package io.gdastreams.service;

import io.gdastreams.lifecycle.RunFailure;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Asks the cluster for its id before a service starts, so that a wrong or unreachable {@code bootstrap.servers}
 * ends the run within {@code gda.broker.timeout.ms} with a message that names it, instead of Kafka Streams
 * retrying without end and logging warnings. Only at start-up: a broker lost later is Kafka Streams' to wait for
 * (docs/RELIABILITY.md).
 */
public final class ClusterProbe {

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
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        Admin admin = Admin.create(properties);
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis)).clusterId()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
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
}
