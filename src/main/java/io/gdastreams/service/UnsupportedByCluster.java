package io.gdastreams.service;

import io.gdastreams.config.Role;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * A Kafka Streams failure that the cluster's Kafka version causes, not a passing fault: a setting asks for
 * something the brokers do not offer ({@code group.protocol=streams} on a cluster before Kafka Streams' own group
 * protocol, seen on Kafka 3.9.1, 4.0.2 and 4.1.2: {@code UnsupportedVersionException} at every start). Starting the
 * client again would only repeat it, with a stack trace each time, so the service ends once it failed so twice in a
 * row (once may be a broker of a rolling upgrade that is behind the others).
 */
final class UnsupportedByCluster {

    private static final String STREAMS_PROTOCOL = "STREAMS group protocol";

    private UnsupportedByCluster() {
    }

    /** Whether {@code failure} comes from a request the cluster does not support. */
    static boolean matches(Throwable failure) {
        return StreamsApp.causeOfType(failure, UnsupportedVersionException.class) != null;
    }

    /** The one line the service ends with: what the cluster refused and which setting asked for it. */
    static String refusal(Role role, Throwable failure) {
        String root = StreamsApp.rootMessage(failure);
        String hint = root.contains(STREAMS_PROTOCOL)
                ? "group.protocol=streams needs brokers that offer Kafka Streams' own group protocol (Kafka 4.2"
                        + " and later do): remove the key to use the classic protocol"
                : "a setting asks for a feature of a newer Kafka than the cluster's: remove it or upgrade the brokers";
        return role + ": the Kafka cluster does not support what this client asks of it (twice in a row: " + root
                + "); " + hint + " (README, \"Which brokers\")";
    }
}
