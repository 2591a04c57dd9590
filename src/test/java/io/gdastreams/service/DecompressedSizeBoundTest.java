package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.config.RecordBounds;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.Topics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.junit.jupiter.api.Test;

/** Which topics lack a bound on a record's decompressed size, what the start says, and what gets created. */
class DecompressedSizeBoundTest {

    private static final String KEY = TopicConfig.MAX_DECOMPRESSED_MESSAGE_BYTES_CONFIG;
    private static final Map<String, Integer> WANTED = DecompressedSizeBound.wanted("events", "models");

    private static ConfigEntry entry(String value, ConfigEntry.ConfigSource source) {
        return new ConfigEntry(KEY, value, source, false, false, List.of(), ConfigEntry.ConfigType.INT, null);
    }

    private static Map<String, ConfigEntry> bounds(ConfigEntry events, ConfigEntry models) {
        Map<String, ConfigEntry> bounds = new LinkedHashMap<>();
        bounds.put("events", events);
        bounds.put("models", models);
        return bounds;
    }

    @Test
    void shouldSayNothingWhenTheTopicOrTheBrokerSetsABound() {
        assertEquals(Optional.empty(), DecompressedSizeBound.warning(bounds(
                entry("1048576", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG),
                entry("67108864", ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG)), WANTED));
    }

    @Test
    void shouldNameEachUnboundedTopicWithTheBoundToSet() {
        assertEquals(Optional.of("the topic events does not bound a record's decompressed size: a producer that"
                        + " compresses can send records of up to 2 GiB in batches of a few kilobytes, and one poll of"
                        + " them exhausts this service's heap, after every restart too; bound it: kafka-configs.sh"
                        + " --alter --entity-type topics --entity-name events --add-config"
                        + " max.decompressed.message.bytes=1048576 (the topics gda.create.topics=true creates carry it;"
                        + " it leaves existing ones as they are)"),
                DecompressedSizeBound.warning(bounds(entry("2147483639", ConfigEntry.ConfigSource.DEFAULT_CONFIG),
                        entry("67108864", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)), WANTED));
    }

    @Test
    void shouldSayWhenTheClusterDoesNotKnowTheKey() {
        assertEquals(Optional.of("the cluster does not know max.decompressed.message.bytes (Kafka 4.4 brokers know"
                        + " it, and 4.2.2 of the 4.2 line), so the topics events, models do not bound a record's"
                        + " decompressed size: a producer that compresses can send records of up to 2 GiB in batches"
                        + " of a few kilobytes, and one poll of them exhausts this service's heap, after every restart"
                        + " too; once the brokers know it, bound them: kafka-configs.sh --alter --entity-type topics"
                        + " --entity-name events --add-config max.decompressed.message.bytes=1048576;"
                        + " kafka-configs.sh --alter --entity-type topics"
                        + " --entity-name models --add-config max.decompressed.message.bytes=67108864"
                        + " (the topics gda.create.topics=true creates carry it; it leaves existing ones as they are)"),
                DecompressedSizeBound.warning(bounds(null, null), WANTED));
    }

    @Test
    void shouldReadTheBoundsFromTheDescribedSettingsAndSayNothingOfTopicsNotDescribed() {
        Map<String, org.apache.kafka.clients.admin.Config> configs = Map.of(
                "events", new org.apache.kafka.clients.admin.Config(List.of(entry("2147483639",
                        ConfigEntry.ConfigSource.DEFAULT_CONFIG))),
                "models", new org.apache.kafka.clients.admin.Config(List.of(entry("67108864",
                        ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG))));
        assertEquals(true, DecompressedSizeBound.check(configs, WANTED).orElseThrow().startsWith(
                "the topic events does not bound"));
        assertEquals(Optional.empty(), DecompressedSizeBound.check(Map.of(), WANTED), "not described: not known");
        assertEquals(Optional.empty(), ModelTopicSettings.check("models", null));
        assertEquals(Optional.empty(), ModelTopicSettings.check("models", configs.get("models")),
                "no cleanup.policy described: nothing to say");
    }

    @Test
    void shouldWantTheLargerBoundOfATopicThatIsBoth() {
        assertEquals(Map.of("events", RecordBounds.MAX_EVENT_RECORD_BYTES, "models", RecordBounds.MAX_RECORD_BYTES),
                WANTED);
        assertEquals(Map.of("one", RecordBounds.MAX_RECORD_BYTES), DecompressedSizeBound.wanted("one", "one"));
        Topics same = new Topics("in", "in", "models", "out", "letters");
        assertEquals(2, TopicProvisioner.plan(same, 1, (short) -1).stream().filter(t -> t.name().equals("in"))
                .count(), "planned twice as before, created once (the broker says it exists)");
    }

    @Test
    void shouldCreateTheTopicsTheServicesReadWithTheBound() {
        Topics topics = AppConfig.defaults().topics();
        Map<String, NewTopic> plan = new LinkedHashMap<>();
        TopicProvisioner.plan(topics, 4, (short) -1).forEach(t -> plan.put(t.name(), t));
        String event = Integer.toString(RecordBounds.MAX_EVENT_RECORD_BYTES);
        assertEquals(event, plan.get(topics.labelled().name()).configs().get(KEY));
        assertEquals(event, plan.get(topics.unlabelled().name()).configs().get(KEY));
        assertEquals(Integer.toString(RecordBounds.MAX_RECORD_BYTES), plan.get(topics.model().name()).configs()
                .get(KEY));
        for (String written : List.of(topics.predictions().name(), topics.deadLetters().name(),
                topics.metrics().name())) {
            assertNull(plan.get(written).configs(), written + ": written by the services, not read");
        }
        Map<String, String> extra = Map.of(TopicConfig.RETENTION_MS_CONFIG, "1000");
        NewTopic labelled = TopicProvisioner.plan(topics, 4, (short) -1, extra).get(0);
        assertEquals(Map.of(KEY, event, TopicConfig.RETENTION_MS_CONFIG, "1000"), labelled.configs());
    }

    @Test
    void shouldDropTheBoundOnlyWhenTheBrokerRefusesThatKey() {
        NewTopic topic = new NewTopic("events", Optional.of(4), Optional.of((short) 3)).configs(Map.of(KEY, "1048576",
                TopicConfig.RETENTION_MS_CONFIG, "1000"));
        NewTopic older = TopicProvisioner.withoutUnknownBound(topic,
                new InvalidConfigurationException("Unknown topic config name: " + KEY));
        assertEquals(new NewTopic("events", Optional.of(4), Optional.of((short) 3)).configs(Map.of(
                TopicConfig.RETENTION_MS_CONFIG, "1000")), older);
        NewTopic bare = TopicProvisioner.withoutUnknownBound(new NewTopic("events", Optional.of(4), Optional.empty())
                .configs(Map.of(KEY, "1")), new InvalidConfigurationException("Unknown topic config name: " + KEY));
        assertEquals(new NewTopic("events", Optional.of(4), Optional.empty()), bare);
        assertNull(TopicProvisioner.withoutUnknownBound(topic,
                new InvalidConfigurationException("Unknown topic config name: retention.bogus")));
        assertNull(TopicProvisioner.withoutUnknownBound(topic, new InvalidConfigurationException(
                "Invalid value -5 for configuration " + KEY)), "a value refused is not a key unknown");
        assertNull(TopicProvisioner.withoutUnknownBound(topic, new InvalidReplicationFactorException(KEY)));
        assertNull(TopicProvisioner.withoutUnknownBound(new NewTopic("out", Optional.of(4), Optional.empty()),
                new InvalidConfigurationException("Unknown topic config name: " + KEY)));
    }
}
