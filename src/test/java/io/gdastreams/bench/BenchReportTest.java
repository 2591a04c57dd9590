package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.serde.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static final BenchSettings SETTINGS = new BenchSettings(3, 16, 200_000, 4, 2, "exactly_once_v2", 42,
            2000, 1000, Duration.ofMillis(250), BenchConfiguration.DEFAULTS);

    @Test
    void shouldStartEveryStageLineWithTheFourFixedKeys() throws Exception {
        StageResult scoring = new StageResult("scoring", 200_000, 8.0, 1.5, Percentiles.of(new long[]{30, 10, 20}));
        JsonNode line = Json.mapper().readTree(BenchReport.stageLine(scoring, SETTINGS, RunShape.IN_PROCESS));
        List<String> keys = new ArrayList<>();
        line.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("stage", "events", "seconds", "eventsPerSecond"), keys.subList(0, 4));
        assertEquals("scoring", line.get("stage").textValue());
        assertEquals(200_000, line.get("events").longValue());
        assertEquals(8.0, line.get("seconds").doubleValue(), 0.0);
        assertEquals(25_000, line.get("eventsPerSecond").longValue());
        assertEquals(20, line.get("latencyMsP50").longValue());
        assertEquals(30, line.get("latencyMsP99").longValue());
        assertEquals("exactly_once_v2", line.get("guarantee").textValue());
        assertEquals(null, line.get("appCpuMicrosPerEvent").numberValue(), "not measured");
        assertEquals(null, line.get("jitCompileSeconds").numberValue(), "not measured");
        assertEquals(null, line.get("storedBytesPerEvent").numberValue(), "not measured");
        StageResult measured = new StageResult("scoring", 200_000, 8.0, 1.5, Percentiles.EMPTY, Percentiles.EMPTY, 1.5,
                Double.NaN, 0.12345, 24_680_240);
        JsonNode measuredLine = Json.mapper().readTree(BenchReport.stageLine(measured, SETTINGS, RunShape.IN_PROCESS));
        assertEquals(7.5, measuredLine.get("appCpuMicrosPerEvent").doubleValue(), 0.0);
        assertEquals(0.123, measuredLine.get("jitCompileSeconds").doubleValue(), 0.0, "unscaled, to the millisecond");
        assertEquals(123.4, measuredLine.get("storedBytesPerEvent").doubleValue(), 0.0, "per event, to a tenth");
    }

    @Test
    void shouldNameTheTrainingDelayFreshness() throws Exception {
        StageResult training = new StageResult("training", 100, 1.0, 1.0, Percentiles.of(new long[]{400}));
        JsonNode line = Json.mapper().readTree(BenchReport.stageLine(training, SETTINGS, RunShape.IN_PROCESS));
        assertEquals(400, line.get("freshnessMsP50").longValue());
        assertEquals(1, line.get("freshnessMsSamples").intValue());
    }

    @Test
    void shouldReportTheReadDelaysAfterTheAppendOnesOnlyWhenMeasured() throws Exception {
        PacedMeasurement.Delays delays = new PacedMeasurement.Delays(Percentiles.of(new long[]{10, 30}),
                Percentiles.of(new long[]{25, 45}), Double.NaN);
        JsonNode scoring = Json.mapper().readTree(BenchReport.stageLine(
                new StageResult("scoring", 100, 1.0, 1.0, delays, 2.0, Double.NaN, Double.NaN), SETTINGS, RunShape.IN_PROCESS));
        List<String> keys = new ArrayList<>();
        scoring.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("latencyMsSamples", "latencyMsP50", "latencyMsP99", "latencyMsMax", "visibleLatencyMsP50",
                "visibleLatencyMsP99", "visibleLatencyMsMax"), keys.subList(keys.size() - 7, keys.size()));
        assertEquals(25, scoring.get("visibleLatencyMsP50").longValue());
        assertEquals(45, scoring.get("visibleLatencyMsP99").longValue());
        JsonNode training = Json.mapper().readTree(BenchReport.stageLine(
                new StageResult("training", 100, 1.0, 1.0, delays, 2.0, Double.NaN, Double.NaN), SETTINGS, RunShape.IN_PROCESS));
        assertEquals(45, training.get("visibleFreshnessMsMax").longValue());
        JsonNode unmeasured = Json.mapper().readTree(BenchReport.stageLine(
                new StageResult("scoring", 100, 1.0, 1.0, Percentiles.of(new long[]{10})), SETTINGS,
                RunShape.IN_PROCESS));
        assertEquals(null, unmeasured.get("visibleLatencyMsP50"), "no read delays: no fields");
        assertEquals(null, training.get("modelVersionsPerInterval"), "not measured: no field");
    }

    @Test
    void shouldReportTheModelVersionsPerIntervalOfAFreshnessMeasurement() throws Exception {
        PacedMeasurement.Delays delays = new PacedMeasurement.Delays(Percentiles.of(new long[]{10, 30}),
                Percentiles.of(new long[]{25, 45}), 1.25);
        JsonNode training = Json.mapper().readTree(BenchReport.stageLine(
                new StageResult("training", 100, 1.0, 1.0, delays, 2.0, Double.NaN, Double.NaN), SETTINGS, RunShape.IN_PROCESS));
        assertEquals(1.25, training.get("modelVersionsPerInterval").doubleValue(), 0.0);
    }

    @Test
    void shouldReportThroughputRatiosAgainstPassthrough() throws Exception {
        StageResult passthrough = new StageResult("passthrough", 1000, 2.0, 0, Percentiles.EMPTY);
        StageResult training = new StageResult("training", 1000, 2.5, 0, Percentiles.EMPTY);
        StageResult scoring = new StageResult("scoring", 1000, 4.0, 0, Percentiles.EMPTY);
        JsonNode line = Json.mapper().readTree(BenchReport.ratiosLine(null,
                BenchReport.vsPassthrough(training, passthrough), BenchReport.vsPassthrough(scoring, passthrough)));
        List<String> keys = new ArrayList<>();
        line.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("trainingVsPassthrough", "scoringVsPassthrough"), keys);
        assertEquals(0.8, line.get("trainingVsPassthrough").doubleValue(), 0.0);
        assertEquals(0.5, line.get("scoringVsPassthrough").doubleValue(), 0.0);
    }

    @Test
    void shouldSummariseRoundsByTheMedianOfEachRatioAndListEveryRound() throws Exception {
        JsonNode line = Json.mapper().readTree(BenchReport.roundsLine(List.of(3.0, 2.5, 4.0), List.of(2.25, 1.5,
                1.75)));
        List<String> keys = new ArrayList<>();
        line.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("rounds", "trainingVsPassthrough", "scoringVsPassthrough", "trainingVsPassthroughByRound",
                "scoringVsPassthroughByRound"), keys);
        assertEquals(3, line.get("rounds").intValue());
        assertEquals(3.0, line.get("trainingVsPassthrough").doubleValue(), 0.0);
        assertEquals(1.75, line.get("scoringVsPassthrough").doubleValue(), 0.0);
        assertEquals("[2.25,1.5,1.75]", line.get("scoringVsPassthroughByRound").toString());
        StageResult passthrough = new StageResult("passthrough", 1000, 2.0, 0, Percentiles.EMPTY);
        JsonNode ratios = Json.mapper().readTree(BenchReport.ratiosLine(2, BenchReport.vsPassthrough(
                new StageResult("training", 1000, 1.0, 0, Percentiles.EMPTY), passthrough), BenchReport.vsPassthrough(
                new StageResult("scoring", 1000, 1.6, 0, Percentiles.EMPTY), passthrough)));
        assertEquals(2, ratios.get("round").intValue());
        assertEquals(2.0, ratios.get("trainingVsPassthrough").doubleValue(), 0.0);
        assertEquals(1.25, ratios.get("scoringVsPassthrough").doubleValue(), 0.0);
    }

    @Test
    void shouldTakeNearestRankPercentiles() {
        long[] values = new long[200];
        for (int i = 0; i < values.length; i++) {
            values[i] = values.length - i; // 200 .. 1, unsorted on purpose
        }
        Percentiles p = Percentiles.of(values);
        assertEquals(100, p.p50());
        assertEquals(198, p.p99());
        assertEquals(200, p.max());
        assertEquals(200, values[0], "input not modified");
    }

    @Test
    void shouldRepeatTheSetKeysInEveryStageLine() throws Exception {
        BenchSettings set = new BenchSettings(3, 16, 200_000, 4, 2, "exactly_once_v2", 42, 2000, 1000,
                Duration.ofMillis(250), BenchConfiguration.of(List.of("gda.covariance=diag", "linger.ms=5"), 3, 16));
        StageResult scoring = new StageResult("scoring", 100, 1.0, 1.0, Percentiles.of(new long[]{10}));
        JsonNode line = Json.mapper().readTree(BenchReport.stageLine(scoring, set, RunShape.IN_PROCESS));
        assertEquals("diag", line.get("set").get("gda.covariance").textValue());
        assertEquals("5", line.get("set").get("linger.ms").textValue());
        assertEquals(0, Json.mapper().readTree(BenchReport.stageLine(scoring, SETTINGS, RunShape.IN_PROCESS)).get("set").size());
    }
}
