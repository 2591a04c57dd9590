package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * One record under the model id on the model topic, as a training task read it from its global store, decoded once:
 * {@link PublishedModelView} (labels, values, generation) and {@link PrequentialModel} (the model in force) both
 * read this one decoding instead of each decoding the record again.
 *
 * @param bytes the record as the store returned it (null: none; compared by identity to tell a new record)
 * @param model the record as a model of the task's model id, or null (none, a tombstone, another id, unreadable)
 * @param unreadable why the record could not be decoded, or null
 */
record PublishedRecord(byte[] bytes, ModelParameters model, String unreadable) {

    static final PublishedRecord NONE = new PublishedRecord(null, null, null);

    /** Decodes {@code bytes} as a model of {@code modelId}; never throws. */
    static PublishedRecord decode(String modelId, byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return new PublishedRecord(bytes, null, null);
        }
        try {
            Deserializer<ModelParameters> reader = SerdeFactory.model().deserializer();
            ModelParameters model = reader.deserialize(null, bytes);
            return new PublishedRecord(bytes, model != null && modelId.equals(model.modelId()) ? model : null, null);
        } catch (RuntimeException e) {
            return new PublishedRecord(bytes, null, String.valueOf(e.getMessage()));
        }
    }
}
