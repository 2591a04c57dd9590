package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.serde.SerdeFactory;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The category counts in the class-stats store: written through, read back, and refused when they do not fit. */
class PartitionStateCategoricalTest {

    private static final List<String> CATEGORICAL = List.of("student");
    private KeyValueStore<String, byte[]> store;

    @BeforeEach
    void store() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "state-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        MockProcessorContext<String, TrainingOutput> context = new MockProcessorContext<>(props, new TaskId(0, 0),
                null);
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TrainingTopology.CLASS_STATS_STORE),
                SerdeFactory.string(), SerdeFactory.rawBytes()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        PartitionState state = PartitionStates.load(store, 0, List.of("x"), CATEGORICAL);
        String[][] values = {{"Yes"}, {"No"}, {"Yes"}};
        for (int i = 0; i < values.length; i++) {
            state.update("a", new double[] {i}, values[i]);
            state.setProgress(state.progress().afterRecord(i, true));
        }
    }

    @Test
    void shouldReadTheCountsItWroteThrough() {
        PartitionState state = PartitionStates.load(store, 0, List.of("x"), CATEGORICAL);
        assertEquals(new TreeMap<>(Map.of("No", 1L, "Yes", 2L)), state.categories().get("a").counts(0));
        assertEquals(3, state.classes().get("a").count());
        assertTrue(state.hasValue(0, "No"));
        assertEquals(java.util.Set.of("No", "Yes"), state.values(0));
    }

    @Test
    void shouldRefuseToGoOnWhenTheCategoricalFeaturesChanged() {
        TrainingStateException none = assertThrows(TrainingStateException.class,
                () -> PartitionStates.load(store, 0, List.of("x"), List.of()));
        assertTrue(none.getMessage().contains("cannot change while a training holds events"), none.getMessage());
        assertThrows(TrainingStateException.class,
                () -> PartitionStates.load(store, 0, List.of("x"), List.of("student", "flag")));
    }

    @Test
    void shouldRefuseDamagedOrInconsistentCounts() {
        store.put("categories:a", new byte[] {1, 2, 3});
        TrainingStateException unreadable = assertThrows(TrainingStateException.class,
                () -> PartitionStates.load(store, 0, List.of("x"), CATEGORICAL));
        assertTrue(unreadable.getMessage().contains("unreadable category counts of class 'a'"),
                unreadable.getMessage());
        CategoryCounts two = new CategoryCounts(CATEGORICAL);
        two.update(new String[] {"Yes"});
        two.update(new String[] {"No"});
        store.put("categories:a", two.toBytes());
        TrainingStateException count = assertThrows(TrainingStateException.class,
                () -> PartitionStates.load(store, 0, List.of("x"), CATEGORICAL));
        assertTrue(count.getMessage().contains("class 'a' counts 3 events but its category counts 2"),
                count.getMessage());
        store.put("categories:b", two.toBytes());
        store.delete("categories:a");
        assertThrows(TrainingStateException.class, () -> PartitionStates.load(store, 0, List.of("x"), CATEGORICAL));
    }
}
