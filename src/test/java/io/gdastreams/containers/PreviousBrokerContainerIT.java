package io.gdastreams.containers;

import org.testcontainers.junit.jupiter.Container;

/**
 * {@link BrokerLineChecks} on the broker line before the clients' own (the pom's
 * {@code kafka.previous-broker.version}, {@link BrokerImage#previous()}; CI runs 4.3.1: a broker that offers Kafka
 * Streams' own group protocol but does not know {@code max.decompressed.message.bytes}, the combination neither the
 * older line nor the clients' own covers).
 */
@ContainerTest
class PreviousBrokerContainerIT extends BrokerLineChecks {

    @Container
    static final HostNetworkKafkaContainer KAFKA = new HostNetworkKafkaContainer(BrokerImage.previous());

    @Override
    HostNetworkKafkaContainer kafka() {
        return KAFKA;
    }
}
