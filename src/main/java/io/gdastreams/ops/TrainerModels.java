package io.gdastreams.ops;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The model a trainer's figures describe: the newest of its model id on the model topic, whichever instance of the
 * application published it. Only the instance that holds the combiner publishes; without this the others said "no
 * model published yet", and one that lost the combiner went on showing its last model with a growing age. The
 * topic's record comes as bytes from the trainer's view of the topic (signature checked) and is read here once per
 * record, when a figure is asked for, not on the stream thread: a model can be megabytes of JSON.
 */
final class TrainerModels {

    private final String modelId;
    private final AtomicReference<ModelParameters> own = new AtomicReference<>();
    private final AtomicReference<byte[]> onTopic = new AtomicReference<>();
    private byte[] readFrom;
    private ModelParameters read;

    /** @param modelId the model id the trainer publishes; null: take a record of any id (tests) */
    TrainerModels(String modelId) {
        this.modelId = modelId;
    }

    /** This process published {@code model}. */
    void published(ModelParameters model) {
        own.set(model);
    }

    /** The model topic's newest record of the model id is now {@code record} (empty bytes: a tombstone). */
    void onTopic(byte[] record) {
        onTopic.set(record);
    }

    /**
     * The newer of this process's last published model and the newest valid model the topic had: a record that is
     * no model of this id (a tombstone, unreadable; one refused by its signature is not passed on) changes nothing,
     * the trainer publishes its own over it.
     */
    synchronized Optional<ModelParameters> newest() {
        byte[] record = onTopic.get();
        if (record != readFrom) {
            readFrom = record;
            ModelParameters model = valid(record);
            read = model != null ? model : read;
        }
        ModelParameters mine = own.get();
        if (read == null || (mine != null && mine.version() > read.version())) {
            return Optional.ofNullable(mine);
        }
        return Optional.of(read);
    }

    private ModelParameters valid(byte[] record) {
        if (record == null || record.length == 0) {
            return null;
        }
        try {
            ModelParameters model = SerdeFactory.model().deserializer().deserialize(null, record);
            return model != null && model.isPublishedAs(modelId == null ? model.modelId() : modelId) ? model : null;
        } catch (RuntimeException e) {
            return null; // not a model: the trainer publishes its own over it
        }
    }
}
