package io.gdastreams.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the trainer's prequential records of a replay say, combined over the input partitions: a window of event
 * time is reported by every partition that saw events in it, and its accuracy is the count-weighted mean of theirs
 * (docs/TRAINING.md, "Prequential evaluation").
 *
 * @param scored       events scored in closed windows
 * @param accuracy     their accuracy (NaN when none)
 * @param noModel      events applied before any model was published
 * @param lastWindow   start of the last closed window with scored events (-1 when none)
 * @param lastAccuracy accuracy in it, over all partitions (NaN when none)
 * @param drifts       drift alarms: event time, partition, in event-time order
 */
public record PrequentialSummary(long scored, double accuracy, long noModel, long lastWindow, double lastAccuracy,
                                 List<long[]> drifts) {

    /** Summarises the records (JSON, as on the metrics topic). */
    public static PrequentialSummary of(List<String> records) {
        long scored = 0;
        double hits = 0;
        long noModel = 0;
        Map<Long, double[]> byWindow = new TreeMap<>(); // start → {count, hits}
        List<long[]> drifts = new ArrayList<>();
        for (String json : records) {
            JsonNode r = parse(json);
            String type = r.path("type").asText();
            if (type.equals("window")) {
                long count = r.get("count").asLong();
                noModel += r.path("noModel").asLong();
                if (count > 0) {
                    double h = r.get("accuracy").asDouble() * count;
                    scored += count;
                    hits += h;
                    double[] w = byWindow.computeIfAbsent(r.get("windowStart").asLong(), s -> new double[2]);
                    w[0] += count;
                    w[1] += h;
                }
            } else if (type.equals("drift")) {
                drifts.add(new long[] {r.get("eventTime").asLong(), r.path("partition").asLong()});
            }
        }
        drifts.sort((a, b) -> Long.compare(a[0], b[0]));
        long last = -1;
        double lastAccuracy = Double.NaN;
        if (!byWindow.isEmpty()) {
            last = ((TreeMap<Long, double[]>) byWindow).lastKey();
            double[] w = byWindow.get(last);
            lastAccuracy = w[1] / w[0];
        }
        return new PrequentialSummary(scored, scored == 0 ? Double.NaN : hits / scored, noModel, last, lastAccuracy,
                List.copyOf(drifts));
    }

    private static JsonNode parse(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
