package io.gdastreams.topology;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the trainer's view of the model topic: the latest record under its model id, as raw bytes, in a global
 * store ({@link TrainingTopology#PUBLISHED_STORE}). Kafka Streams rebuilds the store from the topic before
 * processing starts, so a (re)started trainer knows what it, or anyone else, published last. A tombstone is kept
 * as an empty value (a delete would look like "nothing was ever published"). The combiner and the partition
 * tasks judge the record ({@link PublishedModel#parse}); nothing here can fail on bad bytes. With signing keys, a
 * record not signed by one of them is never adopted: {@link #REFUSED} is kept in its place.
 */
final class PublishedModelTracker implements Processor<String, byte[], Void, Void> {

    static final byte[] TOMBSTONE = new byte[0];
    /**
     * Kept for a record refused by its signature: not JSON, so it reads as "not a valid model", and the combiner
     * publishes its own (signed) model over it, as over any record that is not its last model.
     */
    static final byte[] REFUSED = {0};
    private static final Logger LOG = LoggerFactory.getLogger(PublishedModelTracker.class);

    private final String modelId;
    private final ModelSigning signing;
    private KeyValueStore<String, byte[]> store;

    private final StreamObserver observer;

    PublishedModelTracker(String modelId) {
        this(modelId, ModelSigning.NONE, StreamObserver.NONE);
    }

    PublishedModelTracker(String modelId, ModelSigning signing, StreamObserver observer) {
        this.modelId = modelId;
        this.signing = signing;
        this.observer = observer;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(TrainingTopology.PUBLISHED_STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (!modelId.equals(record.key())) {
            return;
        }
        if (record.value() == null) {
            store.put(modelId, TOMBSTONE);
            observer.modelRecordSeen(TOMBSTONE);
            return;
        }
        String refusal = signing.refusal(record.value(), record.headers());
        if (refusal != null) {
            LOG.warn("Model topic record for model '{}' refused: {}; publishing this trainer's model over it",
                    modelId, refusal);
            store.put(modelId, REFUSED);
            return;
        }
        store.put(modelId, record.value());
        observer.modelRecordSeen(record.value());
    }
}
