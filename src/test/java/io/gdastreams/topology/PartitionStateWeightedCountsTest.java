package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * Weighted events without forgetting ({@code gda.forgetting.half.life.ms} unset): the category counts take the
 * event's weight as the statistics do, in memory and in the store.
 */
class PartitionStateWeightedCountsTest {

    private static final List<String> FEATURES = List.of("x");
    private static final List<String> CATEGORICAL = List.of("student");
    /** Weighted means of small integers with weights of a few binary digits: exact but for a rounding or two. */
    private static final double HAND_TOLERANCE = 1e-12;

    @Test
    void theCategoryCountsOfAWeightedEventTakeItsWeight() {
        KeyValueStore<String, byte[]> store = PartitionStates.store();
        PartitionState state = PartitionStates.load(store, 0, FEATURES, CATEGORICAL);
        double[] xs = {1, 3, 5};
        String[] values = {"Yes", "No", "Yes"};
        double[] weights = {2.0, 0.5, 1.5};
        for (int i = 0; i < xs.length; i++) {
            state.updateWeighted("a", new double[] {xs[i]}, new String[] {values[i]}, weights[i], 1_000L * i, null);
            state.setProgress(state.progress().afterRecord(i, true));
        }

        assertWeighted(state);
        assertWeighted(PartitionStates.load(store, 0, FEATURES, CATEGORICAL));
    }

    private static void assertWeighted(PartitionState s) {
        CategoryCounts counts = s.categories().get("a");
        assertEquals(3, counts.count());
        assertEquals(4.0, counts.weight(), HAND_TOLERANCE, "2 + 0.5 + 1.5");
        assertEquals(new TreeMap<>(Map.of("No", 1L, "Yes", 2L)), counts.counts(0));
        assertEquals(new TreeMap<>(Map.of("No", 0.5, "Yes", 3.5)), counts.weights(0));
        RunningGaussian a = s.classes().get("a");
        assertEquals(4.0, a.weight(), HAND_TOLERANCE);
        assertEquals(2.75, a.mean()[0], HAND_TOLERANCE, "(2·1 + 0.5·3 + 1.5·5) / 4");
    }
}
