package io.gdastreams.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka keys' values checked as Kafka checks them (type and validator of each key Kafka Streams, its producer,
 * its consumers or its admin client define) when the configuration is loaded: a value Kafka would refuse is a
 * configuration error naming the key, not a stack trace from inside Kafka Streams after topics were created. A key
 * Kafka does not know is passed on (a serde's or an interceptor's may be among them) and, when it is a typo away
 * from one Kafka knows, named at start as a warning ({@link #misspelt}): Kafka's clients only log unused keys at
 * INFO, so {@code comit.interval.ms} was silently ignored.
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
            String value = entry.getValue();
            if (entry.getKey().startsWith(StreamsConfig.TOPIC_PREFIX) || entry.getKey().equals(
                    StreamsConfig.BOOTSTRAP_SERVERS_CONFIG) || value.contains("${")) {
                // Topic settings are the broker's to check when it creates a topic; the bootstrap servers have
                // their own check, after --bootstrap-servers; "${provider:…}" is replaced by Kafka's config
                // providers only when a client is made.
                continue;
            }
            Scope scope = SCOPES.stream().filter(s -> entry.getKey().startsWith(s.prefix())).findFirst().orElseThrow();
            String name = entry.getKey().substring(scope.prefix().length());
            List<ConfigDef> definitions = scope.definitions();
            if (scope.prefix().isEmpty() && STREAMS.configKeys().containsKey(name)) {
                // Kafka Streams' own reading of a key it defines (group.protocol=streams is not a consumer's).
                definitions = List.of(STREAMS);
            }
            for (ConfigDef definition : definitions) {
                ConfigDef.ConfigKey key = definition.configKeys().get(name);
                if (key != null) {
                    checkOne(entry.getKey(), name, value, key);
                }
            }
        }
    }

    /**
     * One warning per key of {@code kafka} that no definition of its scope knows but that is a typo away from one
     * (the suggestion keeps the key's prefix); empty otherwise.
     */
    static List<String> misspelt(Map<String, String> kafka) {
        List<String> warnings = new ArrayList<>();
        for (String setting : new TreeSet<>(kafka.keySet())) {
            if (setting.startsWith(StreamsConfig.TOPIC_PREFIX)) {
                continue; // a topic's settings are the broker's
            }
            Scope scope = SCOPES.stream().filter(s -> setting.startsWith(s.prefix())).findFirst().orElseThrow();
            String name = setting.substring(scope.prefix().length());
            Set<String> known = new TreeSet<>();
            scope.definitions().forEach(definition -> known.addAll(definition.names()));
            if (!known.contains(name)) {
                NearestName.nearest(name, known).ifPresent(near -> warnings.add(setting + " is no key Kafka defines"
                        + " (Kafka Streams and its clients pass it on unused, to serdes and interceptors); did you"
                        + " mean " + scope.prefix() + near + "?"));
            }
        }
        return warnings;
    }

    private static void checkOne(String setting, String name, String value, ConfigDef.ConfigKey key) {
        try {
            Object parsed = ConfigDef.parseType(name, value, key.type);
            if (key.validator != null) {
                key.validator.ensureValid(name, parsed);
            }
        } catch (org.apache.kafka.common.config.ConfigException e) {
            boolean secret = key.type == ConfigDef.Type.PASSWORD;
            throw new ConfigException(setting + (secret ? " (a password; its value not shown)" : " = '" + value + "'")
                    + " is refused by Kafka: " + (secret && !value.isEmpty() ? e.getMessage().replace(value, "[hidden]")
                    : e.getMessage())
                    + " (a Kafka setting: from the file, a KAFKA_STREAMS_ variable or --set)");
        }
    }
}
