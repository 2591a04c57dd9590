package io.gdastreams.service;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.settings.AppConfig;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;

/** The configured topics, created when missing before an application starts. */
public final class ConfiguredTopics {

    private ConfiguredTopics() {
    }

    /**
     * Creates the topics of {@code config} that do not exist yet, through an admin client built from
     * {@code adminProperties} (which name the bootstrap servers); a cluster that refuses is a {@link RunFailure}.
     */
    public static void createMissing(AppConfig config, Properties adminProperties) {
        try (Admin admin = Admin.create(adminProperties)) {
            TopicProvisioner.ensure(admin, TopicProvisioner.plan(config.topics(), config.partitions(),
                    config.replicationFactor()));
        } catch (IllegalStateException e) {
            throw new RunFailure(e.getMessage(), e);
        }
    }
}
