package io.gdastreams.it;

import io.gdastreams.broker.EmbeddedBroker;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * A real Kafka broker for integration tests: one combined KRaft node (controller + broker), the product's own
 * {@link EmbeddedBroker} in a child JVM (as {@code demo} and {@code broker} run it: topics are not auto-created, records
 * are kept without time limit, since tests send events whose timestamps are event times from 1970 — the default 7-day
 * retention deleted them at its first check, before a trainer read them). Obtain it through
 * {@link KafkaBrokerExtension}; it is started once per JVM and shared, so tests isolate themselves with
 * {@link #uniqueName(String)} topics, application ids and state directories. The client side (topics, producer,
 * reader, Streams settings) is {@link TestBroker}'s, shared with the Testcontainers tests.
 */
public final class KafkaBroker implements TestBroker, AutoCloseable {

    private final EmbeddedBroker broker;
    private final Admin admin;

    private KafkaBroker(EmbeddedBroker broker) {
        this.broker = broker;
        this.admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()));
    }

    static KafkaBroker start() {
        return new KafkaBroker(EmbeddedBroker.start(EmbeddedBroker.DEFAULT_START_TIMEOUT));
    }

    @Override
    public String bootstrapServers() {
        return broker.bootstrapServers();
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
        broker.close();
    }
}
