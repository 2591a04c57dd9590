package io.gdastreams.topology;

import io.gdastreams.serde.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One input partition's open prequential window [start, start + width): the sums of the outcomes of the events
 * scored in it, so that the window record is exact and records of several partitions can be combined (weights =
 * their counts; recall per label from hits and support). Its labels are classes of the partition, so at most
 * {@code gda.max.classes} of them.
 */
final class PrequentialWindow {

    private static final int LAYOUT = 1;

    final long start;
    long count;
    long correct;
    double logLossSum;
    double brierSum;
    /** Applied events that arrived while no model was published (not scored, not errors). */
    long noModel;
    /** Applied events the published model could not score (a feature it does not know, a non-finite density). */
    long unscorable;
    /** Applied events older than this window's start (out of order); scored and trained, not in the sums. */
    long late;
    long minVersion = Long.MAX_VALUE;
    long maxVersion = Long.MIN_VALUE;
    /** label → {support, hits}. */
    final TreeMap<String, long[]> perLabel = new TreeMap<>();

    PrequentialWindow(long start) {
        this.start = start;
    }

    /** Adds one scored event of true {@code label}: was the decision right, its log-loss and Brier score. */
    void add(String label, boolean hit, double logLoss, double brier, long version) {
        count++;
        if (hit) {
            correct++;
        }
        logLossSum += logLoss;
        brierSum += brier;
        minVersion = Math.min(minVersion, version);
        maxVersion = Math.max(maxVersion, version);
        long[] tally = perLabel.computeIfAbsent(label, l -> new long[2]);
        tally[0]++;
        if (hit) {
            tally[1]++;
        }
    }

    boolean isEmpty() {
        return count == 0 && noModel == 0 && unscorable == 0 && late == 0;
    }

    /**
     * The window record of the metrics topic (JSON): type, model id, partition, window bounds, count, accuracy,
     * mean log-loss and Brier score, recall and support per label, the range of model versions that scored, and
     * the events not in the sums. Accuracy, log-loss, Brier and versions are null when nothing was scored.
     */
    String toRecord(String modelId, int partition, long width) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("type", "window");
        r.put("modelId", modelId);
        r.put("partition", partition);
        r.put("windowStart", start);
        r.put("windowEnd", start + width);
        r.put("count", count);
        r.put("accuracy", count == 0 ? null : (double) correct / count);
        r.put("logLoss", count == 0 ? null : logLossSum / count);
        r.put("brier", count == 0 ? null : brierSum / count);
        Map<String, Double> recall = new TreeMap<>();
        Map<String, Long> support = new TreeMap<>();
        perLabel.forEach((label, t) -> {
            recall.put(label, (double) t[1] / t[0]);
            support.put(label, t[0]);
        });
        r.put("recall", recall);
        r.put("support", support);
        r.put("modelVersions", count == 0 ? null : List.of(minVersion, maxVersion));
        r.put("noModel", noModel);
        r.put("unscorable", unscorable);
        r.put("late", late);
        return new String(Json.toBytes(r), StandardCharsets.UTF_8);
    }

    byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 24 * perLabel.size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(LAYOUT);
            out.writeLong(start);
            out.writeLong(count);
            out.writeLong(correct);
            out.writeDouble(logLossSum);
            out.writeDouble(brierSum);
            out.writeLong(noModel);
            out.writeLong(unscorable);
            out.writeLong(late);
            out.writeLong(minVersion);
            out.writeLong(maxVersion);
            out.writeInt(perLabel.size());
            for (Map.Entry<String, long[]> e : perLabel.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue()[0]);
                out.writeLong(e.getValue()[1]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Inverse of {@link #toBytes()}; throws IllegalStateException on anything else (a damaged store). */
    static PrequentialWindow fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int layout = in.readInt();
            if (layout != LAYOUT) {
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
                w.perLabel.put(in.readUTF(), new long[] {in.readLong(), in.readLong()});
            }
            return w;
        } catch (IOException e) {
            throw new IllegalStateException("unreadable prequential window state: " + e, e);
        }
    }
}
