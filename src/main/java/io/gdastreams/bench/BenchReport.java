package io.gdastreams.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gdastreams.serde.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The output of {@code gda-streams bench}: one JSON line per stage, then one line with the ratios. The first
 * four keys of a stage line are fixed ({@code stage, events, seconds, eventsPerSecond}); the run's parameters
 * (with the keys given to {@code --set}, as {@code "set": {key: value}}) and the latency percentiles follow.
 */
final class BenchReport {

    /** The latency field name per stage: what the per-event delay means there. */
    static final String FRESHNESS = "freshnessMs";
    static final String LATENCY = "latencyMs";
    /** The same delays to when the bench's read_committed consumer read the output (what a consumer sees). */
    static final String VISIBLE_FRESHNESS = "visibleFreshnessMs";
    static final String VISIBLE_LATENCY = "visibleLatencyMs";

    private BenchReport() {
    }

    static String stageLine(StageResult result, BenchSettings settings, RunShape shape) {
        return stageLine((Integer) null, result, settings, shape);
    }

    /** A stage line of round {@code round} of a run of several ({@link StageRounds}), or of the only one (null). */
    static String stageLine(Integer round, StageResult result, BenchSettings settings, RunShape shape) {
        Map<String, Object> line = new LinkedHashMap<>();
        if (round != null) {
            line.put("round", round);
        }
        return stageLine(line, result, settings, shape);
    }

    /** A stage line of a {@link StageComparison}: its round and variant first. */
    static String variantLine(int round, String variant, StageResult result, BenchSettings settings, RunShape shape) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("round", round);
        line.put("variant", variant);
        return stageLine(line, result, settings, shape);
    }

    /**
     * The comparison's last line: per variant the median events/s over the rounds and the median of its per-round
     * ratios to {@code baseline} (round i of a variant against round i of the baseline); from {@code cpuPerEvent}
     * (µs of the application's threads per event) the median and the median per-round ratio to the baseline's
     * (above 1: more CPU per event); and the same of {@code storedBytesPerEvent} (bytes the broker holds per event,
     * above 1: more); each pair null when a round of the variant or the baseline was not measured (NaN).
     */
    static String comparisonLine(Map<String, List<Double>> rates, Map<String, List<Double>> cpuPerEvent,
                                 Map<String, List<Double>> storedBytesPerEvent, String baseline) {
        Map<String, Object> line = new LinkedHashMap<>();
        for (Map.Entry<String, List<Double>> entry : rates.entrySet()) {
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("medianEventsPerSecond", Math.round(median(entry.getValue())));
            summary.put("medianRatioToBaseline", round(medianRatio(entry.getValue(), rates.get(baseline)), 3));
            summarise(summary, "medianAppCpuMicrosPerEvent", "medianCpuPerEventRatioToBaseline", 3,
                    cpuPerEvent.getOrDefault(entry.getKey(), List.of()), cpuPerEvent.getOrDefault(baseline, List.of()),
                    entry.getValue().size());
            summarise(summary, "medianStoredBytesPerEvent", "medianStoredBytesRatioToBaseline", 1,
                    storedBytesPerEvent.getOrDefault(entry.getKey(), List.of()),
                    storedBytesPerEvent.getOrDefault(baseline, List.of()), entry.getValue().size());
            line.put(entry.getKey(), summary);
        }
        return write(Map.of("comparison", line));
    }

    /**
     * Puts the median of {@code values} (to {@code digits} decimals) under {@code medianKey} and the median of its
     * per-round ratios to {@code base} under {@code ratioKey}, or nulls unless both have all {@code rounds} rounds.
     */
    private static void summarise(Map<String, Object> summary, String medianKey, String ratioKey, int digits,
                                  List<Double> values, List<Double> base, int rounds) {
        boolean measured = values.size() == rounds && base.size() == rounds && allMeasured(values)
                && allMeasured(base);
        summary.put(medianKey, measured ? round(median(values), digits) : null);
        summary.put(ratioKey, measured ? round(medianRatio(values, base), 3) : null);
    }

    /** The median over the rounds of values[i] / base[i]. */
    private static double medianRatio(List<Double> values, List<Double> base) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            ratios.add(values.get(i) / base.get(i));
        }
        return median(ratios);
    }

    private static boolean allMeasured(List<Double> values) {
        return values.stream().noneMatch(v -> Double.isNaN(v));
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String stageLine(Map<String, Object> line, StageResult result, BenchSettings settings,
                                    RunShape shape) {
        line.put("stage", result.stage());
        line.put("events", result.events());
        line.put("seconds", round(result.seconds(), 3));
        line.put("eventsPerSecond", Math.round(result.eventsPerSecond()));
        line.put("startupSeconds", round(result.startupSeconds(), 3));
        double cpu = result.appCpuMicrosPerEvent();
        line.put("appCpuMicrosPerEvent", Double.isNaN(cpu) ? null : round(cpu, 3));
        line.put("jitCompileSeconds", Double.isNaN(result.jitSeconds()) ? null : round(result.jitSeconds(), 3));
        double stored = result.storedBytesPerEvent();
        line.put("storedBytesPerEvent", Double.isNaN(stored) ? null : round(stored, 1));
        putSettings(line, settings);
        putShape(line, shape);
        boolean training = result.stage().equals(Stage.TRAINING.label());
        putPercentiles(line, training ? FRESHNESS : LATENCY, result.latency(), true);
        if (result.visible().count() > 0) {
            putPercentiles(line, training ? VISIBLE_FRESHNESS : VISIBLE_LATENCY, result.visible(), false);
        }
        if (!Double.isNaN(result.versionsPerInterval())) {
            line.put("modelVersionsPerInterval", round(result.versionsPerInterval(), 3));
        }
        return write(line);
    }

    private static void putPercentiles(Map<String, Object> line, String name, Percentiles percentiles,
                                       boolean withCount) {
        if (withCount) {
            line.put(name + "Samples", percentiles.count());
        }
        line.put(name + "P50", percentiles.p50());
        line.put(name + "P99", percentiles.p99());
        line.put(name + "Max", percentiles.max());
    }

    /** What every kind of bench line says of the run's settings: model shape, tasks, guarantee, keys set. */
    static void putSettings(Map<String, Object> line, BenchSettings settings) {
        line.put("classes", settings.classes());
        line.put("features", settings.features());
        line.put("partitions", settings.partitions());
        line.put("threads", settings.threads());
        line.put("guarantee", settings.guarantee());
        line.put("set", settings.configuration().set());
    }

    /** Where the run ran: the CPU layout and pinning, and in how many processes per stage. */
    static void putShape(Map<String, Object> line, RunShape shape) {
        line.put("layout", shape.pinning().layout());
        line.put("brokerCpus", shape.pinning().brokerCpus());
        line.put("appCpus", shape.pinning().appCpus());
        line.put("instances", shape.instances());
    }

    /** A stage's events per second over the passthrough's of the same round. */
    static double vsPassthrough(StageResult stage, StageResult passthrough) {
        return stage.eventsPerSecond() / passthrough.eventsPerSecond();
    }

    /** The ratios of round {@code round} (null: of the only round, and the line has no round key). */
    static String ratiosLine(Integer round, double trainingVsPassthrough, double scoringVsPassthrough) {
        Map<String, Object> line = new LinkedHashMap<>();
        if (round != null) {
            line.put("round", round);
        }
        line.put("trainingVsPassthrough", round(trainingVsPassthrough, 3));
        line.put("scoringVsPassthrough", round(scoringVsPassthrough, 3));
        return write(line);
    }

    /**
     * The last line of a run of several rounds: the median of each ratio over the rounds under the one-round keys,
     * then every round's ratios in round order.
     */
    static String roundsLine(List<Double> trainingRatios, List<Double> scoringRatios) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("rounds", trainingRatios.size());
        line.put("trainingVsPassthrough", round(median(trainingRatios), 3));
        line.put("scoringVsPassthrough", round(median(scoringRatios), 3));
        line.put("trainingVsPassthroughByRound", trainingRatios.stream().map(r -> round(r, 3)).toList());
        line.put("scoringVsPassthroughByRound", scoringRatios.stream().map(r -> round(r, 3)).toList());
        return write(line);
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    static String write(Map<String, Object> line) {
        try {
            return Json.mapper().writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a report line", e);
        }
    }
}
