package io.gdastreams.topology;

import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The newest record under the model id on the model topic, as the trainer reads it back (the global store
 * {@link TrainingTopology#PUBLISHED_STORE}; read only), with its decoding.
 */
final class ModelTopicView {

    private final String modelId;
    private final KeyValueStore<String, byte[]> store;
    /** The record as last decoded, and its decoding. */
    private byte[] decodedRecord;
    private Optional<PublishedModel> decoded = Optional.empty();

    ModelTopicView(String modelId, KeyValueStore<String, byte[]> store) {
        this.modelId = modelId;
        this.store = store;
    }

    /** The record's value; null when there is none. */
    byte[] record() {
        return store.get(modelId);
    }

    /** The record as a model of this id; empty when absent, a tombstone or not a valid model. */
    Optional<PublishedModel> latest() {
        byte[] record = record();
        // Decoded again only when the record changes (a model is megabytes at large d): the global store hands out
        // the stored array, so the same array means the same record.
        if (record != decodedRecord) {
            decodedRecord = record;
            decoded = PublishedModel.parse(modelId, record);
        }
        return decoded;
    }
}
