package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.PartitionProgress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * The prequential state rides in the {@code progress} entry of the class-stats store ({@link ProgressCounters},
 * format 2): the counters as before with byte 2 first, then the evaluator's state, written by every progress write
 * as it is at that write; a state loaded from the store gives it back; with no evaluator attached (gda.prequential
 * off) it is kept as it was; and a progress of format 1 (the previous release's, 29 bytes) still loads, with none.
 */
class PartitionStatePrequentialTest {

    private static final List<String> FEATURES = List.of("x");
    private static final PrequentialSettings SETTINGS =
            PrequentialSettings.defaults(Duration.ofSeconds(1)).withDrift(0.05, 50);

    private static KeyValueStore<String, byte[]> store() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "partition-state-prequential-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return CombinerFixtures.store(new MockProcessorContext<>(props, new TaskId(0, 3), null),
                TrainingTopology.CLASS_STATS_STORE);
    }

    /** The progress entry as documented, built by hand: format byte, partition, next offset, applied, dead letters. */
    private static byte[] counters(int format, PartitionProgress p, byte[] tail) {
        ByteBuffer out = ByteBuffer.allocate(29 + (tail == null ? 0 : tail.length)).put((byte) format)
                .putInt(p.partition()).putLong(p.nextOffset()).putLong(p.applied()).putLong(p.deadLettered());
        if (tail != null) {
            out.put(tail);
        }
        return out.array();
    }

    /** Events of offsets 0..n−1, each observed (no model: counted as such) and applied, as the processor does. */
    private static void process(PartitionState state, PrequentialEvaluator evaluator, int from, int to) {
        for (int offset = from; offset < to; offset++) {
            evaluator.observe("a", 400L * offset, null, m -> null, 0, 0, true);
            state.update("a", new double[] {offset});
            state.setProgress(state.progress().afterRecord(offset, true));
        }
    }

    @Test
    void theProgressEntryIsTheCountersFollowedByTheStateOfTheLastEvent() {
        KeyValueStore<String, byte[]> store = store();
        PartitionState state = PartitionStates.load(store, 3, FEATURES);
        assertNull(state.loadedTail());
        PrequentialEvaluator evaluator = new PrequentialEvaluator("m", SETTINGS, 3, state.loadedTail(), null);
        state.attachTail(evaluator);
        state.setProgress(state.progress()); // nothing observed yet: nothing stored after the counters
        assertArrayEquals(counters(1, state.progress(), null), store.get(PartitionState.PROGRESS_KEY));

        for (int offset = 0; offset < 7; offset++) {
            process(state, evaluator, offset, offset + 1);
            byte[] expected = counters(2, new PartitionProgress(3, offset + 1, offset + 1, 0, FEATURES),
                    evaluator.stateBytes());
            assertArrayEquals(expected, store.get(PartitionState.PROGRESS_KEY), "the progress after event " + offset);
        }
        PrequentialStateBytes.Decoded stored = PrequentialStateBytes.decode(evaluator.stateBytes());
        assertEquals(2000, stored.window().start, "events at 0, 400, …, 2400 ms: the open window is [2000, 3000)");
        assertEquals(2, stored.window().noModel);

        PartitionState reloaded = PartitionStates.load(store, 3, FEATURES);
        assertEquals(state.progress(), reloaded.progress());
        assertArrayEquals(evaluator.stateBytes(), reloaded.loadedTail());
    }

    @Test
    void withNoEvaluatorAttachedTheStoredStateIsKeptAsItWas() {
        KeyValueStore<String, byte[]> store = store();
        PartitionState state = PartitionStates.load(store, 3, FEATURES);
        PrequentialEvaluator evaluator = new PrequentialEvaluator("m", SETTINGS, 3, null, null);
        state.attachTail(evaluator);
        process(state, evaluator, 0, 5);
        byte[] prequential = evaluator.stateBytes();

        PartitionState withoutPrequential = PartitionStates.load(store, 3, FEATURES);
        withoutPrequential.update("a", new double[] {5});
        withoutPrequential.setProgress(withoutPrequential.progress().afterRecord(5, true));
        assertArrayEquals(counters(2, new PartitionProgress(3, 6, 6, 0, FEATURES), prequential),
                store.get(PartitionState.PROGRESS_KEY));

        // Turned on again, the evaluator resumes from it.
        PrequentialEvaluator resumed = new PrequentialEvaluator("m", SETTINGS, 3,
                PartitionStates.load(store, 3, FEATURES).loadedTail(), null);
        assertArrayEquals(prequential, resumed.stateBytes());
    }

    @Test
    void aProgressOfThePreviousReleaseLoadsWithNoPrequentialState() {
        KeyValueStore<String, byte[]> store = store();
        PartitionState state = PartitionStates.load(store, 3, FEATURES);
        state.update("a", new double[] {1});
        state.setProgress(state.progress().afterRecord(0, true));
        PartitionProgress one = new PartitionProgress(3, 1, 1, 0, FEATURES);
        store.put(PartitionState.PROGRESS_KEY, counters(1, one, null)); // exactly as the previous release wrote it

        PartitionState loaded = PartitionStates.load(store, 3, FEATURES);
        assertEquals(one, loaded.progress());
        assertNull(loaded.loadedTail());
    }

    @Test
    void aProgressOfTheWrongLengthForItsFormatIsDamage() {
        PartitionProgress none = PartitionProgress.start(3, FEATURES);
        byte[] formatTwoWithoutTail = counters(2, none, null);
        byte[] formatOneWithTail = counters(1, none, new byte[] {0, 0, 0, 3});
        byte[] cut = Arrays.copyOf(counters(1, none, null), 28);
        for (byte[] value : List.of(formatTwoWithoutTail, formatOneWithTail, cut)) {
            KeyValueStore<String, byte[]> store = store();
            store.put(PartitionState.PROGRESS_KEY, value);
            TrainingStateException e = assertThrows(TrainingStateException.class,
                    () -> PartitionStates.load(store, 3, FEATURES));
            assertTrue(e.getMessage().contains("unreadable progress"), e.getMessage());
        }
    }
}
