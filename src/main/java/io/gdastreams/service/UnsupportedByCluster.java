package io.gdastreams.service;

import io.gdastreams.config.Role;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * A Kafka Streams failure that the cluster's Kafka version causes, not a passing fault: a setting asks for
 * something the brokers do not offer ({@code group.protocol=streams} on a cluster before Kafka Streams' own group
 * protocol, seen on Kafka 3.9.1, 4.0.2 and 4.1.2: {@code UnsupportedVersionException} at every start). Starting the
 * client again would only repeat it, with a stack trace each time, so the service ends once it failed so twice in a
 * row (once may be a broker of a rolling upgrade that is behind the others).
 */
final class UnsupportedByCluster {

    private static final String STREAMS_PROTOCOL = "STREAMS group protocol";
    /** The brokers' feature that says they offer Kafka Streams' own group protocol (KIP-1071). */
    private static final String STREAMS_FEATURE = "streams.version";
    private static final String STREAMS_HINT = "group.protocol=streams needs brokers that offer Kafka Streams' own"
            + " group protocol (Kafka 4.2 and later do): remove the key to use the classic protocol";

    private UnsupportedByCluster() {
    }

    /** Whether {@code failure} comes from a request the cluster does not support. */
    static boolean matches(Throwable failure) {
        return StreamsApp.causeOfType(failure, UnsupportedVersionException.class) != null;
    }

    /** The one line the service ends with: what the cluster refused and which setting asked for it. */
    static String refusal(Role role, Throwable failure) {
        String root = StreamsApp.rootMessage(failure);
        String hint = root.contains(STREAMS_PROTOCOL) ? STREAMS_HINT
                : "a setting asks for a feature of a newer Kafka than the cluster's: remove it or upgrade the brokers";
        return role + ": the Kafka cluster does not support what this client asks of it (twice in a row: " + root
                + "); " + hint + " (README, \"Which brokers\")";
    }

    /**
     * Before anything starts: {@code group.protocol=streams} (in {@code streams}, Kafka Streams' settings) on a cluster
     * that does not offer that protocol ends the command at once, in one line, rather than after two clients failed
     * with Kafka's stack traces. The brokers say so by their finalized feature {@code streams.version}: absent or 0
     * (not enabled) where the protocol is not offered (seen on 3.9.1, 4.0.2, 4.1.2), 1 or more where it is (4.2.2,
     * 4.3.1, 4.4.0). Empty when another protocol is asked for, when the feature is on, and when the cluster does not
     * answer in {@code timeout} (then a failing client says it, {@link #matches}).
     */
    static Optional<String> atStart(Role role, Properties streams, Properties client, Duration timeout) {
        if (!"streams".equalsIgnoreCase(streams.getProperty(StreamsConfig.GROUP_PROTOCOL_CONFIG, "").trim())) {
            return Optional.empty();
        }
        Admin admin = Admin.create(client);
        try {
            FinalizedVersionRange level = admin.describeFeatures().featureMetadata()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).finalizedFeatures().get(STREAMS_FEATURE);
            if (level != null && level.maxVersionLevel() >= 1) {
                return Optional.empty();
            }
            return Optional.of(role + ": the Kafka cluster does not offer Kafka Streams' own group protocol (its"
                    + " brokers have not enabled the feature " + STREAMS_FEATURE + "); " + STREAMS_HINT
                    + " (README, \"Which brokers\")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return Optional.empty(); // no answer: the client's own failure will say it
        } finally {
            // Not close(): it would wait for a request that went unanswered.
            admin.close(Duration.ZERO);
        }
    }
}
