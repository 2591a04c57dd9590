package io.gdastreams.topology;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the trainer's view of the model topic: the latest record under its model id, as raw bytes, in a global
 * store ({@link TrainingTopology#PUBLISHED_STORE}). Kafka Streams rebuilds the store from the topic before
 * processing starts, so a (re)started trainer knows what it, or anyone else, published last. A tombstone is kept
 * as an empty value (a delete would look like "nothing was ever published"). The combiner and the partition
 * tasks judge the record ({@link PublishedModel#parse}); nothing here can fail on bad bytes.
 */
final class PublishedModelTracker implements Processor<String, byte[], Void, Void> {

    static final byte[] TOMBSTONE = new byte[0];

    private final String modelId;
    private KeyValueStore<String, byte[]> store;

    PublishedModelTracker(String modelId) {
        this.modelId = modelId;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(TrainingTopology.PUBLISHED_STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (modelId.equals(record.key())) {
            store.put(modelId, record.value() == null ? TOMBSTONE : record.value());
        }
    }
}
