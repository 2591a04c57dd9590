package io.gdastreams.topology;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * The stored form of one model's prequential state in a partition ({@link PrequentialEvaluator}): the open window
 * and the drift test's state in one value, written on every event, after the partition's counters in the
 * {@code progress} entry of the {@code class-stats} store ({@link ProgressCounters}, format 2).
 *
 * <p>Why there and in a fixed layout: the state is written through per event (exactly-once needs the store to
 * hold it as of every commit, and Kafka Streams has no hook before a commit), so its cost is paid per event. Stored
 * with the counters, which every event writes anyway, it costs no put of its own; it is written into that value's
 * array at its exact size, with each label's name encoded once per window.
 *
 * <p>Layout 3 (big-endian): int 3; the model id as {@link java.io.DataOutputStream#writeUTF} writes it; the
 * window's start, count, correct, log-loss sum, Brier sum, no-model, unscorable, late, min and max version (8 bytes
 * each); int number of labels; per label in label order its name as writeUTF writes it, support and hits (8 bytes
 * each); byte 1 and the drift test's four numbers (n, x̄, m, M; {@link io.gdastreams.math.PageHinkley#state()}) or
 * byte 0 when there is none. Earlier releases kept the state in a store of its own
 * ({@link TrainingTopology#PREQUENTIAL_STORE}, key {@code window:<modelId>}), which the evaluator still reads when
 * the progress holds none, and removes: layout 2 is layout 3 without the model id (the key named it); layout 1 is
 * layout 2 without the drift part, whose state was a separate value (four doubles) under
 * {@code page-hinkley:<modelId>}.
 */
final class PrequentialStateBytes {

    static final int LAYOUT = 3;
    static final int LAYOUT_OWN_STORE = 2;
    static final int LAYOUT_WINDOW_ONLY = 1;
    private static final int DRIFT_NUMBERS = 4;
    private static final int FIXED_BYTES = Integer.BYTES + 10 * Long.BYTES + Integer.BYTES + 1;

    private PrequentialStateBytes() {
    }

    /**
     * A decoded value: the model id (null in layouts 1 and 2), the window, the drift state (null when none is
     * stored) and whether it was layout 1.
     */
    record Decoded(String modelId, PrequentialWindow window, double[] drift, boolean windowOnly) {
    }

    /** The model id as layout 3 stores it, encoded once per evaluator. */
    static byte[] storedModelId(String modelId) {
        return PrequentialWindow.storedName(modelId);
    }

    /** The size of {@code window} and {@code drift} (null: none) in layout 3 with {@code storedModelId}. */
    static int size(byte[] storedModelId, PrequentialWindow window, double[] drift) {
        if (drift != null && drift.length != DRIFT_NUMBERS) {
            throw new IllegalArgumentException("a drift state has " + DRIFT_NUMBERS + " numbers");
        }
        return FIXED_BYTES + storedModelId.length + window.storedNamesSize()
                + window.perLabel.size() * 2 * Long.BYTES + (drift == null ? 0 : DRIFT_NUMBERS * Double.BYTES);
    }

    /**
     * Writes {@code window} and {@code drift} (null: none) in layout 3 ({@link #size} bytes) into {@code out} from
     * {@code at}; returns the offset after them.
     */
    static int write(byte[] out, int at, byte[] storedModelId, PrequentialWindow window, double[] drift) {
        int i = BigEndianBytes.putInt(out, at, LAYOUT);
        i = BigEndianBytes.put(out, i, storedModelId);
        i = BigEndianBytes.putLong(out, i, window.start);
        i = BigEndianBytes.putLong(out, i, window.count);
        i = BigEndianBytes.putLong(out, i, window.correct);
        i = BigEndianBytes.putDouble(out, i, window.logLossSum);
        i = BigEndianBytes.putDouble(out, i, window.brierSum);
        i = BigEndianBytes.putLong(out, i, window.noModel);
        i = BigEndianBytes.putLong(out, i, window.unscorable);
        i = BigEndianBytes.putLong(out, i, window.late);
        i = BigEndianBytes.putLong(out, i, window.minVersion);
        i = BigEndianBytes.putLong(out, i, window.maxVersion);
        i = BigEndianBytes.putInt(out, i, window.perLabel.size());
        for (PrequentialWindow.Tally t : window.perLabel.values()) {
            i = BigEndianBytes.put(out, i, t.storedName);
            i = BigEndianBytes.putLong(out, i, t.support);
            i = BigEndianBytes.putLong(out, i, t.hits);
        }
        out[i++] = (byte) (drift == null ? 0 : 1);
        if (drift != null) {
            for (double v : drift) {
                i = BigEndianBytes.putDouble(out, i, v);
            }
        }
        return i;
    }

    /** {@code window} and {@code drift} (null: none) of model {@code modelId} in layout 3, as one array. */
    static byte[] encode(String modelId, PrequentialWindow window, double[] drift) {
        byte[] id = storedModelId(modelId);
        byte[] out = new byte[size(id, window, drift)];
        write(out, 0, id, window, drift);
        return out;
    }

    /** Inverse of {@link #encode}, and reads layouts 1 and 2; throws IllegalStateException on anything else. */
    static Decoded decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int layout = in.readInt();
            if (layout != LAYOUT && layout != LAYOUT_OWN_STORE && layout != LAYOUT_WINDOW_ONLY) {
                throw new IllegalStateException("unknown prequential window layout " + layout);
            }
            String modelId = layout == LAYOUT ? in.readUTF() : null;
            PrequentialWindow w = new PrequentialWindow(in.readLong());
            w.count = in.readLong();
            w.correct = in.readLong();
            w.logLossSum = in.readDouble();
            w.brierSum = in.readDouble();
            w.noModel = in.readLong();
            w.unscorable = in.readLong();
            w.late = in.readLong();
            w.minVersion = in.readLong();
            w.maxVersion = in.readLong();
            int labels = in.readInt();
            for (int i = 0; i < labels; i++) {
                String label = in.readUTF();
                w.put(new PrequentialWindow.Tally(label, in.readLong(), in.readLong()));
            }
            double[] drift = null;
            if (layout != LAYOUT_WINDOW_ONLY && in.readByte() != 0) {
                drift = readDrift(in);
            }
            if (in.read() != -1) {
                throw new IllegalStateException("trailing bytes after the prequential state");
            }
            return new Decoded(modelId, w, drift, layout == LAYOUT_WINDOW_ONLY);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable prequential window state: " + e, e);
        }
    }

    /** A layout-1 drift state (the four numbers alone). */
    static double[] decodeDrift(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return readDrift(in);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable drift state: " + e, e);
        }
    }

    private static double[] readDrift(DataInputStream in) throws IOException {
        double[] state = new double[DRIFT_NUMBERS];
        for (int i = 0; i < state.length; i++) {
            state[i] = in.readDouble();
        }
        return state;
    }
}
