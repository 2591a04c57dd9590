package io.gdastreams.cli;

import java.util.Optional;
import org.apache.kafka.common.KafkaException;

/**
 * A Kafka client that cannot even be made is refused by its settings: a {@code sasl.jaas.config} without its
 * {@code required} flag, its closing ';' or a known login module, a SASL mechanism with no JAAS configuration at
 * all, a keystore or truststore that cannot be read. Kafka says so in a {@link KafkaException} "Failed to create new
 * KafkaAdminClient" (or "Failed to construct kafka consumer/producer") around the reason; that is a configuration
 * mistake for the user to fix (exit code 2, one line), not an unexpected error with a stack trace. The reason is
 * Kafka's parser's, which names keys and tokens but not the values of secrets.
 */
final class KafkaClientSettings {

    private KafkaClientSettings() {
    }

    /** The one line for {@code failure} when it is a Kafka client refused at construction; else empty. */
    static Optional<String> refusal(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof KafkaException && t.getMessage() != null && (t.getMessage().startsWith("Failed to create"
                    + " new KafkaAdminClient") || t.getMessage().startsWith("Failed to construct kafka"))) {
                Throwable root = t;
                while (root.getCause() != null && root.getCause() != root) {
                    root = root.getCause();
                }
                String reason = root == t ? t.getMessage() : root.getClass().getSimpleName()
                        + (root.getMessage() == null ? "" : ": " + root.getMessage());
                // No host of bootstrap.servers resolves (a typo, no DNS): the other keys are not to blame.
                String check = reason.contains("No resolvable bootstrap urls") ? "check the host names of"
                        + " bootstrap.servers and that this machine can resolve them"
                        : "check security.protocol, sasl.mechanism, sasl.jaas.config and the ssl.* settings";
                return Optional.of("cannot make a Kafka client with these settings: " + reason.strip() + " ("
                        + check + ")");
            }
        }
        return Optional.empty();
    }
}
