package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.MetricsJson;
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
 * The prequential state as stored is all a restarted task needs: an evaluator made afresh from the stored bytes after
 * any event (what a task does after a restart, from the state of the last commit, which under exactly-once is the
 * state after the last committed event) continues exactly as one that ran through, to every window and drift
 * record and every stored byte. And the stored form ({@link PrequentialStateBytes}) is the documented layout:
 * layouts 1 and 2, which earlier releases kept in a store of their own, built here by hand as they wrote them,
 * still load, and their keys go at the first progress write that holds the state instead.
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
    void anEvaluatorMadeFromTheStoredStateAfterAnyEventContinuesExactlyAsOneThatRanThrough() {
        PrequentialModel models = new PrequentialModel("m", SETTINGS);
        PrequentialEvaluator through = new PrequentialEvaluator("m", SETTINGS, 0, null, null);
        byte[] stored = null;
        List<String> records = new ArrayList<>();
        for (IrisPrequentialStream.Event e : IrisPrequentialStream.events()) {
            int i = e.index();
            String label = e.label();
            long timestamp = e.timestamp();
            CompiledModel model = models.of(e.model());
            double[] x = e.row().x();
            PrequentialEvaluator.Scorer scorer = m -> m.posterior(x, new double[m.labels().size()]);

            // The restart: everything in memory is lost, the new evaluator has only what was stored.
            PrequentialEvaluator restarted = new PrequentialEvaluator("m", SETTINGS, 0, stored, null);
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
            stored = restarted.stateBytes();
            assertArrayEquals(through.stateBytes(), stored, "state after event " + i);
            assertEquals(stored.length, restarted.storedSize(), "the stored size of event " + i);
            expected.records().forEach(r -> records.add(MetricsJson.write(r)));
        }
        String all = String.join("\n", records);
        assertTrue(all.contains("\"noModel\":"), "windows of no model");
        assertTrue(all.contains("\"late\":1"), "late events");
        assertTrue(all.contains("\"unknown\""), "an unknown class");
        assertTrue(all.contains("\"modelVersions\":[1,2]"), "a window scored by both versions");
        assertTrue(all.contains("\"type\":\"drift\""), "a drift alarm");
    }

    /** A window of two labels with known sums, and a drift state, by hand. */
    static PrequentialWindow window() {
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

    /** Layout 2 exactly as the earlier code wrote it: layout 1 with its number, and the drift part. */
    static byte[] layoutTwo(double[] drift) throws IOException {
        byte[] one = layoutOne();
        ByteArrayOutputStream two = new ByteArrayOutputStream();
        two.write(new byte[] {0, 0, 0, 2});
        two.write(one, 4, one.length - 4);
        if (drift == null) {
            two.write(0);
        } else {
            two.write(1);
            two.write(doubles(drift));
        }
        return two.toByteArray();
    }

    @Test
    void layoutThreeIsLayoutTwoWithItsNumberAndTheModelIdAfterIt() throws IOException {
        double[] drift = {7, 0.5, -1.25, -2};
        byte[] two = layoutTwo(drift);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(new byte[] {0, 0, 0, 3});
        expected.write(new byte[] {0, 5, 'm', 'o', 'd', 'e', 'l'}); // writeUTF: length, then the bytes
        expected.write(two, 4, two.length - 4);
        assertArrayEquals(expected.toByteArray(), PrequentialStateBytes.encode("model", window(), drift));

        byte[] noDrift = PrequentialStateBytes.encode("model", window(), null);
        assertEquals(layoutOne().length + 7 + 1, noDrift.length);
        assertEquals(0, noDrift[noDrift.length - 1]);

        PrequentialStateBytes.Decoded back = PrequentialStateBytes.decode(expected.toByteArray());
        assertEquals("model", back.modelId());
        assertArrayEquals(drift, back.drift(), 0.0);
        assertArrayEquals(expected.toByteArray(), PrequentialStateBytes.encode("model", back.window(), back.drift()));
        assertNull(PrequentialStateBytes.decode(noDrift).drift());
        assertEquals(window().toRecord("m", 0, 1000), back.window().toRecord("m", 0, 1000));

        PrequentialStateBytes.Decoded fromTwo = PrequentialStateBytes.decode(two);
        assertNull(fromTwo.modelId(), "layout 2 names no model (its key did)");
        assertArrayEquals(drift, fromTwo.drift(), 0.0);
        assertArrayEquals(expected.toByteArray(),
                PrequentialStateBytes.encode("model", fromTwo.window(), fromTwo.drift()));
    }

    @Test
    void aDamagedValueIsRefused() throws IOException {
        byte[] three = PrequentialStateBytes.encode("m", window(), null);
        assertThrows(IllegalStateException.class, () -> PrequentialStateBytes.decode(Arrays.copyOf(three, 20)));
        byte[] longer = Arrays.copyOf(three, three.length + 1);
        assertThrows(IllegalStateException.class, () -> PrequentialStateBytes.decode(longer));
        byte[] unknown = three.clone();
        unknown[3] = 4;
        assertThrows(IllegalStateException.class, () -> PrequentialStateBytes.decode(unknown));
    }

    @Test
    void theOwnStoreOfEarlierReleasesLoadsInLayoutsOneAndTwoAndLosesItsKeysAtTheFirstProgressWrite()
            throws IOException {
        double[] drift = {60, 0.75, 3.5, -0.5};
        KeyValueStore<String, byte[]> layout1 = store();
        layout1.put("window:m", layoutOne());
        layout1.put("page-hinkley:m", doubles(drift));
        KeyValueStore<String, byte[]> layout2 = store();
        layout2.put("window:m", layoutTwo(drift));
        layout2.put("window:other", layoutTwo(null)); // another model's: left alone
        byte[] current = PrequentialStateBytes.encode("m", window(), drift);

        PrequentialEvaluator fromCurrent = new PrequentialEvaluator("m", SETTINGS, 0, current, null);
        PrequentialEvaluator.Observation expected = fromCurrent.observe("a", 61_500, null, m -> null, 0, 0, true);
        // An event past the window closes it: the closed record is the hand-made window's.
        assertEquals(List.of(window().toRecord("m", 0, 1000)), expected.records());
        PartitionProgress progress = new PartitionProgress(0, 1, 1, 0, List.of("x"));
        for (KeyValueStore<String, byte[]> old : List.of(layout1, layout2)) {
            PrequentialEvaluator fromOld = new PrequentialEvaluator("m", SETTINGS, 0, null, old);
            assertEquals(expected, fromOld.observe("a", 61_500, null, m -> null, 0, 0, true));
            assertArrayEquals(fromCurrent.stateBytes(), fromOld.stateBytes());
            assertNotNull(old.get("window:m"), "the old store keeps the state until it is written elsewhere");
            // The processor's progress write after the record: the state moves into the progress entry.
            byte[] entry = ProgressCounters.encode(progress, fromOld);
            assertArrayEquals(fromCurrent.stateBytes(), Arrays.copyOfRange(entry, 29, entry.length));
            assertNull(old.get("window:m"), "the old window key is removed");
            assertNull(old.get("page-hinkley:m"), "the layout-1 drift key is removed");
            assertArrayEquals(drift, PrequentialStateBytes.decode(fromOld.stateBytes()).drift(), 0.0,
                    "the drift state carried over (no event was scored)");
        }
        assertNotNull(layout2.get("window:other"));
    }

    @Test
    void aStoredStateTakesPrecedenceOverTheOldStoreAndAnotherModelsStateIsNotContinued() throws IOException {
        KeyValueStore<String, byte[]> old = store();
        old.put("window:m", layoutTwo(null));
        PrequentialEvaluator otherModel = new PrequentialEvaluator("m", SETTINGS, 0,
                PrequentialStateBytes.encode("other", window(), null), null);
        assertEquals(0, otherModel.storedSize(), "nothing of model m is stored");
        assertEquals(List.of(), otherModel.observe("a", 61_500, null, m -> null, 0, 0, true).records(),
                "the other model's window is not closed as this one's");

        PrequentialWindow later = new PrequentialWindow(61_000);
        later.noModel = 1;
        PrequentialEvaluator stored = new PrequentialEvaluator("m", SETTINGS, 0,
                PrequentialStateBytes.encode("m", later, null), old);
        assertEquals(List.of(later.toRecord("m", 0, 1000)),
                stored.observe("a", 62_500, null, m -> null, 0, 0, true).records(),
                "the stored window, not the old store's");
    }
}
