package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.config.RecordBounds;
import io.gdastreams.math.Forgetting;
import io.gdastreams.math.Statistics;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What the training topology needs to know; filled from configuration by the application ({@link #from}). The
 * defaults are those of the configuration keys ({@link ConfigKey}), read the same way as a configuration.
 *
 * @param topics topic names (the training topology reads {@code labelled}, writes {@code model} and
 *               {@code deadLetters})
 * @param modelId key of the published model on the model topic
 * @param features the schema in model order; empty = each training task fixes it from its first valid labelled
 *                 event, as the sorted feature names of that event (the combiner then keeps the first schema it
 *                 sees and rejects partials with another one)
 * @param publishInterval wall-clock interval at which each task sends its cumulative partial statistics (when
 *                        they changed); the combiner publishes one model version per interval in steady
 *                        state, at most two (docs/TRAINING.md)
 * @param maxClasses most distinct labels a training task keeps statistics for (K·d² numbers each, in its state
 *                   and in every model); events of further labels are dead-lettered
 * @param maxFeatures most features an event may carry ({@code gda.max.features}); a larger event is dead-lettered
 *                    by the decoder and so never fixes the schema; a configured schema may not be longer
 * @param maxModelBytes the largest model record the trainer may publish (the producer's record limit); an event
 *                      of a new class that could push the model past it is dead-lettered ({@link ModelSizeBound})
 * @param categorical the categorical features ({@code gda.categorical.*}): not part of {@code features}, which are
 *                    the continuous ones (the Gaussian part)
 * @param forgetting exponential forgetting by event time ({@code gda.forgetting.half-life.ms}); null: none (every
 *                   event keeps its weight). Category counts decay with the same weights
 * @param prequential test-then-train evaluation ({@code gda.prequential}); null: off
 * @param signing the keys that sign the published models ({@code gda.model.signing.key}), and that the trainer
 *                verifies the model topic's records with; {@link ModelSigning#NONE}: unsigned
 * @param statistics what is kept per class ({@code gda.statistics}): the full scatter or its diagonal only (O(d) per
 *                   event, for Gaussian naive Bayes)
 */
public record TrainingSettings(Topics topics, String modelId, List<String> features, Duration publishInterval,
                               int maxClasses, int maxFeatures, long maxModelBytes, CategoricalSettings categorical,
                               Forgetting forgetting, PrequentialSettings prequential, ModelSigning signing,
                               Statistics statistics) {

    /** {@code gda.model.id}. */
    public static final String DEFAULT_MODEL_ID = ConfigValues.DEFAULTS.string(ConfigKey.MODEL_ID);
    /** {@code gda.publish.interval.ms}. */
    public static final Duration DEFAULT_PUBLISH_INTERVAL =
            ConfigValues.DEFAULTS.millis(ConfigKey.PUBLISH_INTERVAL_MS);
    /** {@code gda.max.classes}. */
    public static final int DEFAULT_MAX_CLASSES = ConfigValues.DEFAULTS.intValue(ConfigKey.MAX_CLASSES);
    /** {@code gda.max.features}. */
    public static final int DEFAULT_MAX_FEATURES = ConfigValues.DEFAULTS.intValue(ConfigKey.MAX_FEATURES);
    /** What the application allows a model under its default producer record limit. */
    public static final long DEFAULT_MAX_MODEL_BYTES = RecordBounds.DEFAULT_MODEL_RECORD_LIMIT;

    public TrainingSettings {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(modelId, "modelId");
        if (modelId.isBlank()) {
            throw new IllegalArgumentException("modelId must not be blank");
        }
        features = List.copyOf(Objects.requireNonNull(features, "features"));
        if (features.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("blank feature name in " + features);
        }
        if (new HashSet<>(features).size() != features.size()) {
            throw new IllegalArgumentException("duplicate feature name in " + features);
        }
        Objects.requireNonNull(publishInterval, "publishInterval");
        if (publishInterval.isNegative() || publishInterval.isZero()) {
            throw new IllegalArgumentException("publishInterval must be positive, got " + publishInterval);
        }
        if (maxClasses < 1) {
            throw new IllegalArgumentException("maxClasses must be >= 1, got " + maxClasses);
        }
        if (maxFeatures < 1) {
            throw new IllegalArgumentException("maxFeatures must be >= 1, got " + maxFeatures);
        }
        if (features.size() > maxFeatures) {
            throw new IllegalArgumentException("the configured schema has " + features.size() + " features, more"
                    + " than maxFeatures = " + maxFeatures + ": every event would be dead-lettered");
        }
        if (maxModelBytes < 1) {
            throw new IllegalArgumentException("maxModelBytes must be >= 1, got " + maxModelBytes);
        }
        Objects.requireNonNull(categorical, "categorical");
        for (String name : categorical.features()) {
            if (features.contains(name)) {
                throw new IllegalArgumentException("feature '" + name + "' is both continuous (gda.features) and"
                        + " categorical (gda.categorical.features)");
            }
        }
        Objects.requireNonNull(signing, "signing");
        Objects.requireNonNull(statistics, "statistics");
    }

    /** The settings without prequential evaluation, with unsigned models. */
    public TrainingSettings(Topics topics, String modelId, List<String> features, Duration publishInterval,
                            int maxClasses, int maxFeatures, long maxModelBytes, CategoricalSettings categorical,
                            Forgetting forgetting) {
        this(topics, modelId, features, publishInterval, maxClasses, maxFeatures, maxModelBytes, categorical,
                forgetting, null, ModelSigning.NONE, Statistics.FULL);
    }

    /** The settings without forgetting. */
    public TrainingSettings(Topics topics, String modelId, List<String> features, Duration publishInterval,
                            int maxClasses, int maxFeatures, long maxModelBytes, CategoricalSettings categorical) {
        this(topics, modelId, features, publishInterval, maxClasses, maxFeatures, maxModelBytes, categorical, null);
    }

    /** The settings without categorical features. */
    public TrainingSettings(Topics topics, String modelId, List<String> features, Duration publishInterval,
                            int maxClasses, int maxFeatures, long maxModelBytes) {
        this(topics, modelId, features, publishInterval, maxClasses, maxFeatures, maxModelBytes,
                CategoricalSettings.NONE);
    }

    /** The settings with the default feature and model size bounds. */
    public TrainingSettings(Topics topics, String modelId, List<String> features, Duration publishInterval,
                            int maxClasses) {
        this(topics, modelId, features, publishInterval, maxClasses, DEFAULT_MAX_FEATURES, DEFAULT_MAX_MODEL_BYTES);
    }

    /** The settings with the default class and feature bounds. */
    public TrainingSettings(Topics topics, String modelId, List<String> features, Duration publishInterval) {
        this(topics, modelId, features, publishInterval, DEFAULT_MAX_CLASSES);
    }

    /**
     * The settings a configuration gives.
     *
     * @param topics        the topic names (from the same configuration, or a run's own)
     * @param maxModelBytes what the producer's record limit leaves a model
     */
    public static TrainingSettings from(ConfigValues config, Topics topics, long maxModelBytes) {
        return new TrainingSettings(topics, config.string(ConfigKey.MODEL_ID), config.names(ConfigKey.FEATURES),
                config.millis(ConfigKey.PUBLISH_INTERVAL_MS), config.intValue(ConfigKey.MAX_CLASSES),
                config.intValue(ConfigKey.MAX_FEATURES), maxModelBytes, CategoricalSettings.from(config),
                forgetting(config), PrequentialSettings.from(config),
                ModelSigning.parse(config.signingKeys()), config.value(ConfigKey.STATISTICS, Statistics.class));
    }

    private static Forgetting forgetting(ConfigValues config) {
        var halfLife = config.optionalDouble(ConfigKey.FORGETTING_HALF_LIFE_MS);
        return halfLife.isPresent() ? new Forgetting(halfLife.getAsDouble()) : null;
    }

    /** What a run without configuration gets (every key at its default), on {@code topics}. */
    public static TrainingSettings defaults(Topics topics) {
        return from(ConfigValues.DEFAULTS, topics, DEFAULT_MAX_MODEL_BYTES);
    }

    public TrainingSettings withModelId(String id) {
        return with(c -> c.modelId = id);
    }

    public TrainingSettings withFeatures(List<String> schema) {
        return with(c -> c.features = schema);
    }

    public TrainingSettings withPublishInterval(Duration interval) {
        return with(c -> c.publishInterval = interval);
    }

    public TrainingSettings withMaxClasses(int value) {
        return with(c -> c.maxClasses = value);
    }

    public TrainingSettings withMaxFeatures(int value) {
        return with(c -> c.maxFeatures = value);
    }

    public TrainingSettings withMaxModelBytes(long value) {
        return with(c -> c.maxModelBytes = value);
    }

    public TrainingSettings withCategorical(CategoricalSettings value) {
        return with(c -> c.categorical = value);
    }

    public TrainingSettings withForgetting(Forgetting value) {
        return with(c -> c.forgetting = value);
    }

    /** These settings with test-then-train evaluation ({@code value}; null: off). */
    public TrainingSettings withPrequential(PrequentialSettings value) {
        return with(c -> c.prequential = value);
    }

    /** A copy whose published models are signed with {@code value} ({@link ModelSigning#NONE}: unsigned). */
    public TrainingSettings withSigning(ModelSigning value) {
        return with(c -> c.signing = value);
    }

    /** A copy that keeps {@code value} statistics per class. */
    public TrainingSettings withStatistics(Statistics value) {
        return with(c -> c.statistics = value);
    }

    /** A copy with one change: every wither goes through here, so a new field is added in two places only. */
    private TrainingSettings with(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The fields of a settings record, mutable for {@link #with}; validated again by the canonical constructor. */
    private static final class Copy {
        Topics topics;
        String modelId;
        List<String> features;
        Duration publishInterval;
        int maxClasses;
        int maxFeatures;
        long maxModelBytes;
        CategoricalSettings categorical;
        Forgetting forgetting;
        PrequentialSettings prequential;
        ModelSigning signing;
        Statistics statistics;

        Copy(TrainingSettings s) {
            topics = s.topics;
            modelId = s.modelId;
            features = s.features;
            publishInterval = s.publishInterval;
            maxClasses = s.maxClasses;
            maxFeatures = s.maxFeatures;
            maxModelBytes = s.maxModelBytes;
            categorical = s.categorical;
            forgetting = s.forgetting;
            prequential = s.prequential;
            signing = s.signing;
            statistics = s.statistics;
        }

        TrainingSettings build() {
            return new TrainingSettings(topics, modelId, features, publishInterval, maxClasses, maxFeatures,
                    maxModelBytes, categorical, forgetting, prequential, signing, statistics);
        }
    }
}
