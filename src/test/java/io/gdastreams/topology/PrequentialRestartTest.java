package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * The prequential state in the store is all a restarted task needs: an evaluator made afresh from the store after
 * any event (what a task does after a restart, from the state of the last commit, which under exactly-once is the
 * state after the last committed event) continues exactly as one that ran through, to every window and drift
 * record and every stored byte. And the stored form ({@link PrequentialStateBytes}) is the documented layout:
 * layout 1 (the window alone, the drift state under a key of its own) as the earlier code wrote it, built here by
 * hand, still loads, and its drift key goes at the first write.
 */
class PrequentialRestartTest {

    private static final PrequentialSettings SETTINGS =
            PrequentialSettings.defaults(Duration.ofSeconds(1)).withDrift(0.05, 50);
    /** Here both tasks take up a newer reset generation (the drift test restarts). */
    private static final int RESTART_DETECTOR_AT = 250;
    /** The model in force feeds the drift test from this event on (before it, the warm-up pauses the test). */
    private static final int WARMED_UP_FROM = 30;

    private static KeyValueStore<String, byte[]> store() {
        return PrequentialStores.inMemory("restart-test");
    }

    @Test
    void anEvaluatorMadeFromTheStoreAfterAnyEventContinuesExactlyAsOneThatRanThrough() {
        PrequentialModel models = new PrequentialModel("m", SETTINGS);
        KeyValueStore<String, byte[]> throughStore = store();
        KeyValueStore<String, byte[]> restartedStore = store();
        PrequentialEvaluator through = new PrequentialEvaluator("m", SETTINGS, 0, throughStore);
        List<String> records = new ArrayList<>();
        for (IrisPrequentialStream.Event e : IrisPrequentialStream.events()) {
            int i = e.index();
            String label = e.label();
            long timestamp = e.timestamp();
            CompiledModel model = models.of(e.model());
            double[] x = e.row().x();
            PrequentialEvaluator.Scorer scorer = m -> m.posterior(x, new double[m.labels().size()]);

            // The restart: everything in memory is lost, the new evaluator has only the store.
            PrequentialEvaluator restarted = new PrequentialEvaluator("m", SETTINGS, 0, restartedStore);
            if (i == RESTART_DETECTOR_AT) {
                through.restartDetector();
                restarted.restartDetector();
            }
            boolean warmedUp = i >= WARMED_UP_FROM;
            PrequentialEvaluator.Observation expected =
                    through.observe(label, timestamp, model, scorer, 0, 0, warmedUp);
            PrequentialEvaluator.Observation actual =
                    restarted.observe(label, timestamp, model, scorer, 0, 0, warmedUp);

            assertEquals(expected, actual, "records of event " + i);
            assertArrayEquals(throughStore.get("window:m"), restartedStore.get("window:m"), "state after event " + i);
            records.addAll(expected.records());
        }
        String all = String.join("\n", records);
        assertTrue(all.contains("\"noModel\":"), "windows of no model");
        assertTrue(all.contains("\"late\":1"), "late events");
        assertTrue(all.contains("\"unknown\""), "an unknown class");
        assertTrue(all.contains("\"modelVersions\":[1,2]"), "a window scored by both versions");
        assertTrue(all.contains("\"type\":\"drift\""), "a drift alarm");
    }

    /** A window of two labels with known sums, and a drift state, by hand. */
    private static PrequentialWindow window() {
        PrequentialWindow w = new PrequentialWindow(60_000);
        w.add("b", true, 0.25, 0.5, 3);
        w.add("a", false, 1.5, 1.25, 4);
        w.add("a", true, 0.125, 0.0625, 3);
        w.noModel = 2;
        w.unscorable = 1;
        w.late = 5;
        return w;
    }

    /** Layout 1 exactly as the earlier code wrote it (DataOutputStream, writeUTF for the labels). */
    private static byte[] layoutOne() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(1);
            out.writeLong(60_000);
            out.writeLong(3); // count
            out.writeLong(2); // correct
            out.writeDouble(0.25 + 1.5 + 0.125);
            out.writeDouble(0.5 + 1.25 + 0.0625);
            out.writeLong(2);
            out.writeLong(1);
            out.writeLong(5);
            out.writeLong(3); // versions
            out.writeLong(4);
            out.writeInt(2);
            out.writeUTF("a");
            out.writeLong(2);
            out.writeLong(1);
            out.writeUTF("b");
            out.writeLong(1);
            out.writeLong(1);
        }
        return bytes.toByteArray();
    }

    private static byte[] doubles(double... values) {
        ByteBuffer buffer = ByteBuffer.allocate(values.length * Double.BYTES);
        for (double v : values) {
            buffer.putDouble(v);
        }
        return buffer.array();
    }

    @Test
    void layoutTwoIsLayoutOneWithItsNumberAndTheDriftStateAfterIt() throws IOException {
        byte[] one = layoutOne();
        double[] drift = {7, 0.5, -1.25, -2};
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(new byte[] {0, 0, 0, 2});
        expected.write(one, 4, one.length - 4);
        expected.write(1);
        expected.write(doubles(drift));
        assertArrayEquals(expected.toByteArray(), PrequentialStateBytes.encode(window(), drift));

        byte[] noDrift = PrequentialStateBytes.encode(window(), null);
        assertEquals(one.length + 1, noDrift.length);
        assertEquals(0, noDrift[noDrift.length - 1]);

        PrequentialStateBytes.Decoded back = PrequentialStateBytes.decode(expected.toByteArray());
        assertArrayEquals(drift, back.drift(), 0.0);
        assertArrayEquals(expected.toByteArray(), PrequentialStateBytes.encode(back.window(), back.drift()));
        assertNull(PrequentialStateBytes.decode(noDrift).drift());
        assertEquals(window().toRecord("m", 0, 1000), back.window().toRecord("m", 0, 1000));
    }

    @Test
    void aDamagedValueIsRefused() throws IOException {
        byte[] two = PrequentialStateBytes.encode(window(), null);
        assertThrows(IllegalStateException.class, () -> PrequentialStateBytes.decode(Arrays.copyOf(two, 20)));
        byte[] longer = Arrays.copyOf(two, two.length + 1);
        assertThrows(IllegalStateException.class, () -> PrequentialStateBytes.decode(longer));
        byte[] unknown = two.clone();
        unknown[3] = 3;
        assertThrows(IllegalStateException.class, () -> PrequentialStateBytes.decode(unknown));
    }

    @Test
    void aLayoutOneStoreLoadsWithItsDriftStateAndLosesTheOldKeyAtTheFirstWrite() throws IOException {
        double[] drift = {60, 0.75, 3.5, -0.5};
        KeyValueStore<String, byte[]> old = store();
        old.put("window:m", layoutOne());
        old.put("page-hinkley:m", doubles(drift));
        KeyValueStore<String, byte[]> current = store();
        current.put("window:m", PrequentialStateBytes.encode(window(), drift));

        PrequentialEvaluator fromOld = new PrequentialEvaluator("m", SETTINGS, 0, old);
        PrequentialEvaluator fromCurrent = new PrequentialEvaluator("m", SETTINGS, 0, current);
        assertNotNull(old.get("page-hinkley:m"), "nothing is written before an event");
        // An event past the window closes it: the closed record is the hand-made window's.
        PrequentialEvaluator.Observation a = fromOld.observe("a", 61_500, null, m -> null, 0, 0, true);
        PrequentialEvaluator.Observation b = fromCurrent.observe("a", 61_500, null, m -> null, 0, 0, true);
        assertEquals(List.of(window().toRecord("m", 0, 1000)), a.records());
        assertEquals(b, a);
        assertArrayEquals(current.get("window:m"), old.get("window:m"));
        assertNull(old.get("page-hinkley:m"), "the layout-1 drift key is removed");
        assertArrayEquals(drift, PrequentialStateBytes.decode(old.get("window:m")).drift(), 0.0,
                "the drift state carried over (no event was scored)");
    }
}
