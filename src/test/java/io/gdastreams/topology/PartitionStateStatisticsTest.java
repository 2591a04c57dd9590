package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.PartitionProgress;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * A training task's state under {@code gda.statistics}: new classes of the configured kind, written through in their
 * binary form; a change of the key with state kept (full → diagonal goes on, diagonal → full is refused).
 */
class PartitionStateStatisticsTest {

    private static final List<String> FEATURES = List.of("x", "y");

    private static KeyValueStore<String, byte[]> store() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "partition-state-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return CombinerFixtures.store(new MockProcessorContext<>(props, new TaskId(0, 0), null),
                TrainingTopology.CLASS_STATS_STORE);
    }

    /** Class a: (1, 2), (3, 6), written through with its progress. */
    private static void train(KeyValueStore<String, byte[]> store, Statistics statistics) {
        PartitionState state = PartitionStates.load(store, 0, FEATURES, List.of(), statistics);
        state.update("a", new double[] {1, 2});
        state.update("a", new double[] {3, 6});
        state.setProgress(new PartitionProgress(0, 2, 2, 0, FEATURES));
    }

    @Test
    void newClassesAreOfTheConfiguredKind() {
        KeyValueStore<String, byte[]> store = store();
        train(store, Statistics.DIAGONAL);
        byte[] stored = store.get(PartitionState.CLASS_KEY_PREFIX + "a");
        assertEquals(3, stored[0], "RunningGaussian version 3");
        RunningGaussian a = PartitionStates.load(store, 0, FEATURES, List.of(), Statistics.DIAGONAL).classes().get("a");
        assertTrue(a.isDiagonal());
        assertArrayEquals(new double[] {2, 0}, a.scatter()[0], 0.0);
        assertArrayEquals(new double[] {0, 8}, a.scatter()[1], 0.0);
    }

    @Test
    void fullStateGoesOnAsItsDiagonal() {
        KeyValueStore<String, byte[]> store = store();
        train(store, Statistics.FULL);
        assertEquals(1, store.get(PartitionState.CLASS_KEY_PREFIX + "a")[0]);
        PartitionState state = PartitionStates.load(store, 0, FEATURES, List.of(), Statistics.DIAGONAL);
        RunningGaussian a = state.classes().get("a");
        assertTrue(a.isDiagonal());
        // S = [[2, 4], [4, 8]] kept as its diagonal.
        assertArrayEquals(new double[] {2, 0}, a.scatter()[0], 0.0);
        assertArrayEquals(new double[] {0, 8}, a.scatter()[1], 0.0);
        state.update("a", new double[] {5, 4});
        assertEquals(3, store.get(PartitionState.CLASS_KEY_PREFIX + "a")[0], "rewritten as diagonal");
    }

    @Test
    void diagonalStateIsRefusedUnderFullStatistics() {
        KeyValueStore<String, byte[]> store = store();
        train(store, Statistics.DIAGONAL);
        TrainingStateException e = assertThrows(TrainingStateException.class,
                () -> PartitionStates.load(store, 0, FEATURES, List.of(), Statistics.FULL));
        assertTrue(e.getMessage().startsWith("partition 0: class 'a' has diagonal statistics"), e.getMessage());
        // The state is sound; the configuration cannot read it: the service stops at once instead of rebuilding it.
        assertFalse(e.rebuildMayHelp());
        assertTrue(new TrainingStateException("a contradiction").rebuildMayHelp());
        assertFalse(PartitionStates.load(store, 0, FEATURES, List.of(), Statistics.DIAGONAL).classes().isEmpty());
    }

    @Test
    void anUpdateThatThrowsLeavesNoClassBehind() {
        // The processor dead-letters the event and goes on: a class of no event must be neither cached nor stored
        // (it would count towards gda.max.classes and go out in the next snapshot with no observation).
        KeyValueStore<String, byte[]> store = store();
        PartitionState state = PartitionStates.load(store, 0, FEATURES, List.of("colour"), Statistics.FULL);
        String[] red = {"red"};
        assertThrows(IllegalArgumentException.class, () -> state.update("b", new double[] {1, 2, 3}, red));
        assertThrows(IllegalArgumentException.class,
                () -> state.updateWeighted("c", new double[] {1, 2}, red, Double.NaN, 0, null));
        assertFalse(state.hasClass("b") || state.hasClass("c"));
        assertTrue(state.categories().isEmpty());
        assertFalse(state.hasValue(0, "red"));
        assertEquals(null, store.get(PartitionState.CLASS_KEY_PREFIX + "b"));
        state.update("b", new double[] {1, 2}, red);
        assertEquals(List.of("b"), List.copyOf(state.classes().keySet()));
        assertEquals(1L, state.classes().get("b").count());
    }
}
