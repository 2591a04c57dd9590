package io.gdastreams.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * The prequential accuracy of each window of event time, combined over the partitions: every partition that saw
 * events in a window reports it in a record of its own, and the window's accuracy is the count-weighted mean of
 * theirs (docs/TRAINING.md, "Prequential evaluation"). The one place this is done, for the replay's summary and
 * the chart of docs/DRIFT.md.
 */
public final class WindowAccuracy {

    private WindowAccuracy() {
    }

    /** Window start (ms) → accuracy over the partitions; windows without scored events are left out. */
    public static TreeMap<Long, Double> byWindowStart(Iterable<MetricsRecord.Window> windows) {
        Map<Long, double[]> sums = new TreeMap<>(); // start → {count, hits}
        for (MetricsRecord.Window w : windows) {
            if (w.count() > 0) {
                double[] s = sums.computeIfAbsent(w.windowStart(), start -> new double[2]);
                s[0] += w.count();
                s[1] += w.hits();
            }
        }
        TreeMap<Long, Double> accuracy = new TreeMap<>();
        sums.forEach((start, s) -> accuracy.put(start, s[1] / s[0]));
        return accuracy;
    }
}
