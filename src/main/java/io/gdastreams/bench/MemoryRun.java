package io.gdastreams.bench;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.Topics;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * {@code bench --memory}: the resident memory of the training and the scoring application, each in a child JVM
 * of its own ({@link AppPlacement#hostsPerStage}, one instance unless {@code --instances} says more), after N events
 * and again after N more: peak resident set ({@code VmHWM}), resident set now ({@code VmRSS}), and heap used after a
 * full GC (asked of the instance). State that grew with the number of events would show as heap growth between the two.
 * The training stage waits for its committed input offsets, not for a model (at K = 100, d = 256 a full model
 * exceeds the record bound, and the state is what is measured), then for a first model if none was published yet;
 * scoring uses the newest model training published.
 */
final class MemoryRun {

    private static final double MIB = 1024.0 * 1024.0;

    private final StageRunner runner;
    private final BenchSettings settings;
    private final RunShape shape;
    private final PrintWriter progress;

    MemoryRun(StageRunner runner, BenchSettings settings, RunShape shape, PrintWriter progress) {
        this.runner = runner;
        this.settings = settings;
        this.shape = shape;
        this.progress = progress;
    }

    /** Measures training, then scoring with training's newest model (if it published one); one line each. */
    void run(PrintWriter out) {
        SyntheticStream stream = runner.stream();
        Topics training = runner.createTopics(Stage.TRAINING);
        out.println(line(Stage.TRAINING, measure(Stage.TRAINING, training, training.labelled().name(),
                stream::labelled)));
        out.flush();
        Optional<ModelParameters> model;
        try (ModelWatcher models = new ModelWatcher(runner.clients().consumer(), training.model(),
                runner.stageTimeout())) {
            model = models.latest();
        }
        if (model.isEmpty()) {
            progress.println("  training published no model (record bound?): no scoring memory");
            progress.flush();
            return;
        }
        Topics scoring = runner.createTopics(Stage.SCORING);
        runner.publish(scoring, model.get());
        out.println(line(Stage.SCORING, measure(Stage.SCORING, scoring, scoring.unlabelled().name(),
                i -> stream.unlabelled(EventLoader.THROUGHPUT_KEY_PREFIX, i))));
        out.flush();
    }

    /** One measurement: after how many events, per instance. */
    record Sample(long events, List<ProcessMemory> memory, List<Long> heapAfterGc) {
    }

    private List<Sample> measure(Stage stage, Topics topics, String input, LongFunction<byte[]> event) {
        long n = settings.events();
        List<Sample> samples = new ArrayList<>();
        long[] ends = runner.loader().preload(input, i -> event.apply(i));
        try (AppUnderTest app = runner.start(stage, topics)) {
            InstanceGroup group = (InstanceGroup) app;
            for (int round = 1; round <= 2; round++) {
                if (round == 2) {
                    ends = runner.loader().preload(input, i -> event.apply(n + i));
                }
                runner.clients().awaitCommitted(app, input, ends, runner.stageTimeout());
                List<Long> heaps = group.heapUsedAfterGc();
                samples.add(new Sample(round * n, group.memory(), heaps));
                progress.printf("  %s: after %d events, %s, heap after GC %s%n", stage.label(), round * n,
                        group.memory(), heaps);
                progress.flush();
            }
            if (stage == Stage.TRAINING) {
                // Scoring needs training's model, and with --memory's long publish interval a small N can be
                // absorbed before the first tick: training runs on until it published one (not measured). The
                // dead-letter topic is not watched here (unlike StageRunner): at K = 100, d = 256 the classes past
                // the model's record bound are dead-lettered by design, and the state is what this run measures.
                try (ModelWatcher models = new ModelWatcher(runner.clients().consumer(), topics.model(),
                        runner.stageTimeout())) {
                    models.awaitTotal(0, app);
                }
            }
        }
        return samples;
    }

    private String line(Stage stage, List<Sample> samples) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("stage", stage.label());
        line.put("mode", "memory");
        BenchReport.putSettings(line, settings);
        line.put("publishIntervalMs", settings.publishInterval().toMillis());
        BenchReport.putShape(line, shape);
        line.put("instanceHeap", shape.instanceHeap());
        line.put("afterEvents", samples.stream().map(Sample::events).toList());
        // Per sample, the sum over instances (one number per process group, as a user would provision it).
        line.put("peakRssMiB", samples.stream().map(s -> mib(s.memory().stream()
                .mapToLong(ProcessMemory::peakRssKib).sum() * 1024)).toList());
        line.put("rssMiB", samples.stream().map(s -> mib(s.memory().stream()
                .mapToLong(ProcessMemory::rssKib).sum() * 1024)).toList());
        List<Double> heaps = samples.stream().map(s -> mib(s.heapAfterGc().stream().mapToLong(Long::longValue)
                .sum())).toList();
        line.put("heapAfterGcMiB", heaps);
        line.put("heapGrowthMiB", BenchReport.round(heaps.get(heaps.size() - 1) - heaps.get(0), 1));
        return BenchReport.write(line);
    }

    private static double mib(long bytes) {
        return BenchReport.round(bytes / MIB, 1);
    }
}
