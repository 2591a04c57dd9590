package io.gdastreams.topology;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The stored form of one model's prequential state in a partition ({@link PrequentialEvaluator}, key
 * {@code window:<modelId>} of {@link TrainingTopology#PREQUENTIAL_STORE}): the open window and the drift test's
 * state in one value, written on every event.
 *
 * <p>Why one value and a fixed layout: the state is written through per event (exactly-once needs the store to
 * hold it as of every commit, and Kafka Streams has no hook before a commit), so its cost is paid per event.
 * One value is one put into the record cache instead of two, and it is written into one array of its exact size,
 * with each label's name encoded once per window.
 *
 * <p>Layout 2 (big-endian): int 2; the window's start, count, correct, log-loss sum, Brier sum, no-model,
 * unscorable, late, min and max version (8 bytes each); int number of labels; per label in label order its name
 * as {@link java.io.DataOutputStream#writeUTF} writes it, support and hits (8 bytes each); byte 1 and the drift
 * test's four numbers (n, x̄, m, M; {@link io.gdastreams.math.PageHinkley#state()}) or byte 0 when there is none.
 * Layout 1, written before, is layout 2's window without the drift part; its drift state was a separate value
 * (four doubles) under {@code page-hinkley:<modelId>}, which the evaluator still reads (and removes).
 */
final class PrequentialStateBytes {

    static final int LAYOUT = 2;
    static final int LAYOUT_WINDOW_ONLY = 1;
    private static final int DRIFT_NUMBERS = 4;

    private PrequentialStateBytes() {
    }

    /** A decoded value: the window, the drift state (null when none is stored) and whether it was layout 1. */
    record Decoded(PrequentialWindow window, double[] drift, boolean windowOnly) {
    }

    /** {@code window} and {@code drift} (null: none) in layout 2. */
    static byte[] encode(PrequentialWindow window, double[] drift) {
        int size = Integer.BYTES + 10 * Long.BYTES + Integer.BYTES + 1;
        for (PrequentialWindow.Tally t : window.perLabel.values()) {
            size += t.storedName.length + 2 * Long.BYTES;
        }
        if (drift != null) {
            if (drift.length != DRIFT_NUMBERS) {
                throw new IllegalArgumentException("a drift state has " + DRIFT_NUMBERS + " numbers");
            }
            size += DRIFT_NUMBERS * Double.BYTES;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(LAYOUT);
        out.putLong(window.start);
        out.putLong(window.count);
        out.putLong(window.correct);
        out.putDouble(window.logLossSum);
        out.putDouble(window.brierSum);
        out.putLong(window.noModel);
        out.putLong(window.unscorable);
        out.putLong(window.late);
        out.putLong(window.minVersion);
        out.putLong(window.maxVersion);
        out.putInt(window.perLabel.size());
        for (PrequentialWindow.Tally t : window.perLabel.values()) {
            out.put(t.storedName);
            out.putLong(t.support);
            out.putLong(t.hits);
        }
        out.put((byte) (drift == null ? 0 : 1));
        if (drift != null) {
            for (double v : drift) {
                out.putDouble(v);
            }
        }
        return out.array();
    }

    /** Inverse of {@link #encode}, and reads layout 1; throws IllegalStateException on anything else. */
    static Decoded decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int layout = in.readInt();
            if (layout != LAYOUT && layout != LAYOUT_WINDOW_ONLY) {
                throw new IllegalStateException("unknown prequential window layout " + layout);
            }
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
                w.perLabel.put(label, new PrequentialWindow.Tally(label, in.readLong(), in.readLong()));
            }
            double[] drift = null;
            if (layout == LAYOUT && in.readByte() != 0) {
                drift = readDrift(in);
            }
            if (in.read() != -1) {
                throw new IllegalStateException("trailing bytes after the prequential state");
            }
            return new Decoded(w, drift, layout == LAYOUT_WINDOW_ONLY);
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
