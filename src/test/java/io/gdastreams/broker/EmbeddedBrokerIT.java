package io.gdastreams.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.service.TopicProvisioner;
import io.gdastreams.topology.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/** The embedded broker of demo/replay: a real broker in its own JVM, local only, cleaned up on close. */
class EmbeddedBrokerIT {

    @Test
    void shouldStartLocalBrokerCreateTopicsAndCleanUpOnClose() throws Exception {
        Path directory;
        try (EmbeddedBroker broker = EmbeddedBroker.start(EmbeddedBroker.DEFAULT_START_TIMEOUT)) {
            assertTrue(broker.bootstrapServers().startsWith("127.0.0.1:"), broker.bootstrapServers());
            directory = broker.logFile().getParent();
            assertTrue(Files.size(broker.logFile()) > 0);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    broker.bootstrapServers()))) {
                Topics topics = Topics.defaults();
                List<String> created = TopicProvisioner.ensure(admin, TopicProvisioner.plan(topics, 4, (short) -1));
                // The five event/model/output topics and model-metrics (prequential evaluation's).
                assertEquals(java.util.Set.of(topics.labelled().name(), topics.unlabelled().name(),
                        topics.model().name(), topics.predictions().name(), topics.deadLetters().name(),
                        topics.metrics().name()), java.util.Set.copyOf(created));
                assertEquals(List.of(), TopicProvisioner.ensure(admin, TopicProvisioner.plan(topics, 4, (short) -1)));
                Map<String, TopicDescription> described = admin.describeTopics(List.of(topics.labelled().name(),
                        topics.model().name())).allTopicNames().get(30, TimeUnit.SECONDS);
                assertEquals(4, described.get(topics.labelled().name()).partitions().size());
                assertEquals(1, described.get(topics.model().name()).partitions().size());
                ConfigResource model = new ConfigResource(ConfigResource.Type.TOPIC, topics.model().name());
                String policy = admin.describeConfigs(List.of(model)).all().get(30, TimeUnit.SECONDS).get(model)
                        .get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
                assertEquals(TopicConfig.CLEANUP_POLICY_COMPACT, policy);
                // Transactions (exactly_once_v2) need the transaction state log on a single broker.
                assertEquals(1, admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size());
            }
        }
        assertFalse(Files.exists(directory), "broker directory should be deleted: " + directory);
    }
}
