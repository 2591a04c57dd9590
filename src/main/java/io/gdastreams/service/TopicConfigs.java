package io.gdastreams.service;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The settings of topics as the cluster describes them (each with its source: set on the topic, on the broker, or
 * Kafka's default), for the warnings a service gives at start about the topics it reads.
 */
final class TopicConfigs {

    private TopicConfigs() {
    }

    /**
     * The settings of {@code topics} by name, asked through {@code client} in one request; empty when the cluster does
     * not answer within {@code timeout} or refuses (no DESCRIBE_CONFIGS): then there is nothing to warn about.
     */
    static Optional<Map<String, Config>> describe(Properties client, Collection<String> topics, Duration timeout) {
        Admin admin = Admin.create(client);
        try {
            List<ConfigResource> resources = topics.stream().distinct()
                    .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic)).toList();
            Map<ConfigResource, Config> described = admin.describeConfigs(resources).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, Config> configs = new LinkedHashMap<>();
            described.forEach((resource, config) -> configs.put(resource.name(), config));
            return Optional.of(configs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception e) {
            return Optional.empty(); // no answer or no permission to describe the settings: nothing to say
        } finally {
            admin.close(Duration.ZERO);
        }
    }
}
