package io.gdastreams.replay;

import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.WindowAccuracy;
import io.gdastreams.serde.MetricsJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * What the trainer's prequential records of a replay say, combined over the input partitions: a window of event
 * time is reported by every partition that saw events in it, and its accuracy is the count-weighted mean of theirs
 * ({@link WindowAccuracy}; docs/TRAINING.md, "Prequential evaluation").
 *
 * @param scored       events scored in closed windows
 * @param accuracy     their accuracy (NaN when none)
 * @param noModel      events applied before any model was published
 * @param lastWindow   start of the last closed window with scored events (-1 when none)
 * @param lastAccuracy accuracy in it, over all partitions (NaN when none)
 * @param drifts       drift alarms, in event-time order (stable: records of one time keep their order)
 */
public record PrequentialSummary(long scored, double accuracy, long noModel, long lastWindow, double lastAccuracy,
                                 List<MetricsRecord.DriftAlarm> drifts) {

    /**
     * Summarises the records (JSON, as on the metrics topic, read by {@link MetricsJson}): records of another type
     * are skipped; one that is not JSON, or a window or alarm without the fields that place it, fails the summary
     * (IllegalArgumentException), as it did before the codec.
     */
    public static PrequentialSummary of(List<String> records) {
        long scored = 0;
        double hits = 0;
        long noModel = 0;
        List<MetricsRecord.Window> windows = new ArrayList<>();
        List<MetricsRecord.DriftAlarm> drifts = new ArrayList<>();
        for (String json : records) {
            MetricsRecord record = MetricsJson.read(json).orElse(null);
            if (record instanceof MetricsRecord.Window w) {
                noModel += w.noModel();
                scored += w.count();
                hits += w.hits();
                windows.add(w);
            } else if (record instanceof MetricsRecord.DriftAlarm d) {
                drifts.add(d);
            }
        }
        drifts.sort(Comparator.comparingLong(MetricsRecord.DriftAlarm::eventTime));
        TreeMap<Long, Double> byWindow = WindowAccuracy.byWindowStart(windows);
        long last = byWindow.isEmpty() ? -1 : byWindow.lastKey();
        double lastAccuracy = byWindow.isEmpty() ? Double.NaN : byWindow.lastEntry().getValue();
        return new PrequentialSummary(scored, scored == 0 ? Double.NaN : hits / scored, noModel, last, lastAccuracy,
                List.copyOf(drifts));
    }
}
