package io.gdastreams.it;

import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A single-node KRaft broker of Kafka's test kit whose only listeners are SASL_PLAINTEXT (the kit's PLAIN super user
 * {@code plain-admin}; the kit installs StandardAuthorizer), set for a single node (replication factors 1) and
 * without the initial rebalance delay. For the tests of security settings and ACLs; the shared test broker is
 * PLAINTEXT.
 */
public final class SaslTestCluster {

    private SaslTestCluster() {
    }

    /** Formats and starts the cluster with {@code brokerProperties} on top; returns once its broker is ready. */
    public static KafkaClusterTestKit start(Map<String, String> brokerProperties) throws Exception {
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
                .setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                .setControllerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                .build())
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1");
        brokerProperties.forEach(builder::setConfigProp);
        KafkaClusterTestKit cluster = builder.build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        return cluster;
    }
}
