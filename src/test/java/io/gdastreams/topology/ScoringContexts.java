package io.gdastreams.topology;

import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.io.IOException;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** A scoring task's context with its stores, for tests that drive ScoringProcessor directly, and its outputs. */
final class ScoringContexts {

    private ScoringContexts() {
    }

    /** Task 0_0 of application "scoring-processor-test", with an empty hold and an empty model store. */
    static MockProcessorContext<byte[], Object> context() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "scoring-processor-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        MockProcessorContext<byte[], Object> context = new MockProcessorContext<>(props, new TaskId(0, 0), null);
        KeyValueStore<byte[], byte[]> pending = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(ScoringTopology.PENDING_STORE), SerdeFactory.rawBytes(),
                SerdeFactory.rawBytes()).withLoggingDisabled().build();
        pending.init(context.getStateStoreContext(), pending);
        context.addStateStore(pending);
        var models = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(ScoringTopology.MODEL_STORE),
                SerdeFactory.string(), SerdeFactory.model()).withLoggingDisabled().build();
        models.init(context.getStateStoreContext(), models);
        context.addStateStore(models);
        return context;
    }

    /** The wall-clock punctuator (held events' release) of the processor last initialised over {@code context}. */
    static Punctuator lastPunctuator(MockProcessorContext<byte[], Object> context) {
        var punctuators = context.scheduledPunctuators();
        return punctuators.get(punctuators.size() - 1).getPunctuator();
    }

    /** The predictions forwarded to {@code context} (dead letters left out), in order. */
    static List<Prediction> predictions(MockProcessorContext<byte[], Object> context) {
        return context.forwarded().stream()
                .filter(f -> ScoringTopology.PREDICTIONS_SINK.equals(f.childName().orElse(null)))
                .map(f -> prediction(f.record().value())).toList();
    }

    /** A forwarded prediction: the record, or the bytes the task's writer made of a common scored one. */
    static Prediction prediction(Object value) {
        try {
            return value instanceof byte[] bytes ? Json.mapper().readValue(bytes, Prediction.class)
                    : (Prediction) value;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
