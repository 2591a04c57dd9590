package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * A valid model record as found on the model topic, with its exact bytes (for identity checks).
 *
 * @param model the decoded model
 * @param bytes the record value (not copied; not modified)
 */
record PublishedModel(ModelParameters model, byte[] bytes) {

    /** The record as a model of {@code modelId}, or empty when it is absent, a tombstone or not a valid model. */
    static Optional<PublishedModel> parse(String modelId, byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return Optional.empty();
        }
        try {
            ModelParameters model = SerdeFactory.model().deserializer().deserialize(null, bytes);
            if (model == null || !modelId.equals(model.modelId()) || model.version() < 1 || model.sources() == null) {
                return Optional.empty();
            }
            return Optional.of(new PublishedModel(model, bytes));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    long version() {
        return model.version();
    }

    boolean publishedBy(String applicationId) {
        return applicationId.equals(model.trainer());
    }

    boolean sameBytes(byte[] other) {
        return Arrays.equals(bytes, other);
    }

    /**
     * Why {@code candidate} would go backwards from this model, or null: a partition this model absorbed up to
     * offset n must be absorbed at least up to n, and the total count must not shrink.
     */
    String regressionOf(ModelParameters candidate) {
        for (Map.Entry<String, Long> absorbed : model.sources().entrySet()) {
            Long now = candidate.sources().get(absorbed.getKey());
            if (now != null && now < absorbed.getValue()) {
                return "partition " + absorbed.getKey() + " would go back from offset " + absorbed.getValue()
                        + " (version " + version() + ") to " + now;
            }
        }
        if (missingPartitions(candidate).isEmpty() && candidate.totalCount() < model.totalCount()) {
            return "the total count would go back from " + model.totalCount() + " (version " + version() + ") to "
                    + candidate.totalCount();
        }
        return null;
    }

    /** Partitions this model absorbed that {@code candidate} has no snapshot of (yet). */
    java.util.Set<String> missingPartitions(ModelParameters candidate) {
        java.util.Set<String> missing = new java.util.TreeSet<>(model.sources().keySet());
        missing.removeAll(candidate.sources().keySet());
        return missing;
    }
}
