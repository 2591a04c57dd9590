package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import java.util.Objects;

/**
 * The names of the topics the topologies read and write. Serdes for each topic come from
 * {@link io.gdastreams.serde.SerdeFactory}; the names come from configuration.
 */
public record Topics(String labelled, String unlabelled, String model, String predictions, String deadLetters) {

    public Topics {
        Objects.requireNonNull(labelled, "labelled");
        Objects.requireNonNull(unlabelled, "unlabelled");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(predictions, "predictions");
        Objects.requireNonNull(deadLetters, "deadLetters");
    }

    /** The default names ({@code gda.topic.*}). */
    public static Topics defaults() {
        return from(ConfigValues.DEFAULTS);
    }

    /** The names a configuration gives ({@code gda.topic.*}). */
    public static Topics from(ConfigValues config) {
        return new Topics(config.string(ConfigKey.TOPIC_LABELLED), config.string(ConfigKey.TOPIC_UNLABELLED),
                config.string(ConfigKey.TOPIC_MODEL), config.string(ConfigKey.TOPIC_PREDICTIONS),
                config.string(ConfigKey.TOPIC_DEAD_LETTERS));
    }
}
