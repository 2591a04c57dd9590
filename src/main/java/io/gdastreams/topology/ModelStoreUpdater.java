package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maintains the scorer's global model store from the compacted model topic, on every instance. The topic is
 * read as raw bytes so that a malformed record is logged and ignored here instead of failing the global
 * thread; only models that compile reach the store and the compiled-model cache, so a bad record never
 * replaces the model in force. Kafka Streams also runs this processor when it rebuilds the store on start-up.
 *
 * <p>Records for other model ids (one model topic may carry several models) are skipped. A tombstone is logged
 * and ignored: the last good model keeps serving until a new one is published.
 */
final class ModelStoreUpdater implements Processor<String, byte[], Void, Void> {

    private static final Logger LOG = LoggerFactory.getLogger(ModelStoreUpdater.class);

    private final CompiledModelCache cache;
    private final Deserializer<ModelParameters> deserializer = SerdeFactory.model().deserializer();
    private KeyValueStore<String, ModelParameters> store;
    private ProcessorContext<Void, Void> context;

    ModelStoreUpdater(CompiledModelCache cache) {
        this.cache = cache;
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
        try {
            if (record.value() == null) {
                LOG.warn("Ignoring tombstone for model '{}'; the model in force stays", key);
                return;
            }
            ModelParameters model = deserializer.deserialize(
                    context.recordMetadata().map(RecordMetadata::topic).orElse(null), record.value());
            if (model == null) {
                LOG.warn("Ignoring JSON null published as model '{}'", key);
                return;
            }
            if (cache.offer(model)) {
                store.put(key, model);
            }
        } catch (RuntimeException e) {
            LOG.warn("Ignoring unreadable record for model '{}': {}", key, e.getMessage());
        }
    }
}
