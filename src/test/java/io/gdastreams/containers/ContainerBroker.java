package io.gdastreams.containers;

import io.gdastreams.it.TestBroker;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.testcontainers.kafka.KafkaContainer;

/** A started broker container seen through {@link TestBroker}, so container tests share the in-JVM tests' code. */
final class ContainerBroker implements TestBroker, AutoCloseable {

    private final KafkaContainer container;
    private final Admin admin;

    ContainerBroker(KafkaContainer container) {
        this.container = container;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, container.getBootstrapServers()));
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public Admin admin() {
        return admin;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
