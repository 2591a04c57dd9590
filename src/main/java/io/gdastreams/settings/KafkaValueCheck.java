package io.gdastreams.settings;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka keys' values checked as Kafka checks them (type and validator of each key Kafka Streams, its producer,
 * its consumers or its admin client define) when the configuration is loaded: a value Kafka would refuse is a
 * configuration error naming the key, not a stack trace from inside Kafka Streams after topics were created. Only
 * the values are checked; keys Kafka does not know are Kafka's to warn about, as before.
 */
final class KafkaValueCheck {

    /** A prefix Kafka Streams hands to one kind of client, and the definitions of that client's keys. */
    private record Scope(String prefix, List<ConfigDef> definitions) {
    }

    private static final ConfigDef STREAMS = StreamsConfig.configDef();
    private static final ConfigDef PRODUCER = ProducerConfig.configDef();
    private static final ConfigDef CONSUMER = ConsumerConfig.configDef();
    private static final ConfigDef ADMIN = AdminClientConfig.configDef();

    /** Longest prefix first: "main.consumer." before "consumer.". */
    private static final List<Scope> SCOPES = List.of(
            new Scope(StreamsConfig.MAIN_CONSUMER_PREFIX, List.of(CONSUMER)),
            new Scope(StreamsConfig.RESTORE_CONSUMER_PREFIX, List.of(CONSUMER)),
            new Scope(StreamsConfig.GLOBAL_CONSUMER_PREFIX, List.of(CONSUMER)),
            new Scope(StreamsConfig.CONSUMER_PREFIX, List.of(CONSUMER)),
            new Scope(StreamsConfig.PRODUCER_PREFIX, List.of(PRODUCER)),
            new Scope(StreamsConfig.ADMIN_CLIENT_PREFIX, List.of(ADMIN)),
            new Scope("", List.of(STREAMS, PRODUCER, CONSUMER, ADMIN)));

    private KafkaValueCheck() {
    }

    /** Throws a {@link ConfigException} for the first value of {@code kafka} that Kafka would refuse. */
    static void check(Map<String, String> kafka) {
        for (Map.Entry<String, String> entry : kafka.entrySet()) {
            if (entry.getKey().startsWith(StreamsConfig.TOPIC_PREFIX)) {
                continue; // topic settings: the broker checks them when it creates the topic
            }
            Scope scope = SCOPES.stream().filter(s -> entry.getKey().startsWith(s.prefix())).findFirst().orElseThrow();
            String name = entry.getKey().substring(scope.prefix().length());
            for (ConfigDef definitions : scope.definitions()) {
                ConfigDef.ConfigKey key = definitions.configKeys().get(name);
                if (key == null) {
                    continue;
                }
                try {
                    Object value = ConfigDef.parseType(name, entry.getValue(), key.type);
                    if (key.validator != null) {
                        key.validator.ensureValid(name, value);
                    }
                } catch (org.apache.kafka.common.config.ConfigException e) {
                    throw new ConfigException(entry.getKey() + " = '" + entry.getValue() + "' is refused by Kafka: "
                            + e.getMessage());
                }
            }
        }
    }
}
