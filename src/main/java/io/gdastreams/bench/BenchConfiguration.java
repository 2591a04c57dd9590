package io.gdastreams.bench;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What the bench's three apps run with: gda-streams' defaults, then {@code --set KEY=VALUE} in order. No config file
 * and no environment, so that a run is described by its command line alone (the report repeats the {@code --set}
 * keys). Keys the bench decides itself (its own topics, ids and model, or a dedicated option) are refused rather
 * than silently overridden.
 *
 * @param config the resolved configuration
 * @param set    the keys set with {@code --set} and their values, in the order given (the last value of a key wins)
 */
record BenchConfiguration(AppConfig config, Map<String, String> set) {

    static final String SET = "--set";

    /** Keys a {@code --set} may not change, and why. */
    static final Map<String, String> OWNED_KEYS = ownedKeys();

    /** gda-streams' defaults, nothing set. */
    static final BenchConfiguration DEFAULTS = new BenchConfiguration(AppConfig.defaults(), Map.of());

    BenchConfiguration {
        set = Collections.unmodifiableMap(new LinkedHashMap<>(set));
    }

    /**
     * The configuration of {@code settings} ({@code KEY=VALUE} each) for a bench of {@code classes} classes and
     * {@code features} features; a user error for a malformed, unknown, invalid or bench-owned key, and for a bound
     * that would dead-letter the bench's own events (the stage would wait for them until its timeout).
     */
    static BenchConfiguration of(List<String> settings, int classes, int features) {
        Map<String, String> set = new LinkedHashMap<>();
        List<AppConfig.Setting> given = new ArrayList<>();
        for (String setting : settings) {
            Map.Entry<String, String> keyValue = AppConfig.keyValue(setting, SET);
            String owner = OWNED_KEYS.get(keyValue.getKey());
            if (owner != null) {
                throw new UserError(SET + " " + keyValue.getKey() + ": " + owner);
            }
            given.add(new AppConfig.Setting(keyValue.getKey(), keyValue.getValue(), SET));
            set.put(keyValue.getKey(), keyValue.getValue().trim());
        }
        AppConfig config = AppConfig.defaults().with(given); // checked as a whole: keys that must agree, any order
        refuseBelow(config, ConfigKey.MAX_CLASSES, config.maxClasses(), classes, "--classes");
        // Unset, the feature bound follows the bench's dimension (StageRunner); set, it must admit it.
        refuseBelow(config, ConfigKey.MAX_FEATURES, config.maxFeatures(), features, "--features");
        return new BenchConfiguration(config, set);
    }

    /** The training settings on a stage's own topics, publishing the bench's model. */
    TrainingSettings training(Topics topics) {
        return config.trainingSettings(topics).withModelId(StageRunner.MODEL_ID);
    }

    /** The scoring settings on a stage's own topics, scoring with the bench's model. */
    ScoringSettings scoring(Topics topics) {
        return config.scoringSettings(topics).withModelId(StageRunner.MODEL_ID);
    }

    /**
     * The Kafka Streams properties of a stage, before the bench's own keys (application id, bootstrap servers,
     * state directory, threads, guarantee, replication factor): gda-streams' Kafka defaults and the --set ones.
     */
    Properties streamsProperties(String stage) {
        return config.stageStreamsProperties(stage);
    }

    private static void refuseBelow(AppConfig config, ConfigKey key, int bound, int needed, String option) {
        if (!config.origin(key).equals("default") && bound < needed) {
            throw new UserError(key.key() + " = " + bound + " (" + config.origin(key) + ") is below " + option + " "
                    + needed + ": the bench's events beyond it would be dead-lettered and the stage never finish");
        }
    }

    private static Map<String, String> ownedKeys() {
        Map<String, String> owned = new LinkedHashMap<>();
        String ownTopics = "each stage has its own topics";
        for (ConfigKey topic : List.of(ConfigKey.TOPIC_LABELLED, ConfigKey.TOPIC_UNLABELLED, ConfigKey.TOPIC_MODEL,
                ConfigKey.TOPIC_PREDICTIONS, ConfigKey.TOPIC_DEAD_LETTERS, ConfigKey.TOPIC_METRICS)) {
            owned.put(topic.key(), ownTopics);
        }
        owned.put(ConfigKey.MODEL_ID.key(), "the bench trains and scores its own model");
        owned.put(ConfigKey.FEATURES.key(), "the schema is the generator's (--features sets its size)");
        owned.put(ConfigKey.APPLICATION_ID.key(), "each stage has its own application id");
        owned.put(ConfigKey.PARTITIONS.key(), "use --partitions");
        owned.put(ConfigKey.PUBLISH_INTERVAL_MS.key(), "use --publish-interval-ms");
        owned.put(ConfigKey.CREATE_TOPICS.key(), "the bench creates its topics");
        owned.put(ConfigKey.REPLICATION_FACTOR.key(), "the bench creates its topics with replication factor 1");
        owned.put("bootstrap.servers", "use --bootstrap-servers");
        owned.put("num.stream.threads", "use --threads");
        owned.put("processing.guarantee", "use --guarantee");
        owned.put("state.dir", "each run has its own temporary state directory");
        owned.put("replication.factor", "the bench runs with replication factor 1");
        return Collections.unmodifiableMap(owned);
    }
}
