package io.gdastreams.containers;

import org.testcontainers.junit.jupiter.Container;

/**
 * {@link BrokerLineChecks} on the oldest broker line the suite runs against (the pom's
 * {@code kafka.older-broker.version}, {@link BrokerImage#older()}; CI runs 3.9.1: a broker that knows neither
 * {@code max.decompressed.message.bytes} nor Kafka Streams' own group protocol).
 */
@ContainerTest
class OlderBrokerContainerIT extends BrokerLineChecks {

    @Container
    static final HostNetworkKafkaContainer KAFKA = new HostNetworkKafkaContainer(BrokerImage.older());

    @Override
    HostNetworkKafkaContainer kafka() {
        return KAFKA;
    }
}
