package io.gdastreams.service;

import java.util.Optional;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Whether the model topic keeps the newest model under each id for good, as the product needs: log compaction and no
 * deletion by time. A topic made by hand with {@code cleanup.policy=delete} (or compact,delete with a finite
 * retention) loses every model record once it is older than {@code retention.ms}, however current: a scorer started
 * later finds no model and holds its events, and the trainer, which sees no deletion by retention in what it reads
 * back, does not publish it again. Said at start as a warning (the service can run; it will fail later).
 */
final class ModelTopicSettings {

    private ModelTopicSettings() {
    }

    /** The warning for {@code policy} and {@code retentionMs} of topic {@code topic}, if they delete models. */
    static Optional<String> warning(String topic, String policy, long retentionMs) {
        boolean compacted = policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT);
        boolean deletesByTime = policy.contains(TopicConfig.CLEANUP_POLICY_DELETE) && retentionMs >= 0;
        if (compacted && !deletesByTime) {
            return Optional.empty();
        }
        return Optional.of("the model topic " + topic + " has cleanup.policy=" + policy + (deletesByTime
                ? " with retention.ms=" + retentionMs : "") + ": the broker "
                + (deletesByTime ? "deletes a model record once it is older than that, however current, and a scorer"
                + " started later finds no model (the trainer does not see deletions by retention and does not"
                + " publish it again)" : "keeps every model record instead of the newest per model id")
                + "; make it compacted: kafka-configs.sh --alter --entity-type topics --entity-name " + topic
                + " --add-config cleanup.policy=compact" + (deletesByTime ? " --delete-config retention.ms" : "")
                + " (gda.create.topics=true creates it so)");
    }

    /** The warning for the model topic {@code topic} as {@code config} describes it (null: not described). */
    static Optional<String> check(String topic, Config config) {
        ConfigEntry policy = config == null ? null : config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (policy == null || policy.value() == null) {
            return Optional.empty();
        }
        ConfigEntry retention = config.get(TopicConfig.RETENTION_MS_CONFIG);
        long retentionMs = retention == null || retention.value() == null ? -1 : Long.parseLong(retention.value());
        return warning(topic, policy.value(), retentionMs);
    }
}
