package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.cli.Main;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bench's #17 modes on a real broker, through the command, with tiny runs (no numbers are judged here, only
 * that each mode runs end to end and reports what it says): the disjoint layout with child instances (embedded
 * broker under taskset), the latency profile and the memory mode (on the test broker).
 */
@ExtendWith(KafkaBrokerExtension.class)
class BenchIT {

    private static final int TINY_EVENTS = 300;
    private static final List<String> TINY_WITH_WARMUP = List.of("--events", Integer.toString(TINY_EVENTS),
            "--latency-events", "20",
            "--latency-rate", "200", "--partitions", "2", "--threads", "1", "--stage-timeout", "300");
    private static final List<String> TINY = concat(TINY_WITH_WARMUP, List.of("--warmup-events", "0"));
    /** The bench's defaults of --classes, --features and --seed. */
    private static final int BENCH_CLASSES = 3;
    private static final int BENCH_FEATURES = 16;
    private static final long BENCH_SEED = 42;
    /** Stored bytes over the records' own: Kafka's record and batch framing and transaction markers. */
    private static final double MAX_FRAMING = 1.25;

    /** A bench's stage lines, and its progress on standard error. */
    private record Run(List<JsonNode> lines, String progress) {
    }

    private static List<JsonNode> bench(List<String> options) throws Exception {
        return bench(TINY, options).lines();
    }

    private static Run bench(List<String> base, List<String> options) throws Exception {
        List<String> args = new ArrayList<>(List.of("bench"));
        args.addAll(base);
        args.addAll(options);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            if (!line.isBlank()) {
                lines.add(Json.mapper().readTree(line));
            }
        }
        return new Run(lines, err.toString());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    @Test
    void shouldRunTheThreeStagesAsChildInstancesWithTheBrokerAndTheAppsOnDisjointCpus() throws Exception {
        CpuPinning.Platform platform = CpuPinning.SYSTEM;
        SortedSet<Integer> before = platform.allowedCpus();
        assumeTrue(platform.isLinux() && platform.hasTaskset() && before.size() >= 2,
                "needs Linux, taskset and two CPUs");
        String broker = Integer.toString(before.first());
        String app = Integer.toString(before.last());

        List<JsonNode> lines = bench(List.of("--broker-cpus", broker, "--app-cpus", app, "--instances", "2",
                "--instance-heap", "256m"));

        assertEquals(4, lines.size(), lines.toString());
        for (JsonNode stage : lines.subList(0, 3)) {
            assertEquals("disjoint", stage.get("layout").textValue());
            assertEquals(broker, stage.get("brokerCpus").textValue());
            assertEquals(app, stage.get("appCpus").textValue());
            assertEquals(2, stage.get("instances").intValue());
            assertEquals(300, stage.get("events").longValue());
            assertTrue(stage.get("eventsPerSecond").longValue() > 0, stage.toString());
        }
        assertEquals(20, lines.get(1).get("freshnessMsSamples").intValue());
        assertEquals(20, lines.get(2).get("latencyMsSamples").intValue());
        assertVisibleNoSooner(lines.get(1), "freshnessMs", "visibleFreshnessMs");
        assertVisibleNoSooner(lines.get(2), "latencyMs", "visibleLatencyMs");
        assertEquals(before, platform.allowedCpus(), "this JVM's CPUs are put back after the run");
    }

    /** --rounds 2: the three stages twice, the passthrough first, then last; the medians of the two rounds. */
    @Test
    void shouldRunTheThreeStagesInRoundsWithThePassthroughFirstAndThenLast(KafkaBroker broker) throws Exception {
        List<JsonNode> lines = bench(List.of("--rounds", "2", "--bootstrap-servers", broker.bootstrapServers()));

        assertEquals(9, lines.size(), lines.toString());
        List<String> order = new ArrayList<>();
        for (JsonNode line : lines.subList(0, 8)) {
            if (line.has("stage")) {
                assertTrue(line.get("storedBytesPerEvent").doubleValue() > 0, line.toString());
            }
            order.add(line.get("round").intValue() + ":" + (line.has("stage") ? line.get("stage").textValue()
                    : "ratios"));
        }
        assertEquals(List.of("1:passthrough", "1:training", "1:scoring", "1:ratios", "2:training", "2:scoring",
                "2:passthrough", "2:ratios"), order);
        JsonNode first = lines.get(3);
        JsonNode second = lines.get(7);
        double scoring = lines.get(2).get("eventsPerSecond").doubleValue();
        double passthrough = lines.get(0).get("eventsPerSecond").doubleValue();
        // The line's rates are rounded to whole events per second (± 0.5 each, relative 0.5/rate, which at the few
        // hundred to a few thousand events per second of a 300-event run can move the third decimal), and both ratios
        // to three decimals. A fixed 0.002 failed once in CI (1.014 reported, 1.012 from the rounded rates).
        double scoringRatio = scoring / passthrough;
        double tolerance = scoringRatio * (0.5 / scoring + 0.5 / passthrough) * 1.01 + 0.001 + 1e-9;
        assertEquals(scoringRatio, first.get("scoringVsPassthrough").doubleValue(), tolerance,
                "the ratio of the round's (rounded) rates");
        JsonNode summary = lines.get(8);
        assertEquals(2, summary.get("rounds").intValue());
        for (String ratio : List.of("trainingVsPassthrough", "scoringVsPassthrough")) {
            JsonNode byRound = summary.get(ratio + "ByRound");
            assertEquals(first.get(ratio).doubleValue(), byRound.get(0).doubleValue(), 0.0);
            assertEquals(second.get(ratio).doubleValue(), byRound.get(1).doubleValue(), 0.0);
            assertEquals((first.get(ratio).doubleValue() + second.get(ratio).doubleValue()) / 2,
                    summary.get(ratio).doubleValue(), 0.0011, "the median of two is their mean");
        }
    }

    /**
     * The warm-up repeats its passes (of every stage) until one in which the JIT compiled for less than a tenth of
     * it, at most --warmup-passes; every stage line then says how long the JIT compiled while it was measured.
     */
    @Test
    void shouldWarmUpInPassesUntilTheJitIsQuietAndReportWhatItCompiledWhileMeasuring(KafkaBroker broker)
            throws Exception {
        Run run = bench(TINY_WITH_WARMUP, List.of("--warmup-events", "200", "--warmup-passes", "2",
                "--bootstrap-servers", broker.bootstrapServers()));

        Matcher pass = Pattern.compile("warm-up pass (\\d): the JIT compiled for \\d+ % of its [0-9.]+ s(.*)")
                .matcher(run.progress());
        List<String> passes = new ArrayList<>();
        while (pass.find()) {
            String ending = pass.group(2).equals(" (quiet)") ? "quiet"
                    : pass.group(2).startsWith("; still compiling after 2 passes") ? "last" : "again";
            passes.add(pass.group(1) + ":" + ending);
            assertTrue(run.progress().contains("warm-up pass " + pass.group(1)
                    + " (200 events per stage, not reported)"), run.progress());
        }
        // A quiet pass is the last; a pass that is not is followed by another, until the second.
        assertTrue(passes.equals(List.of("1:quiet")) || passes.equals(List.of("1:again", "2:quiet"))
                || passes.equals(List.of("1:again", "2:last")), run.progress());
        assertEquals(4, run.lines().size(), run.lines().toString());
        for (JsonNode stage : run.lines().subList(0, 3)) {
            assertTrue(stage.get("jitCompileSeconds").isNumber() && stage.get("jitCompileSeconds").doubleValue() >= 0,
                    stage.toString());
        }
    }

    /**
     * --variant-stage scoring: the scoring stage alone, baseline and variant in alternating rounds, every round
     * scoring with the one model trained before them (each stage line checks that every output was a scored
     * prediction, so a round without the model would fail the run, not report a rate).
     */
    @Test
    void shouldCompareTheScoringStageAloneInAlternatingRounds(KafkaBroker broker) throws Exception {
        List<JsonNode> lines = bench(List.of("--rounds", "2", "--variant-stage", "scoring", "--variant",
                "idle:max.task.idle.ms=0", "--bootstrap-servers", broker.bootstrapServers()));

        assertEquals(5, lines.size(), lines.toString());
        List<String> order = new ArrayList<>();
        for (JsonNode line : lines.subList(0, 4)) {
            assertEquals("scoring", line.get("stage").textValue());
            assertEquals(300, line.get("events").longValue());
            assertTrue(line.get("eventsPerSecond").longValue() > 0, line.toString());
            order.add(line.get("round").intValue() + ":" + line.get("variant").textValue());
        }
        assertEquals(List.of("1:baseline", "1:idle", "2:idle", "2:baseline"), order);
        assertEquals("0", lines.get(1).get("set").get("max.task.idle.ms").textValue());
        assertTrue(lines.get(0).get("set").isEmpty(), lines.get(0).toString());
        JsonNode comparison = lines.get(4).get("comparison");
        double baselineRate = (lines.get(0).get("eventsPerSecond").doubleValue()
                + lines.get(3).get("eventsPerSecond").doubleValue()) / 2;
        assertEquals(baselineRate, comparison.get("baseline").get("medianEventsPerSecond").doubleValue(), 1.0,
                "the median of two rounds is their mean");
        assertEquals(1.0, comparison.get("baseline").get("medianRatioToBaseline").doubleValue(), 0.0);
        assertTrue(comparison.get("idle").get("medianRatioToBaseline").doubleValue() > 0, comparison.toString());
        double baselineBytes = (lines.get(0).get("storedBytesPerEvent").doubleValue()
                + lines.get(3).get("storedBytesPerEvent").doubleValue()) / 2;
        assertTrue(baselineBytes > 0, lines.get(0).toString());
        assertEquals(baselineBytes, comparison.get("baseline").get("medianStoredBytesPerEvent").doubleValue(), 0.1,
                "the bytes per event of the stage lines (to their 0.1), summarised");
        assertEquals(1.0, comparison.get("baseline").get("medianStoredBytesRatioToBaseline").doubleValue(), 0.0);
    }

    /**
     * Every stage line says how many bytes its application made the broker write per event, read from the broker's
     * log sizes. The passthrough writes each event back: with compression off, its key and re-encoded value are a
     * floor, and Kafka's framing (≈ 12 bytes a record, 61 a batch, a marker per partition and commit) stays under
     * a quarter more at these event sizes; with the LZ4 default the same records take fewer bytes.
     */
    @Test
    void shouldReportTheBytesThePassthroughMadeTheBrokerWriteWithAndWithoutCompression(KafkaBroker broker)
            throws Exception {
        List<JsonNode> lines = bench(List.of("--rounds", "1", "--variant-stage", "passthrough", "--variant",
                "none:compression.type=none", "--bootstrap-servers", broker.bootstrapServers()));

        assertEquals(3, lines.size(), lines.toString());
        JsonNode lz4 = lines.get(0);
        JsonNode none = lines.get(1);
        assertEquals("baseline", lz4.get("variant").textValue());
        assertEquals("none", none.get("variant").textValue());
        SyntheticStream stream = new SyntheticStream(BENCH_CLASSES, BENCH_FEATURES, BENCH_SEED);
        long recordBytes = 0;
        for (int i = 0; i < TINY_EVENTS; i++) {
            recordBytes += SyntheticStream.key(EventLoader.THROUGHPUT_KEY_PREFIX, i).length
                    + PassthroughTopology.reencode(stream.labelled(i)).length;
        }
        double floor = (double) recordBytes / TINY_EVENTS;
        double uncompressed = none.get("storedBytesPerEvent").doubleValue();
        assertTrue(uncompressed >= floor && uncompressed <= MAX_FRAMING * floor,
                uncompressed + " bytes per event stored, the records alone " + floor);
        double compressed = lz4.get("storedBytesPerEvent").doubleValue();
        assertTrue(compressed > 0 && compressed < uncompressed, compressed + " against " + uncompressed);
    }

    @Test
    void shouldProfileScoringLatencyUnderBothGuaranteesAtThreeCommitIntervals(KafkaBroker broker) throws Exception {
        Run run = bench(TINY_WITH_WARMUP, List.of("--latency-profile", "--warmup-events", "100", "--warmup-passes",
                "1", "--bootstrap-servers", broker.bootstrapServers()));
        List<JsonNode> lines = run.lines();

        for (String guarantee : BenchSettings.GUARANTEES) {
            assertTrue(run.progress().contains("warm-up pass 1 (100 events per stage, not reported)...\n"
                    + "  warming up scoring, exactly_once_v2...\n") && run.progress().contains(
                    "  warming up scoring, " + guarantee + "..."),
                    "the scorer is warmed up under both guarantees before the first setting: " + run.progress());
        }
        assertTrue(run.progress().indexOf("warm-up pass 1: the JIT compiled for") < run.progress().indexOf(
                "scoring, exactly_once_v2, commit.interval.ms = 10..."), run.progress());
        assertEquals(7, lines.size(), lines.toString());
        List<LatencyProfile.Setting> settings = LatencyProfile.settings();
        for (int i = 0; i < 6; i++) {
            JsonNode stage = lines.get(i);
            assertEquals("scoring", stage.get("stage").textValue());
            assertEquals(settings.get(i).guarantee(), stage.get("guarantee").textValue());
            assertEquals(Integer.toString(settings.get(i).commitIntervalMs()),
                    stage.get("set").get("commit.interval.ms").textValue());
            assertEquals(20, stage.get("latencyMsSamples").intValue());
        }
        JsonNode rows = lines.get(6).get("latencyProfile");
        assertEquals(6, rows.size());
        JsonNode reference = rows.get(2);
        assertEquals("exactly_once_v2", reference.get("guarantee").textValue());
        assertEquals(100, reference.get("commitIntervalMs").intValue());
        assertEquals(1.0, reference.get("throughputVsDefault").doubleValue(), 0.0);
        for (JsonNode row : rows) {
            assertTrue(row.get("latencyMsP99").longValue() >= row.get("latencyMsP50").longValue(), row.toString());
            assertTrue(row.get("visibleLatencyMsP99").longValue() >= row.get("latencyMsP99").longValue(),
                    row.toString());
        }
    }

    /**
     * Each paced event's output is read after it was appended (the broker and the bench share this machine's
     * clock), so every percentile of the read delay is at least that of the append delay.
     */
    private static void assertVisibleNoSooner(JsonNode stage, String appended, String visible) {
        for (String percentile : List.of("P50", "P99", "Max")) {
            assertTrue(stage.get(visible + percentile).longValue() >= stage.get(appended + percentile).longValue(),
                    percentile + " " + stage);
        }
    }

    @Test
    void shouldMeasureResidentMemoryOfTrainingAndScoringAfterNTwiceNAndThriceNEvents(KafkaBroker broker) throws Exception {
        assumeTrue(CpuPinning.SYSTEM.isLinux(), "reads /proc");
        List<JsonNode> lines = bench(List.of("--memory", "--classes", "3", "--features", "8", "--instance-heap",
                "256m", "--bootstrap-servers", broker.bootstrapServers()));

        assertEquals(2, lines.size(), lines.toString());
        assertEquals("training", lines.get(0).get("stage").textValue());
        assertEquals("scoring", lines.get(1).get("stage").textValue());
        for (JsonNode line : lines) {
            assertEquals("memory", line.get("mode").textValue());
            assertEquals(1, line.get("instances").intValue());
            assertEquals(BenchCommand.MEMORY_PUBLISH_INTERVAL_MS, line.get("publishIntervalMs").longValue(),
                    "--memory's own default interval");
            List<Long> after = new ArrayList<>();
            line.get("afterEvents").forEach(events -> after.add(events.longValue()));
            assertEquals(List.of(300L, 600L, 900L), after);
            for (int i = 0; i < MemoryRun.SAMPLES; i++) {
                double peak = line.get("peakRssMiB").get(i).doubleValue();
                double rss = line.get("rssMiB").get(i).doubleValue();
                double heap = line.get("heapAfterGcMiB").get(i).doubleValue();
                assertTrue(peak >= rss && rss > 0 && heap > 0 && heap <= 256, line.toString());
            }
            assertEquals(line.get("heapAfterGcMiB").get(2).doubleValue() - line.get("heapAfterGcMiB").get(1)
                    .doubleValue(), line.get("heapGrowthMiB").doubleValue(), 0.11, "between the last two samples");
        }
    }
}
