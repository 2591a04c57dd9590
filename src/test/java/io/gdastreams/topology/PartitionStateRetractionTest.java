package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * A retraction is written through like an update: when it is the last change of its class, the store alone must hold
 * it, so a reload (what a task does after every restore, revival or recycling) shows the retracted statistics and
 * category counts, not those from before it.
 */
class PartitionStateRetractionTest {

    private static final List<String> FEATURES = List.of("x");
    private static final List<String> CATEGORICAL = List.of("student");
    /** Means of a few small integers after one exact downdate: a few roundings at most. */
    private static final double HAND_TOLERANCE = 1e-12;

    @Test
    void aRetractionThatIsItsClassLastChangeSurvivesAReload() {
        KeyValueStore<String, byte[]> store = PartitionStates.store();
        PartitionState state = PartitionStates.load(store, 0, FEATURES, CATEGORICAL);
        state.update("a", new double[] {1}, new String[] {"Yes"});
        state.setProgress(state.progress().afterRecord(0, true));
        state.update("a", new double[] {2}, new String[] {"No"});
        state.setProgress(state.progress().afterRecord(1, true));
        state.update("a", new double[] {6}, new String[] {"Yes"});
        state.setProgress(state.progress().afterRecord(2, true));
        // Takes back the event of offset 2: class a is (1, Yes), (2, No) again, and this is its last change.
        assertNull(state.retract("a", new double[] {6}, new String[] {"Yes"}, 1.0, 0, null));
        state.setProgress(state.progress().afterRecord(3, true));
        // Another class changes after it: its write must not be what carries a's retraction.
        state.update("b", new double[] {10}, new String[] {"No"});
        state.setProgress(state.progress().afterRecord(4, true));

        PartitionState reloaded = PartitionStates.load(store, 0, FEATURES, CATEGORICAL);
        RunningGaussian a = reloaded.classes().get("a");
        assertEquals(2, a.count(), "3 added, 1 retracted");
        assertEquals(1, a.retractions());
        assertEquals(2.0, a.weight(), HAND_TOLERANCE);
        assertEquals(1.5, a.mean()[0], HAND_TOLERANCE, "the mean of 1 and 2");
        CategoryCounts counts = reloaded.categories().get("a");
        assertEquals(2, counts.count());
        assertEquals(new TreeMap<>(Map.of("No", 1L, "Yes", 1L)), counts.counts(0), "one Yes retracted of two");
        assertEquals(new TreeMap<>(Map.of("No", 1.0, "Yes", 1.0)), counts.weights(0));
        assertEquals(5, reloaded.progress().applied(), "4 adds and the retraction");
        assertEquals(10.0, reloaded.classes().get("b").mean()[0], HAND_TOLERANCE);
    }
}
