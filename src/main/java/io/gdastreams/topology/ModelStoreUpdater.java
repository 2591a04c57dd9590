package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Maintains the scorer's global model store from the compacted model topic, on every instance. The topic is
 * read as raw bytes and parsed strictly here ({@link io.gdastreams.serde.ModelSerde}), so that a malformed record
 * is counted and logged with its offset instead of failing the global thread; only the model that the
 * {@link CompiledModelCache} puts in force reaches the store, so a bad, conflicting or older record never replaces
 * the model in force, and a tombstone never deletes it.
 *
 * <p>Kafka Streams runs this processor again over the whole topic when it rebuilds the (in-memory) store at
 * start-up, so a restarted scorer ends with the last valid model on the topic even when newer records under the
 * key are invalid. Records for other model ids (one model topic may carry several models) are skipped.
 *
 * <p>With signing keys ({@link ModelSigning}), a record whose signature header is missing, names an unknown key or
 * does not match its bytes is refused like an invalid one (counted, logged with its version and key id).
 */
final class ModelStoreUpdater implements Processor<String, byte[], Void, Void> {

    private final CompiledModelCache cache;
    private final ModelSigning signing;
    private final Deserializer<ModelParameters> deserializer = SerdeFactory.model().deserializer();
    private KeyValueStore<String, ModelParameters> store;
    private ProcessorContext<Void, Void> context;

    ModelStoreUpdater(CompiledModelCache cache) {
        this(cache, ModelSigning.NONE);
    }

    /** An updater that refuses model records not signed by one of {@code signing}'s keys. */
    ModelStoreUpdater(CompiledModelCache cache, ModelSigning signing) {
        this.cache = cache;
        this.signing = signing;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        store = context.getStateStore(ScoringTopology.MODEL_STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String key = record.key();
        if (key == null || !key.equals(cache.modelId())) {
            return;
        }
        String source = source();
        if (record.value() == null) {
            cache.rejectInvalid(source, "tombstone (a model is never deleted; publish a new version instead)");
            return;
        }
        ModelParameters model;
        try {
            model = deserializer.deserialize(context.recordMetadata().map(RecordMetadata::topic).orElse(null),
                    record.value());
        } catch (RuntimeException e) {
            cache.rejectInvalid(source, String.valueOf(e.getMessage()));
            return;
        }
        // Verified after the strict parse only to name the version in the log: nothing of an unverified record is
        // used. The reason names the key id, never a key.
        String refusal = signing.refusal(record.value(), record.headers());
        if (refusal != null) {
            cache.rejectInvalid(source, "version " + model.version() + " refused: " + refusal);
            return;
        }
        try {
            if (cache.offer(model, source) == CompiledModelCache.Outcome.IN_FORCE) {
                store.put(key, model);
            }
        } catch (RuntimeException e) {
            // Not expected (the cache refuses bad models without throwing); never let it stop the global thread.
            cache.rejectInvalid(source, "unexpected failure: " + e);
        }
    }

    /** "topic-partition offset N" of the record being processed. */
    private String source() {
        return context.recordMetadata()
                .map(m -> m.topic() + "-" + m.partition() + " offset " + m.offset())
                .orElse("an unknown offset");
    }
}
