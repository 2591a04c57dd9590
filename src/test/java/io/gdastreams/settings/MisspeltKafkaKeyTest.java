package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.config.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Kafka key a typo away from one Kafka knows is named at start; unknown keys far from any are passed on quietly. */
class MisspeltKafkaKeyTest {

    private static List<String> warnings(String... settings) {
        AppConfig config = AppConfig.defaults();
        for (String setting : settings) {
            int eq = setting.indexOf('=');
            config = config.set(setting.substring(0, eq), setting.substring(eq + 1), "--set");
        }
        return config.warnings();
    }

    @Test
    void shouldNameATypoWithTheKeyItWasMeantToBeInItsOwnScope() {
        assertEquals(List.of("comit.interval.ms is no key Kafka defines (Kafka Streams and its clients pass it"
                + " on unused, to serdes and interceptors); did you mean"
                + " commit.interval.ms?"), warnings("comit.interval.ms=50"));
        assertEquals(List.of("main.consumer.max.pol.records is no key Kafka defines (Kafka Streams and its clients pass it"
                + " on unused, to serdes and interceptors); did you mean"
                + " main.consumer.max.poll.records?"), warnings("main.consumer.max.pol.records=100"));
        assertEquals(List.of("producer.linger.sm is no key Kafka defines (Kafka Streams and its clients pass it"
                + " on unused, to serdes and interceptors); did you mean"
                + " producer.linger.ms?"), warnings("producer.linger.sm=5"));
    }

    @Test
    void shouldSayNothingOfValidKeysOrOfKeysFarFromAnyKafkaKnows() throws Exception {
        assertEquals(List.of(), warnings("schema.registry.url=http://r:8081", "my.interceptor.endpoint=x",
                "main.consumer.max.poll.records=100", "producer.linger.ms=5", "topic.max.decompressed.message.bytes=1",
                "processing.guarantee=exactly_once_v2", "consumer.isolation.level=read_committed"));
        assertEquals(List.of(), AppConfig.load(Path.of("config/app.properties"), Map.of()).warnings(),
                "the shipped file");
        // What the services hand Kafka Streams, gda-streams' own defaults included.
        AppConfig defaults = AppConfig.defaults();
        for (Role role : Role.values()) {
            Map<String, String> handed = new java.util.HashMap<>();
            defaults.streamsProperties(role).forEach((k, v) -> handed.put(k.toString(), v.toString()));
            handed.remove("application.id");
            assertEquals(List.of(), KafkaValueCheck.misspelt(handed), role.toString());
        }
    }
}
