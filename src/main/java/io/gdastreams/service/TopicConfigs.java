package io.gdastreams.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * The settings of topics as the cluster describes them (each with its source: set on the topic, on the broker, or
 * Kafka's default), for the warnings a service gives at start about the topics it reads.
 */
final class TopicConfigs {

    /**
     * What the cluster said: the settings of the topics it described, and the topics whose settings the principal
     * may not see (no DESCRIBE_CONFIGS: READ and WRITE do not imply it), of which the start can say nothing.
     */
    record Described(Map<String, Config> configs, List<String> refused) {

        /** The note for {@link #refused}, empty when there is none. */
        Optional<String> refusalNote() {
            if (refused.isEmpty()) {
                return Optional.empty();
            }
            boolean one = refused.size() == 1;
            return Optional.of("no DESCRIBE_CONFIGS on topic" + (one ? " " : "s ") + String.join(", ", refused)
                    + ", so the start cannot check " + (one ? "its" : "their") + " settings (a model topic that"
                    + " deletes models, no bound on a record's decompressed size); grant it to see such warnings"
                    + " (docs/SECURITY.md, \"ACLs per role\")");
        }
    }

    private TopicConfigs() {
    }

    /**
     * The settings of {@code topics}, asked through {@code client} in one request; empty when the cluster does not
     * answer within {@code timeout}: then there is nothing to warn about. A topic refused alone leaves the others'.
     */
    static Optional<Described> describe(Properties client, Collection<String> topics, Duration timeout) {
        Admin admin = Admin.create(client);
        try {
            List<ConfigResource> resources = topics.stream().distinct()
                    .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic)).toList();
            Map<ConfigResource, KafkaFuture<Config>> answers = admin.describeConfigs(resources).values();
            long deadline = System.nanoTime() + timeout.toNanos();
            Map<String, Config> configs = new LinkedHashMap<>();
            List<String> refused = new ArrayList<>();
            for (ConfigResource resource : resources) {
                try {
                    configs.put(resource.name(), answers.get(resource).get(
                            Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicAuthorizationException) {
                        refused.add(resource.name());
                    } // another refusal (a topic gone, say) has its own check: nothing to say here
                }
            }
            return Optional.of(new Described(configs, refused));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (TimeoutException | RuntimeException e) {
            return Optional.empty(); // no answer: nothing to say
        } finally {
            admin.close(Duration.ZERO);
        }
    }
}
