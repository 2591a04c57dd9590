package io.gdastreams.topology;

import io.gdastreams.serde.SerdeFactory;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** A task's prequential store outside a topology, for tests that drive a {@link PrequentialEvaluator} directly. */
final class PrequentialStores {

    private PrequentialStores() {
    }

    /** An empty in-memory {@link TrainingTopology#PREQUENTIAL_STORE} of task 0_0, without a changelog. */
    static KeyValueStore<String, byte[]> inMemory(String applicationId) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        MockProcessorContext<String, TrainingOutput> context = new MockProcessorContext<>(props, new TaskId(0, 0),
                null);
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(TrainingTopology.PREQUENTIAL_STORE), SerdeFactory.string(),
                SerdeFactory.rawBytes()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }
}
