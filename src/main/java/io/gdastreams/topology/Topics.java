package io.gdastreams.topology;

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

    public static Topics defaults() {
        return new Topics("labelled-events", "unlabelled-events", "model-parameters", "predictions", "dead-letters");
    }
}
