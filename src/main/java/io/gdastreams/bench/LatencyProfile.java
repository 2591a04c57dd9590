package io.gdastreams.bench;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench --latency-profile}: the scoring stage (throughput, then paced latency event append → prediction
 * append) once per processing guarantee × {@code commit.interval.ms} in {@link #COMMIT_INTERVALS_MS}, all in one
 * invocation against one broker, with one model trained first and the scorer warmed up under both guarantees
 * ({@link WarmUp}) before the first setting is measured. Each setting's throughput is also given as a
 * ratio to the default profile ({@value #DEFAULT_GUARANTEE}, {@value #DEFAULT_COMMIT_INTERVAL_MS} ms: gda-streams'
 * defaults).
 */
final class LatencyProfile {

    static final List<Integer> COMMIT_INTERVALS_MS = List.of(10, 50, 100);
    static final String DEFAULT_GUARANTEE = "exactly_once_v2";
    static final int DEFAULT_COMMIT_INTERVAL_MS = 100;
    static final String COMMIT_INTERVAL = "commit.interval.ms";

    /** One setting of the profile. */
    record Setting(String guarantee, int commitIntervalMs) {

        boolean isDefault() {
            return guarantee.equals(DEFAULT_GUARANTEE) && commitIntervalMs == DEFAULT_COMMIT_INTERVAL_MS;
        }

        String label() {
            return (guarantee.equals(DEFAULT_GUARANTEE) ? "eos" : "alos") + commitIntervalMs;
        }

        /** {@code base} under this setting: its guarantee, and the run's --set keys with its commit interval. */
        BenchSettings applyTo(BenchSettings base, List<String> set) {
            return base.withGuaranteeAndConfiguration(guarantee,
                    BenchConfiguration.of(withCommitInterval(set, commitIntervalMs), base.classes(), base.features()));
        }
    }

    private LatencyProfile() {
    }

    /** Every guarantee × every commit interval, exactly-once first. */
    static List<Setting> settings() {
        List<Setting> settings = new ArrayList<>();
        for (String guarantee : BenchSettings.GUARANTEES) {
            for (int interval : COMMIT_INTERVALS_MS) {
                settings.add(new Setting(guarantee, interval));
            }
        }
        return settings;
    }

    /** The run's --set keys plus the setting's commit interval; the profile owns that key. */
    static List<String> withCommitInterval(List<String> set, int commitIntervalMs) {
        for (String setting : set) {
            if (setting.strip().startsWith(COMMIT_INTERVAL + "=")) {
                throw new UserError("--latency-profile sets " + COMMIT_INTERVAL + " itself; drop --set " + setting);
            }
        }
        List<String> all = new ArrayList<>(set);
        all.add(COMMIT_INTERVAL + "=" + commitIntervalMs);
        return all;
    }

    /**
     * Trains a model with {@code base}, warms up the scorer, then runs the scoring stage once per setting; prints
     * one line each.
     */
    static void run(BenchSettings base, List<String> set, AppPlacement placement, String bootstrap, String runId,
                    Path stateDirectory, Duration stageTimeout, WarmUp warmUp, PrintWriter out, PrintWriter progress) {
        ModelParameters model;
        try (StageRunner runner = new StageRunner(bootstrap, base, placement, WarmUp.modelRunId(runId), stateDirectory,
                stageTimeout, progress)) {
            progress.println("training the model the profile scores with...");
            progress.flush();
            model = runner.training().model();
        }
        // Without it the first setting was measured while C2 still compiled the clients' code (docs/BENCHMARKS.md);
        // both guarantees, since at-least-once runs without transactions, a path exactly-once never takes.
        warmUp.run(pass -> {
            for (String guarantee : BenchSettings.GUARANTEES) {
                BenchSettings settings = warmUp.settingsOf(new Setting(guarantee, DEFAULT_COMMIT_INTERVAL_MS)
                        .applyTo(base, set));
                progress.println("  warming up scoring, " + guarantee + "...");
                progress.flush();
                try (StageRunner runner = new StageRunner(bootstrap, settings, placement,
                        WarmUp.runId(runId, pass) + "-" + guarantee, stateDirectory, stageTimeout, progress)) {
                    runner.scoring(model);
                }
            }
        }, progress);
        List<Map<String, Object>> rows = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        StageResult reference = null;
        for (Setting setting : settings()) {
            BenchSettings settings = setting.applyTo(base, set);
            progress.println("scoring, " + setting.guarantee() + ", " + COMMIT_INTERVAL + " = "
                    + setting.commitIntervalMs() + "...");
            progress.flush();
            StageResult scoring;
            try (StageRunner runner = new StageRunner(bootstrap, settings, placement, runId + "-" + setting.label(),
                    stateDirectory, stageTimeout, progress)) {
                scoring = runner.scoring(model);
            }
            out.println(BenchReport.stageLine(scoring, settings, placement.shape()));
            out.flush();
            if (setting.isDefault()) {
                reference = scoring;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("guarantee", setting.guarantee());
            row.put("commitIntervalMs", setting.commitIntervalMs());
            row.put("eventsPerSecond", Math.round(scoring.eventsPerSecond()));
            row.put("latencyMsP50", scoring.latency().p50());
            row.put("latencyMsP99", scoring.latency().p99());
            row.put("visibleLatencyMsP50", scoring.visible().p50());
            row.put("visibleLatencyMsP99", scoring.visible().p99());
            rows.add(row);
            rates.add(scoring.eventsPerSecond());
        }
        for (int i = 0; i < rows.size(); i++) {
            // From the unrounded rates: the default's own ratio is exactly 1.
            rows.get(i).put("throughputVsDefault", reference == null ? null
                    : BenchReport.round(rates.get(i) / reference.eventsPerSecond(), 3));
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("latencyProfile", rows);
        BenchReport.putShape(summary, placement.shape());
        out.println(BenchReport.write(summary));
        out.flush();
    }
}
