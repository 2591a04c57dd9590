package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.MetricsRecord.DriftAlarm;
import io.gdastreams.model.MetricsRecord.Window;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A {@link MetricsRecord} as JSON text on the metrics topic, both ways: the trainer writes with {@link #write}, and
 * the replay's summary, its reset watch and the drift chart read with {@link #read}. Fields are written in the
 * order of docs/schemas/model-metrics.schema.json by the project mapper ({@link Json}), so the numbers are printed
 * as everywhere else; {@code MetricsJsonTest} holds the bytes to those of the writer this replaced.
 *
 * <p>Reading is lenient on purpose, as the readers it replaced were: files of window records are also written by
 * hand and by scripts (docs/drift/segment_accuracy.py writes only type, partition, bounds, count and accuracy), so
 * only the fields that place a record are required (a window's {@code windowStart} and {@code count}, an alarm's
 * {@code eventTime}); any other absent field reads as null, 0, NaN or empty.
 */
public final class MetricsJson {

    private MetricsJson() {
    }

    /** {@code record} as the trainer sends it. */
    public static String write(MetricsRecord record) {
        Map<String, Object> r = record instanceof Window w ? fields(w) : fields((DriftAlarm) record);
        return new String(Json.toBytes(r), StandardCharsets.UTF_8);
    }

    private static Map<String, Object> fields(Window w) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("type", "window");
        r.put("modelId", w.modelId());
        r.put("partition", w.partition());
        r.put("windowStart", w.windowStart());
        r.put("windowEnd", w.windowEnd());
        r.put("count", w.count());
        r.put("accuracy", w.accuracy());
        r.put("logLoss", w.logLoss());
        r.put("brier", w.brier());
        r.put("recall", w.recall());
        r.put("support", w.support());
        r.put("modelVersions", w.modelVersions() == null ? null
                : List.of(w.modelVersions().lowest(), w.modelVersions().highest()));
        r.put("noModel", w.noModel());
        r.put("unscorable", w.unscorable());
        r.put("late", w.late());
        return r;
    }

    private static Map<String, Object> fields(DriftAlarm d) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("type", "drift");
        r.put("modelId", d.modelId());
        r.put("partition", d.partition());
        r.put("eventTime", d.eventTime());
        r.put("detector", d.detector());
        r.put("statistic", d.statistic());
        r.put("threshold", d.threshold());
        r.put("delta", d.delta());
        r.put("action", d.resets() ? "reset" : "alert");
        if (d.resets()) { // the schema: present exactly with action reset
            r.put("resetGeneration", d.resetGeneration());
        }
        return r;
    }

    /**
     * The record {@code json} holds; empty for JSON that is no window or drift record (another {@code type}, none,
     * not an object: skipped by every reader, as before this codec).
     *
     * @throws IllegalArgumentException when {@code json} is not JSON, or a window or alarm lacks a field that places
     *                                  it or has a field of the wrong type
     */
    public static Optional<MetricsRecord> read(String json) {
        JsonNode r;
        try {
            r = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a metrics record (not JSON): " + e.getOriginalMessage(), e);
        }
        String type = r == null ? "" : r.path("type").asText();
        return switch (type) {
            case "window" -> Optional.of(window(r));
            case "drift" -> Optional.of(drift(r));
            default -> Optional.empty();
        };
    }

    private static Window window(JsonNode r) {
        JsonNode versions = r.path("modelVersions");
        MetricsRecord.Versions range = null;
        if (!versions.isMissingNode() && !versions.isNull()) {
            if (!versions.isArray() || versions.size() != 2) {
                throw new IllegalArgumentException("window record: modelVersions is not [lowest, highest]");
            }
            range = new MetricsRecord.Versions(integer(versions.get(0), "modelVersions"),
                    integer(versions.get(1), "modelVersions"));
        }
        return new Window(text(r, "modelId"), partition(r),
                integer(r.get("windowStart"), "windowStart"), optionalInteger(r, "windowEnd"),
                integer(r.get("count"), "count"), optionalNumber(r, "accuracy"), optionalNumber(r, "logLoss"),
                optionalNumber(r, "brier"), perLabel(r, "recall", n -> number(n, "recall")),
                perLabel(r, "support", n -> integer(n, "support")), range, optionalInteger(r, "noModel"),
                optionalInteger(r, "unscorable"), optionalInteger(r, "late"));
    }

    private static DriftAlarm drift(JsonNode r) {
        // The generation counts only with action reset, as the schema says and the replay's reset watch read it.
        long generation = "reset".equals(text(r, "action")) ? optionalInteger(r, "resetGeneration") : 0;
        return new DriftAlarm(text(r, "modelId"), partition(r),
                integer(r.get("eventTime"), "eventTime"), text(r, "detector"), orNaN(optionalNumber(r, "statistic")),
                orNaN(optionalNumber(r, "threshold")), orNaN(optionalNumber(r, "delta")), generation);
    }

    private static long integer(JsonNode n, String field) {
        if (n == null || !n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new IllegalArgumentException("metrics record: " + field + " is not an integer: " + n);
        }
        return n.longValue();
    }

    private static int partition(JsonNode r) {
        long partition = optionalInteger(r, "partition");
        if (partition != (int) partition) {
            throw new IllegalArgumentException("metrics record: partition out of range: " + partition);
        }
        return (int) partition;
    }

    private static long optionalInteger(JsonNode r, String field) {
        JsonNode n = r.get(field);
        return n == null || n.isNull() ? 0 : integer(n, field);
    }

    private static double number(JsonNode n, String field) {
        if (n == null || !n.isNumber()) {
            throw new IllegalArgumentException("metrics record: " + field + " is not a number: " + n);
        }
        return n.doubleValue();
    }

    private static Double optionalNumber(JsonNode r, String field) {
        JsonNode n = r.get(field);
        return n == null || n.isNull() ? null : number(n, field);
    }

    private static double orNaN(Double value) {
        return value == null ? Double.NaN : value;
    }

    private static String text(JsonNode r, String field) {
        JsonNode n = r.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    private static <T> SortedMap<String, T> perLabel(JsonNode r, String field, Function<JsonNode, T> value) {
        SortedMap<String, T> map = new TreeMap<>();
        JsonNode n = r.path(field);
        if (!n.isMissingNode() && !n.isNull() && !n.isObject()) {
            throw new IllegalArgumentException("metrics record: " + field + " is not an object: " + n);
        }
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                map.put(e.getKey(), value.apply(e.getValue()));
            }
        }
        return map;
    }
}
