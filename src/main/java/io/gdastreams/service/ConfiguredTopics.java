package io.gdastreams.service;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.TrainingTopology;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.StreamsConfig;

/** The configured topics, created when missing before an application starts. */
public final class ConfiguredTopics {

    private ConfiguredTopics() {
    }

    /**
     * Creates the topics of {@code config} that do not exist yet, through an admin client built from
     * {@code adminProperties} (which name the bootstrap servers); a cluster that refuses is a {@link RunFailure}.
     */
    public static void createMissing(AppConfig config, Properties adminProperties) {
        createMissing(config, adminProperties, Map.of());
    }

    /** As {@link #createMissing(AppConfig, Properties)}, the event topics with {@code eventTopicConfig}. */
    public static void createMissing(AppConfig config, Properties adminProperties,
                                     Map<String, String> eventTopicConfig) {
        try (Admin admin = Admin.create(adminProperties)) {
            TopicProvisioner.ensure(admin, TopicProvisioner.plan(config.topics(), config.partitions(),
                    config.replicationFactor(), eventTopicConfig));
        } catch (IllegalStateException e) {
            throw new RunFailure(e.getMessage(), e);
        }
    }

    /**
     * Creates the internal topic of the training application ({@link TrainingTopology#partials}) when it is
     * missing, before Kafka Streams starts, with the settings Kafka Streams gives a repartition topic. Left to
     * Kafka Streams, it is created during the first rebalance, after the stream thread's consumer has subscribed
     * to it: every metadata answer in between logs a WARN (UNKNOWN_TOPIC_OR_PARTITION) at a normal first start.
     * {@code streams}: the training application's Kafka Streams properties (application id, replication factor).
     */
    public static void createTrainingInternalMissing(Properties streams, Properties adminProperties) {
        String applicationId = streams.getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
        try (Admin admin = Admin.create(adminProperties)) {
            TopicProvisioner.ensure(admin, List.of(TopicProvisioner.repartitionTopic(
                    TrainingTopology.partials(applicationId).name(), streams)));
        } catch (IllegalStateException e) {
            throw new RunFailure(e.getMessage(), e);
        }
    }
}
