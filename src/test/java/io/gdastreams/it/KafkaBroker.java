package io.gdastreams.it;

import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker for integration tests: one combined KRaft node (controller + broker) in the test JVM,
 * via Kafka's own {@link KafkaClusterTestKit} (internal API, kept behind this class). Obtain it through
 * {@link KafkaBrokerExtension}; it is started once per JVM and shared, so tests isolate themselves with
 * {@link #uniqueName(String)} topics, application ids and state directories. The client side (topics,
 * producer, reader, Streams settings) is {@link TestBroker}'s, shared with the Testcontainers tests.
 */
public final class KafkaBroker implements TestBroker, AutoCloseable {

    private final KafkaClusterTestKit cluster;
    private final Admin admin;

    private KafkaBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        this.admin = cluster.admin();
    }

    static KafkaBroker start() {
        try {
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build())
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "4")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("transaction.state.log.num.partitions", "4")
                    .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                    .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                    // Tests create their topics; a typo should fail rather than create an empty topic.
                    .setConfigProp("auto.create.topics.enable", "false")
                    // Tests send records whose timestamps are event times from 1970 (prequential windows,
                    // forgetting): the default 7-day time retention deleted them at its first check, 30 s after
                    // the start, before the trainer read them (DriftResetRestartIT then waited in vain for its first
                    // commit). ReplayEventTimeRetentionIT keeps the default, on a broker of its own.
                    .setConfigProp("log.retention.ms", "-1")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new KafkaBroker(cluster);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the test broker", e);
        }
    }

    @Override
    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    @Override
    public Admin admin() {
        return admin;
    }

    /** {@code prefix-<n>-<random>}: unique in this JVM and across runs against the same broker. */
    public static String uniqueName(String prefix) {
        return UniqueNames.of(prefix);
    }

    /** The five topics of one test, each under a {@link #uniqueName} (not created: the product creates them). */
    public static io.gdastreams.topology.Topics uniqueTopics() {
        return new io.gdastreams.topology.Topics(uniqueName("labelled"), uniqueName("unlabelled"),
                uniqueName("model"), uniqueName("predictions"), uniqueName("dead-letters"));
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the test broker", e);
        }
    }
}
