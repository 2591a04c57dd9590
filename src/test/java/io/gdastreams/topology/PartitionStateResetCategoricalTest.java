package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.model.ResetGeneration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * A drift reset ({@link PartitionState#startGeneration}) under categorical features: the category counts and the
 * values known to the partition restart with the new generation as the statistics do, so that the counts of the
 * next event of a class are of that event alone and a value of the old regime no longer counts towards
 * {@code gda.categorical.max.values}; a reload reads the same.
 */
class PartitionStateResetCategoricalTest {

    private static final List<String> FEATURES = List.of("x");
    private static final List<String> CATEGORICAL = List.of("student");

    @Test
    void theCategoryCountsAndValuesRestartWithTheNewGeneration() {
        KeyValueStore<String, byte[]> store = PartitionStates.store();
        PartitionState state = PartitionStates.load(store, 0, FEATURES, CATEGORICAL);
        state.update("a", new double[] {1}, new String[] {"Yes"});
        state.setProgress(state.progress().afterRecord(0, true));
        state.update("a", new double[] {2}, new String[] {"No"});
        state.setProgress(state.progress().afterRecord(1, true));
        state.update("b", new double[] {3}, new String[] {"No"});
        state.setProgress(state.progress().afterRecord(2, true));
        state.startGeneration(1, 3);
        state.update("a", new double[] {7}, new String[] {"Maybe"});
        state.setProgress(state.progress().afterRecord(3, true));

        assertGenerationOneHoldsOnlyItsEvent(state);
        assertGenerationOneHoldsOnlyItsEvent(PartitionStates.load(store, 0, FEATURES, CATEGORICAL));
    }

    private static void assertGenerationOneHoldsOnlyItsEvent(PartitionState s) {
        assertEquals(new ResetGeneration(1, 3), s.generation(), "the 3 events of generation 0 dropped");
        assertEquals(Set.of("a"), s.categories().keySet(), "b has no event of generation 1");
        CategoryCounts a = s.categories().get("a");
        assertEquals(1, a.count());
        assertEquals(new TreeMap<>(Map.of("Maybe", 1L)), a.counts(0), "only the event of generation 1");
        assertEquals(1, s.classes().get("a").count());
        assertEquals(Set.of("Maybe"), s.values(0));
        assertFalse(s.hasValue(0, "Yes"), "a value of the old regime only");
    }
}
