package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.topology.TimelessRecordInterceptor;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The main and global consumers of both services restamp records without a timestamp (TimelessRecordInterceptor),
 * first, before the interceptors the configuration names for them, which it keeps; as Kafka Streams builds them.
 */
class ConsumerInterceptorsTest {

    private static final String OURS = TimelessRecordInterceptor.class.getName();

    private static StreamsConfig streams(Map<String, String> kafka) {
        Properties p = KafkaSettings.forRole(kafka, "app", "scoring");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return new StreamsConfig(p);
    }

    private static Object interceptors(Map<String, Object> consumerConfig) {
        return consumerConfig.get(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG);
    }

    @Test
    void shouldRestampOnTheMainAndGlobalConsumersByDefault() {
        StreamsConfig config = streams(KafkaSettings.DEFAULTS);
        assertEquals(OURS, interceptors(config.getMainConsumerConfigs("g", "c", 0)));
        assertEquals(OURS, interceptors(config.getGlobalConsumerConfigs("c")));
    }

    @Test
    void shouldKeepTheConfiguredConsumerInterceptorsAfterItsOwn() {
        StreamsConfig config = streams(Map.of("consumer.interceptor.classes", "a.Audit, b.Trace"));
        assertEquals(String.join(",", List.of(OURS, "a.Audit", "b.Trace")),
                interceptors(config.getMainConsumerConfigs("g", "c", 0)));
        StreamsConfig unprefixed = streams(Map.of("interceptor.classes", "u.Both"));
        assertEquals(OURS + ",u.Both", interceptors(unprefixed.getMainConsumerConfigs("g", "c", 0)));
        assertEquals(OURS + ",u.Both", interceptors(unprefixed.getGlobalConsumerConfigs("c")));
        StreamsConfig own = streams(Map.of("global.consumer.interceptor.classes", "c.Global," + OURS));
        assertEquals(OURS + ",c.Global", interceptors(own.getGlobalConsumerConfigs("c")));
    }
}
