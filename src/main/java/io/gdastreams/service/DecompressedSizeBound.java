package io.gdastreams.service;

import io.gdastreams.settings.RecordSizeLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Whether the topics a service reads bound the size of a record once decompressed
 * ({@code max.decompressed.message.bytes}, which not every broker knows: {@link #WHICH_BROKERS}). Kafka's
 * {@code max.message.bytes} bounds a batch as it travels, compressed, and a consumer decompresses every record it
 * returns into memory of its own: a producer that sends a few kilobytes of compressed zeros delivers records of up to
 * 2 GiB, and one poll of them (up to {@code max.poll.records}) exhausts the service's heap, again after every restart
 * on the same records. Topics that {@code gda.create.topics} creates carry the bound; for others (made by hand, or on
 * a broker that does not know it) the start says so as a warning: the service can run, and runs until such records
 * come.
 */
final class DecompressedSizeBound {

    private static final String KEY = TopicConfig.MAX_DECOMPRESSED_MESSAGE_BYTES_CONFIG;
    /**
     * Which brokers know {@link #KEY}, as BrokerLineChecks found on real ones: Kafka 4.4.0 and 4.2.2 do;
     * 3.9.1, 4.0.2, 4.1.2 and 4.3.1 do not (4.2.0, 4.2.1 and 4.3.0's clients do not define it either).
     */
    static final String WHICH_BROKERS = "Kafka 4.4 brokers know it, and 4.2.2 of the 4.2 line";

    private DecompressedSizeBound() {
    }

    /**
     * The warning for the topics of {@code bounds} (topic → its {@code max.decompressed.message.bytes} entry, null
     * when the broker does not know the key) that have no bound, each with the one to set ({@code wanted}); empty
     * when every one is bounded (set on the topic or on the broker, to any value).
     */
    static Optional<String> warning(Map<String, ConfigEntry> bounds, Map<String, Integer> wanted) {
        List<String> unknown = new ArrayList<>();
        List<String> unbounded = new ArrayList<>();
        bounds.forEach((topic, entry) -> {
            if (entry == null) {
                unknown.add(topic);
            } else if (entry.source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG) {
                unbounded.add(topic);
            }
        });
        if (unknown.isEmpty() && unbounded.isEmpty()) {
            return Optional.empty();
        }
        // One cluster: its brokers all know the key or none does.
        List<String> topics = unknown.isEmpty() ? unbounded : unknown;
        boolean one = topics.size() == 1;
        StringBuilder fix = new StringBuilder();
        for (String topic : topics) {
            fix.append(fix.isEmpty() ? "" : "; ").append("kafka-configs.sh --alter --entity-type topics --entity-name ")
                    .append(topic).append(" --add-config ").append(KEY).append('=').append(wanted.get(topic));
        }
        String them = one ? "it" : "them";
        return Optional.of((unknown.isEmpty() ? "" : "the cluster does not know " + KEY + " (" + WHICH_BROKERS
                + "), so ") + "the topic" + (one ? " " : "s ") + String.join(", ", topics) + (one ? " does" : " do")
                + " not bound a record's decompressed size: a producer that compresses can send records of up to 2 GiB"
                + " in batches of a few kilobytes, and one poll of them exhausts this service's heap, after every"
                + " restart too; " + (unknown.isEmpty() ? "" : "once the brokers know it, ") + "bound " + them + ": "
                + fix + " (the topics gda.create.topics=true creates carry it; it leaves existing ones as they are)");
    }

    /**
     * The bound each topic a service reads should have, as the topics gda-streams creates carry it
     * ({@link RecordSizeLimits}): the event topic's, the model topic's (the larger where one topic is both).
     */
    static Map<String, Integer> wanted(String eventTopic, String modelTopic) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        wanted.put(eventTopic, Integer.parseInt(RecordSizeLimits.eventTopicConfig().get(KEY)));
        wanted.merge(modelTopic, Integer.parseInt(RecordSizeLimits.largeRecordTopicConfig().get(KEY)), Math::max);
        return wanted;
    }

    /** The warning for the topics of {@code wanted} as {@code configs} (by topic name) describe them. */
    static Optional<String> check(Map<String, Config> configs, Map<String, Integer> wanted) {
        Map<String, ConfigEntry> bounds = new LinkedHashMap<>();
        wanted.keySet().stream().sorted().forEach(topic -> {
            Config config = configs.get(topic);
            if (config != null) {
                bounds.put(topic, config.get(KEY));
            }
        });
        return warning(bounds, wanted);
    }
}
