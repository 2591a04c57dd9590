package io.gdastreams.topology;

import io.gdastreams.model.MetricsRecord;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.TreeMap;

/**
 * One input partition's open prequential window [start, start + width): the sums of the outcomes of the events
 * scored in it, so that the window record is exact and records of several partitions can be combined (weights =
 * their counts; recall per label from hits and support). Its labels are classes of the partition, so at most
 * {@code gda.max.classes} of them. Its stored form is {@link PrequentialStateBytes}.
 */
final class PrequentialWindow {

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
    /** label → its support and hits (added only by {@link #put}). */
    final TreeMap<String, Tally> perLabel = new TreeMap<>();
    /** The sum of the stored names' lengths over {@link #perLabel}, for the stored size without a pass. */
    private int storedNamesSize;

    /** One label's support (scored events of that true label) and hits, and its name as stored. */
    static final class Tally {
        final String label;
        /** The label as {@link DataOutputStream#writeUTF} writes it (length first), encoded once per window. */
        final byte[] storedName;
        long support;
        long hits;

        Tally(String label, long support, long hits) {
            this.label = label;
            this.storedName = storedName(label);
            this.support = support;
            this.hits = hits;
        }
    }

    /** {@code text} as {@link DataOutputStream#writeUTF} writes it (length first). */
    static byte[] storedName(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(2 + text.length());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

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
        Tally tally = perLabel.get(label);
        if (tally == null) {
            tally = new Tally(label, 0, 0);
            put(tally);
        }
        tally.support++;
        if (hit) {
            tally.hits++;
        }
    }

    /** Adds the tally of a label not in the window yet. */
    void put(Tally tally) {
        if (perLabel.putIfAbsent(tally.label, tally) != null) {
            throw new IllegalStateException("label '" + tally.label + "' is in the window already");
        }
        storedNamesSize += tally.storedName.length;
    }

    /** The sum of the lengths of the labels' stored names. */
    int storedNamesSize() {
        return storedNamesSize;
    }

    boolean isEmpty() {
        return count == 0 && noModel == 0 && unscorable == 0 && late == 0;
    }

    /**
     * The window record of the metrics topic (written as JSON by serde.MetricsJson): model id, partition, window
     * bounds, count, accuracy, mean log-loss and Brier score, recall and support per label, the range of model
     * versions that scored, and the events not in the sums. Accuracy, log-loss, Brier and versions are null when
     * nothing was scored.
     */
    MetricsRecord.Window toRecord(String modelId, int partition, long width) {
        TreeMap<String, Double> recall = new TreeMap<>();
        TreeMap<String, Long> support = new TreeMap<>();
        perLabel.forEach((label, t) -> {
            recall.put(label, (double) t.hits / t.support);
            support.put(label, t.support);
        });
        boolean scored = count > 0;
        return new MetricsRecord.Window(modelId, partition, start, start + width, count,
                scored ? (double) correct / count : null, scored ? logLossSum / count : null,
                scored ? brierSum / count : null, recall, support,
                scored ? new MetricsRecord.Versions(minVersion, maxVersion) : null, noModel, unscorable, late);
    }
}
