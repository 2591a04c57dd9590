package io.gdastreams.topology;

import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.PosteriorWriter;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one unlabelled event comes to, from decoding to output: an {@link Answer} now (scored, or unscored with a
 * typed {@link UnscoredReason}), or {@link Pending}: held until the first model, answered when released.
 * {@link ScoringProcessor} decides the outcome and writes it in one place; the output records it makes are the
 * ones described in {@link Prediction} and {@link io.gdastreams.model.DeadLetter}.
 */
sealed interface ScoringOutcome permits ScoringOutcome.Answer, ScoringOutcome.Pending {

    /** An outcome that is written now: one prediction, and a dead letter when the input is at fault. */
    sealed interface Answer extends ScoringOutcome permits Scored, ScoredPosterior, Unscored {

        /** The record for the predictions topic. */
        Prediction prediction();

        /** The status of {@link #prediction()}, without building the record. */
        Prediction.Status status();

        /** The reason of the dead letter that goes with the answer, or empty when the input is not set aside. */
        Optional<String> deadLetterReason();
    }

    /** A posterior under the model in force. */
    record Scored(Prediction prediction) implements Answer {

        public Scored {
            if (prediction.status() != Prediction.Status.SCORED) {
                throw new IllegalArgumentException("not a scored prediction: " + prediction);
            }
        }

        @Override
        public Prediction.Status status() {
            return Prediction.Status.SCORED;
        }

        @Override
        public Optional<String> deadLetterReason() {
            return Optional.empty();
        }
    }

    /**
     * A posterior in the common shape — every class listed, the default decision rule, nothing beyond the posterior —
     * kept as the array it was computed into: the scorer writes it with its task's {@link PosteriorWriter} (no
     * record, no map per event); {@link #prediction()} builds the same prediction as a record, for the other callers.
     * {@code probabilities}: p(k | x) in {@code template}'s label order, not modified after; {@code chosen}: the
     * predicted label's index; {@code outlier}: null when the scorer has no threshold.
     */
    record ScoredPosterior(String id, PosteriorWriter.Template template, int chosen, double[] probabilities,
                           double logDensity, Boolean outlier) implements Answer {

        @Override
        public Prediction prediction() {
            return template.prediction(id, chosen, probabilities, logDensity, outlier);
        }

        @Override
        public Prediction.Status status() {
            return Prediction.Status.SCORED;
        }

        /** The prediction's bytes on the predictions topic, written by {@code writer}. */
        byte[] write(PosteriorWriter writer) {
            return writer.write(template, id, chosen, probabilities, logDensity, outlier);
        }

        @Override
        public Optional<String> deadLetterReason() {
            return Optional.empty();
        }
    }

    /**
     * No posterior. {@code id}: the event's id, else its key as text, null when neither may appear on an output;
     * {@code model}: what the answer says about the model in force.
     */
    record Unscored(String id, UnscoredReason reason, ModelStamp model) implements Answer {

        public Unscored {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(model, "model");
        }

        @Override
        public Prediction prediction() {
            return Prediction.unscored(id, reason.text(), model.modelId(), model.version(), model.excluded(),
                    model.otherExcluded());
        }

        @Override
        public Prediction.Status status() {
            return Prediction.Status.UNSCORED;
        }

        @Override
        public Optional<String> deadLetterReason() {
            return reason.deadLettered() ? Optional.of(reason.text()) : Optional.empty();
        }
    }

    /** Held in the scorer's pending store until a model exists. */
    record Pending(PendingEvent event) implements ScoringOutcome {
    }

    /**
     * The model an unscored answer names: id and version of the model in force (both null when there is none)
     * and, when the answer is about the model's classes, the classes it leaves out (null when not stated).
     */
    record ModelStamp(String modelId, Long version, Map<String, String> excluded, Integer otherExcluded) {

        /** No model in force. */
        static final ModelStamp NONE = new ModelStamp(null, null, null, null);

        /** The model in force, if any, by id and version. */
        static ModelStamp of(Optional<CompiledModel> model) {
            return model.map(ModelStamp::of).orElse(NONE);
        }

        /** {@code model} by id and version. */
        static ModelStamp of(CompiledModel model) {
            return model.stamp(); // made once per model version
        }
    }
}
