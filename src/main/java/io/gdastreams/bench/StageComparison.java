package io.gdastreams.bench;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench --variant NAME:KEY=VALUE;... --rounds N [--variant-stage STAGE]}: one stage only (training unless
 * {@code --variant-stage} names scoring or the passthrough), for the baseline (the {@code --set} keys) and each
 * variant (the same keys plus its own), in alternating rounds (the order reverses every other round), so that the
 * comparison shares one run's conditions: a machine whose load drifts during the run slows every configuration
 * alike instead of the one measured last. Each configuration first runs an unreported warm-up (as the three-stage
 * bench does); a scoring comparison first trains, unreported and with the baseline's keys, the one model every
 * scoring round is given (what a scorer does per event does not depend on how many events its model absorbed).
 * Prints a stage line per (round, variant) and, at the end, each variant's median events/s and the median of its
 * per-round ratios to the baseline, the same for the CPU time of the application's threads per event, which the
 * load of other processes moves far less, and for the bytes the broker holds per event (docs/BENCHMARKS.md).
 */
final class StageComparison {

    static final String BASELINE = "baseline";
    /** Rounds of a comparison when {@code --rounds} is not given. */
    static final int DEFAULT_ROUNDS = 3;

    /** A named set of extra {@code KEY=VALUE} settings. */
    record Variant(String name, List<String> settings) {

        /** {@code NAME:KEY=VALUE;KEY=VALUE} (a value may hold ',' but not ';'). */
        static Variant parse(String spec) {
            int colon = spec.indexOf(':');
            String name = colon < 0 ? "" : spec.substring(0, colon).trim();
            if (name.isEmpty() || name.equals(BASELINE) || colon == spec.length() - 1) {
                throw new UserError("--variant " + spec + ": expected NAME:KEY=VALUE[;KEY=VALUE...] with a name"
                        + " other than '" + BASELINE + "'");
            }
            return new Variant(name, Arrays.stream(spec.substring(colon + 1).split(";")).map(String::trim)
                    .filter(s -> !s.isEmpty()).toList());
        }
    }

    /** Events of the model a scoring comparison trains before its rounds (the bench's largest warm-up). */
    static final long SCORING_MODEL_EVENTS = 50_000;

    private final Stage stage;
    private final List<Variant> variants;
    private final int rounds;

    StageComparison(Stage stage, List<Variant> variants, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, got " + rounds);
        }
        List<String> names = new ArrayList<>();
        for (Variant v : variants) {
            if (names.contains(v.name())) {
                throw new UserError("--variant " + v.name() + " is given twice");
            }
            names.add(v.name());
        }
        this.stage = stage;
        this.variants = List.copyOf(variants);
        this.rounds = rounds;
    }

    /**
     * Runs the rounds; {@code settingsOf} gives the settings of a variant's extra keys (none for the baseline).
     */
    void run(String bootstrap, AppPlacement placement,
             java.util.function.Function<List<String>, BenchSettings> settingsOf, String runId, Path stateDirectory,
             Duration stageTimeout, WarmUp warmUp, PrintWriter out, PrintWriter progress) {
        List<Variant> all = new ArrayList<>();
        all.add(new Variant(BASELINE, List.of()));
        all.addAll(variants);
        Map<String, BenchSettings> settings = new LinkedHashMap<>();
        for (Variant v : all) {
            settings.put(v.name(), settingsOf.apply(v.settings())); // user errors before anything runs
        }
        ModelParameters model = stage == Stage.SCORING ? scorersModel(bootstrap, placement, settings.get(BASELINE),
                runId, stateDirectory, stageTimeout, warmUp.pacedEvents(), progress) : null;
        // An unreported warm-up of every configuration first, so that the JIT has compiled each one's paths
        // (forgetting and prequential evaluation run code the baseline does not) before any round is timed.
        warmUp.run(pass -> {
            for (Variant v : all) {
                progress.println("  warming up " + v.name() + "...");
                progress.flush();
                try (StageRunner runner = new StageRunner(bootstrap, warmUp.settingsOf(settings.get(v.name())),
                        placement, WarmUp.runId(runId, pass) + "-" + v.name(), stateDirectory, stageTimeout,
                        progress)) {
                    run(runner, model);
                }
            }
        }, progress);
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Map<String, List<Double>> cpuPerEvent = new LinkedHashMap<>();
        Map<String, List<Double>> bytesPerEvent = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            List<Variant> order = new ArrayList<>(all);
            if (round % 2 == 0) {
                Collections.reverse(order);
            }
            for (Variant v : order) {
                progress.println("round " + round + " of " + rounds + ": " + stage.label() + ", " + v.name() + "...");
                progress.flush();
                try (StageRunner runner = new StageRunner(bootstrap, settings.get(v.name()), placement,
                        runId + "-r" + round + "-" + v.name(), stateDirectory, stageTimeout, progress)) {
                    StageResult result = run(runner, model);
                    rates.computeIfAbsent(v.name(), n -> new ArrayList<>()).add(result.eventsPerSecond());
                    cpuPerEvent.computeIfAbsent(v.name(), n -> new ArrayList<>()).add(result.appCpuMicrosPerEvent());
                    bytesPerEvent.computeIfAbsent(v.name(), n -> new ArrayList<>()).add(result.storedBytesPerEvent());
                    out.println(BenchReport.variantLine(round, v.name(), result, settings.get(v.name()),
                            placement.shape()));
                    out.flush();
                }
            }
        }
        out.println(BenchReport.comparisonLine(rates, cpuPerEvent, bytesPerEvent, BASELINE));
        out.flush();
    }

    /** The one model every scoring round scores with, trained (not reported) with the baseline's keys. */
    private static ModelParameters scorersModel(String bootstrap, AppPlacement placement, BenchSettings baseline,
                                                String runId, Path stateDirectory, Duration stageTimeout,
                                                int pacedEvents, PrintWriter progress) {
        long events = Math.min(SCORING_MODEL_EVENTS, baseline.events());
        progress.println("training the scorers' model (" + events + " events, not reported)...");
        progress.flush();
        try (StageRunner runner = new StageRunner(bootstrap, baseline.withEvents(events, pacedEvents), placement,
                WarmUp.modelRunId(runId), stateDirectory, stageTimeout, progress)) {
            return runner.training().model();
        }
    }

    /** One run of the compared stage ({@code model}: the scorers' model, null for the other stages). */
    private StageResult run(StageRunner runner, ModelParameters model) {
        return switch (stage) {
            case TRAINING -> runner.training().result();
            case SCORING -> runner.scoring(model);
            case PASSTHROUGH -> runner.passthrough();
        };
    }
}
