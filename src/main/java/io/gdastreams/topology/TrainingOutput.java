package io.gdastreams.topology;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.ModelParameters;

/** What the training processors emit; {@link TrainingTopology} routes each kind to its topic. */
sealed interface TrainingOutput {

    /** An encoded {@link io.gdastreams.model.PartialSnapshot}, bound for the combiner. */
    record Partial(byte[] snapshot) implements TrainingOutput {
    }

    /** A model record (JSON bytes, exactly as published), bound for the model topic. */
    record Model(byte[] model) implements TrainingOutput {
    }

    /** A prequential record (a closed window or a drift alarm), bound for the metrics topic under the model id. */
    record Metrics(MetricsRecord record) implements TrainingOutput {
    }

    /** A record that could not be used, bound for the dead-letter topic under its original key. */
    record Rejected(byte[] key, DeadLetter deadLetter) implements TrainingOutput {
    }
}
