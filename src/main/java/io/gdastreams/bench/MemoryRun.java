package io.gdastreams.bench;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * {@code bench --memory}: the resident memory of the training and the scoring application, each in a child JVM
 * of its own ({@link AppPlacement#hostsPerStage}, one instance unless {@code --instances} says more), after N, 2N and
 * 3N events ({@link #SAMPLES}): peak resident set ({@code VmHWM}), resident set now ({@code VmRSS}), and heap used
 * after a full GC (asked of the instance, {@value #HEAP_READINGS} times, the least kept: {@link #leastPerInstance}).
 * State that grew with the number of events would show as heap growth between the last two samples.
 * The training stage waits for its committed input offsets, and before its first sample for a first model (any
 * model, not one of N events: at K = 100, d = 256 classes past the size bound are left out of it), so that every
 * sample is taken once the combiner holds snapshots; scoring uses the newest model training published.
 */
final class MemoryRun {

    private static final double MIB = 1024.0 * 1024.0;
    /**
     * Samples, after N, 2N and 3N events. The growth is judged between the last two: at K = 100, d = 256 and
     * N = 2 000 the trainer's heap after GC rose by ≈ 200 MiB from N to 2N and by 45–74 MiB from 2N to 3N, still on
     * its way to where it settles; at N = 20 000 it fell from sample to sample (docs/BENCHMARKS.md).
     */
    static final int SAMPLES = 3;
    /** Heap-after-GC readings per sample, {@link #HEAP_READING_PAUSE} apart. */
    static final int HEAP_READINGS = 5;
    static final Duration HEAP_READING_PAUSE = Duration.ofMillis(500);

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
        // Training's models, read for its first sample (null for scoring). The dead-letter topic is not watched
        // (unlike StageRunner): at K = 100, d = 256 the classes past the model's record bound are dead-lettered by
        // design, and the state is what this run measures.
        try (AppUnderTest app = runner.start(stage, topics);
             ModelWatcher models = stage != Stage.TRAINING ? null
                     : new ModelWatcher(runner.clients().consumer(), topics.model(), runner.stageTimeout())) {
            InstanceGroup group = (InstanceGroup) app;
            for (int round = 1; round <= SAMPLES; round++) {
                if (round > 1) {
                    long before = (round - 1) * n;
                    ends = runner.loader().preload(input, i -> event.apply(before + i));
                }
                runner.clients().awaitCommitted(app, input, ends, runner.stageTimeout());
                String phase = "";
                if (models != null && round == 1) {
                    // Every sample after the first publication: from then on the combiner holds the partitions'
                    // snapshots (tens of MiB each at K = 100, d = 256), which do not grow with the events.
                    ModelWatcher.ModelAt first = models.awaitTotal(0, app);
                    phase = " (model v" + first.model().version() + " published)";
                }
                List<Long> heaps = leastPerInstance(heapReadings(group));
                samples.add(new Sample(round * n, group.memory(), heaps));
                progress.printf("  %s: after %d events%s, %s, heap after GC %s%n", stage.label(), round * n, phase,
                        group.memory(), heaps);
                progress.flush();
            }
        }
        return samples;
    }

    private static List<List<Long>> heapReadings(InstanceGroup group) {
        List<List<Long>> readings = new ArrayList<>();
        for (int i = 0; i < HEAP_READINGS; i++) {
            if (i > 0) {
                try {
                    Thread.sleep(HEAP_READING_PAUSE.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted between heap readings", e);
                }
            }
            readings.add(group.heapUsedAfterGc());
        }
        return readings;
    }

    /**
     * Per instance, the least of its heap-after-GC readings ({@code readings}: one list per reading, one entry per
     * instance). At K = 100, d = 256 a partition's snapshot, or the model being merged from them, is tens of MiB
     * that one reading catches or not: single readings after N and 2N events of the same command differed by 1 to
     * 194 MiB from run to run. State that grows with the events raises every reading, so it raises the least one.
     */
    static List<Long> leastPerInstance(List<List<Long>> readings) {
        List<Long> least = new ArrayList<>(readings.get(0));
        for (List<Long> reading : readings) {
            for (int i = 0; i < least.size(); i++) {
                least.set(i, Math.min(least.get(i), reading.get(i)));
            }
        }
        return least;
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
        line.put("heapGrowthMiB", BenchReport.round(heaps.get(heaps.size() - 1) - heaps.get(heaps.size() - 2), 1));
        return BenchReport.write(line);
    }

    private static double mib(long bytes) {
        return BenchReport.round(bytes / MIB, 1);
    }
}
