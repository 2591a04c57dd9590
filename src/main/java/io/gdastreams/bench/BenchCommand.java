package io.gdastreams.bench;

import io.gdastreams.broker.EmbeddedBroker;
import io.gdastreams.cli.CommandPlugin;
import io.gdastreams.lifecycle.Directories;
import io.gdastreams.lifecycle.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gda-streams bench}: passthrough, training and scoring on one broker in one run, each on its own
 * pre-loaded topic. Standard output carries only the JSON report lines; progress goes to standard error.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"End-to-end throughput of the training and scoring topologies against a passthrough "
                + "Kafka Streams app (parse JSON, write JSON) with the same partitions, threads and processing "
                + "guarantee, on the same broker, in the same run.",
                "Each stage's input topic is pre-loaded with N seeded synthetic events before its app starts; "
                        + "the clock runs from the app reaching RUNNING to the broker append time of its last "
                        + "output (training: of the first model that absorbed all N events). Then "
                        + "--latency-events are sent at --latency-rate to a caught-up app for latency "
                        + "(append -> output append) and model freshness (append -> first model including it), "
                        + "each also to when a read_committed consumer read it (visibleLatencyMs*, "
                        + "visibleFreshnessMs*: what a consumer sees under exactly-once).",
                "Prints one JSON line per stage and a final {\"trainingVsPassthrough\", \"scoringVsPassthrough\"};"
                        + " with --rounds R > 1, the three stages R times (lines with their \"round\") and a last line"
                        + " with the medians and every round's ratios.",
                "--latency-profile: scoring at commit.interval.ms 10, 50, 100 under exactly_once_v2 and "
                        + "at_least_once instead. --memory: resident memory of training and scoring (child JVMs) "
                        + "after N, 2N and 3N events instead."})
public final class BenchCommand implements CommandPlugin {

    private static final long MAX_DEFAULT_WARMUP = 50_000;
    private static final int WARMUP_PACED_EVENTS = 100;
    static final long PUBLISH_INTERVAL_MS = 250;
    /**
     * --memory measures state, not freshness, at shapes where one partition's snapshot is large (K = 100, d = 256:
     * K·d(d+1)/2 doubles, 26 MB, per partition per interval): a longer interval keeps the broker from being swamped.
     */
    static final long MEMORY_PUBLISH_INTERVAL_MS = 10_000;

    @Spec
    private CommandSpec spec;

    @Option(names = "--classes", defaultValue = "3", description = "Classes K (default: ${DEFAULT-VALUE}).")
    private int classes;

    @Option(names = "--features", defaultValue = "16", description = "Features d (default: ${DEFAULT-VALUE}).")
    private int features;

    @Option(names = "--events", defaultValue = "1000000",
            description = "Events N per stage (default: ${DEFAULT-VALUE}).")
    private long events;

    @Option(names = "--partitions", defaultValue = "4",
            description = "Partitions of the event topics (default: ${DEFAULT-VALUE}).")
    private int partitions;

    @Option(names = "--threads", defaultValue = "2",
            description = "Stream threads per app (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--guarantee", defaultValue = "exactly_once_v2", paramLabel = "exactly_once_v2|at_least_once",
            description = "processing.guarantee of every app (default: ${DEFAULT-VALUE}).")
    private String guarantee;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--latency-events", defaultValue = "2000",
            description = "Paced events per stage for latency / freshness (default: ${DEFAULT-VALUE}).")
    private int latencyEvents;

    @Option(names = "--latency-rate", defaultValue = "1000",
            description = "Paced events per second (default: ${DEFAULT-VALUE}).")
    private int latencyRate;

    @Option(names = "--publish-interval-ms",
            description = "Training snapshot interval, gda.publish.interval.ms (default: " + PUBLISH_INTERVAL_MS
                    + "; " + MEMORY_PUBLISH_INTERVAL_MS + " with --memory).")
    private Long publishIntervalMs;

    @Option(names = "--warmup-events", defaultValue = "-1",
            description = "Events per stage of each pass of the unmeasured warm-up, which repeats until the JIT is "
                    + "quiet (default: N/10, at most 50000; 0 = no warm-up).")
    private long warmupEvents;

    @Option(names = "--warmup-passes", paramLabel = "N",
            description = "Warm-up passes at most: they stop once the JIT compiled for less than "
                    + WarmUp.QUIET_PERCENT + " %% of a pass (default: " + WarmUp.DEFAULT_MAX_PASSES + ", and "
                    + WarmUp.DEFAULT_PASSES_PER_INSTANCE + " more per --instances child).")
    private Integer warmupPasses;

    @Option(names = "--stage-timeout", defaultValue = "900", paramLabel = "SECONDS",
            description = "Give up on a stage after this long (default: ${DEFAULT-VALUE}).")
    private long stageTimeoutSeconds;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Use this cluster instead of an embedded broker (topics are created per run).")
    private String bootstrapServers;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Set a gda.* or Kafka Streams key of the three apps (repeatable; e.g. --set gda.covariance="
                    + "diag --set commit.interval.ms=100). Keys the bench sets itself (topics, ids, the options "
                    + "above) are refused; no config file or environment is read.")
    private List<String> set = new ArrayList<>();

    @Option(names = "--broker-cpus", paramLabel = "CPUS",
            description = "Pin the embedded broker's JVM to these CPUs (taskset list, e.g. 0 or 0-1); with "
                    + "--app-cpus, disjoint from it. Linux with taskset only.")
    private String brokerCpus;

    @Option(names = "--app-cpus", paramLabel = "CPUS",
            description = "Pin the applications under test (this JVM, or the --instances children) to these CPUs.")
    private String appCpus;

    @Option(names = "--instances", defaultValue = "0",
            description = "Run each stage's application as N instances in one group against the one broker, in N "
                    + "child JVMs that live for the whole run, warm-up included (0 = in this JVM; default: "
                    + "${DEFAULT-VALUE}; at most " + RunShape.MAX_INSTANCES + ").")
    private int instances;

    @Option(names = "--instance-heap", defaultValue = "1g",
            description = "-Xmx of each child JVM (default: ${DEFAULT-VALUE}).")
    private String instanceHeap;

    @Option(names = "--latency-profile",
            description = "Measure scoring latency and throughput at commit.interval.ms 10, 50, 100 under "
                    + "exactly_once_v2 and at_least_once (one model trained first) instead of the three stages.")
    private boolean latencyProfile;

    @Option(names = "--memory",
            description = "Measure resident memory (VmHWM, VmRSS) and heap after GC of training and scoring, each "
                    + "in a child JVM, after N, 2N and 3N events, instead of the three stages. Linux only.")
    private boolean memory;

    @Option(names = "--variant", paramLabel = "NAME:KEY=VALUE[;KEY=VALUE...]",
            description = "Compare one stage (--variant-stage) with these keys added to the --set ones (repeatable):"
                    + " runs only that stage, for the baseline and each variant, in --rounds alternating rounds, and"
                    + " prints each variant's median events/s and median ratio to the baseline.")
    private List<String> variants = new ArrayList<>();

    @Option(names = "--variant-stage", paramLabel = "training|scoring|passthrough",
            description = "The stage a --variant comparison runs (default: training); scoring first trains, not"
                    + " reported, the model every scoring round uses.")
    private String variantStage;

    @Option(names = "--rounds",
            description = "Rounds of a --variant comparison (default: " + StageComparison.DEFAULT_ROUNDS + "),"
                    + " or of the three stages (default: 1; with more, the three run again, the passthrough first and"
                    + " last in turn, each round's lines carry its number, and the last line gives every round's"
                    + " ratios and their medians).")
    private Integer rounds;

    @Override
    public Integer call() {
        if (latencyProfile && memory) {
            throw new ParameterException(spec.commandLine(), "--latency-profile and --memory are separate runs");
        }
        if (rounds != null && rounds < 1) {
            throw new UserError("--rounds must be >= 1, got " + rounds);
        }
        if (warmupPasses != null && warmupPasses < 1) {
            throw new UserError("--warmup-passes must be >= 1, got " + warmupPasses + " (--warmup-events 0: none)");
        }
        if (variantStage != null && variants.isEmpty()) {
            throw new UserError("--variant-stage needs at least one --variant");
        }
        // The two modes of their own run once and compare nothing: options of the rounds are refused, not ignored.
        String ownMode = latencyProfile ? "--latency-profile" : memory ? "--memory" : null;
        if (ownMode != null && !variants.isEmpty()) {
            throw new UserError("--variant compares one stage in rounds; it does not apply to " + ownMode);
        }
        if (ownMode != null && rounds != null) {
            throw new UserError("--rounds is for the three stages or a --variant comparison, not for " + ownMode);
        }
        Stage comparedStage = comparedStage(variantStage);
        BenchConfiguration configuration = BenchConfiguration.of(set, classes, features);
        if (latencyProfile) {
            LatencyProfile.withCommitInterval(set, LatencyProfile.DEFAULT_COMMIT_INTERVAL_MS); // refuses a clash
        }
        BenchSettings settings;
        RunShape shape;
        try {
            settings = new BenchSettings(classes, features, events, partitions, threads, guarantee, seed,
                    latencyEvents, latencyRate, Duration.ofMillis(publishIntervalMs(publishIntervalMs, memory)),
                    configuration);
            CpuPinning pinning = CpuPinning.of(brokerCpus, appCpus, bootstrapServers != null, CpuPinning.SYSTEM);
            shape = new RunShape(pinning, memory ? Math.max(1, instances) : instances, instanceHeap);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = spec.commandLine().getErr();
        String runId = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        EmbeddedBroker broker = null;
        Runnable unpin = () -> { };
        Path stateDirectory = null;
        try {
            String bootstrap = bootstrapServers;
            if (bootstrap == null) {
                EmbeddedBroker.requireAvailable();
                progress.println("Starting an embedded Kafka broker...");
                progress.flush();
                broker = EmbeddedBroker.start(EmbeddedBroker.DEFAULT_START_TIMEOUT,
                        shape.pinning().brokerCommandPrefix());
                bootstrap = broker.bootstrapServers();
            }
            // After the broker started: its JVM must not inherit the applications' CPUs.
            unpin = shape.pinning().pinThisProcess(CpuPinning.SYSTEM);
            progress.println("layout: " + shape.pinning().layout() + (shape.pinning().appCpus() == null ? ""
                    : " (broker on CPUs " + shape.pinning().brokerCpus() + ", applications on "
                    + shape.pinning().appCpus() + ")") + ", instances: " + shape.instances());
            progress.flush();
            stateDirectory = Files.createTempDirectory("gda-streams-bench-");
            Duration stageTimeout = Duration.ofSeconds(stageTimeoutSeconds);
            if (memory) {
                try (AppPlacement placement = AppPlacement.hostsPerStage(shape, stateDirectory);
                     StageRunner runner = new StageRunner(bootstrap, settings, placement, runId, stateDirectory,
                             stageTimeout, progress)) {
                    new MemoryRun(runner, settings, shape, progress).run(out);
                }
                return 0;
            }
            try (AppPlacement placement = AppPlacement.forRun(shape, stateDirectory)) {
                if (shape.instances() > 0) {
                    progress.println("instances: " + shape.instances() + (shape.instances() == 1 ? " child JVM"
                            : " child JVMs") + " for the whole run, pids " + placement.hostPids());
                    progress.flush();
                }
                run(placement, settings, bootstrap, runId, stateDirectory, stageTimeout, comparedStage, out, progress);
            }
            return 0;
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a state directory: " + e.getMessage(), e);
        } finally {
            unpin.run();
            if (broker != null) {
                broker.close();
            }
            if (stateDirectory != null) {
                Directories.deleteQuietly(stateDirectory);
            }
        }
    }

    /** The latency profile, a --variant comparison, or the three stages, each after its warm-up. */
    private void run(AppPlacement placement, BenchSettings settings, String bootstrap, String runId,
                     Path stateDirectory, Duration stageTimeout, Stage comparedStage, PrintWriter out,
                     PrintWriter progress) {
        // The JIT that must be quiet is the one the applications run on: the bench's, or its instances' too.
        WarmUp warmUp = new WarmUp(warmupEvents >= 0 ? warmupEvents : Math.min(events / 10, MAX_DEFAULT_WARMUP),
                WARMUP_PACED_EVENTS, warmupPasses != null ? warmupPasses
                        : WarmUp.defaultMaxPasses(placement.shape().instances()), placement::compileSeconds,
                System::nanoTime);
        if (latencyProfile) {
            LatencyProfile.run(settings, set, placement, bootstrap, runId, stateDirectory, stageTimeout, warmUp, out,
                    progress);
        } else if (!variants.isEmpty()) {
            StageComparison comparison = new StageComparison(comparedStage,
                    variants.stream().map(StageComparison.Variant::parse).toList(),
                    rounds == null ? StageComparison.DEFAULT_ROUNDS : rounds);
            comparison.run(bootstrap, placement, extra -> withKeys(settings, extra), runId, stateDirectory,
                    stageTimeout, warmUp, out, progress);
        } else {
            warmUpThreeStages(warmUp, bootstrap, settings, placement, runId, stateDirectory, progress);
            new StageRounds(rounds == null ? 1 : rounds).run(bootstrap, settings, placement, runId, stateDirectory,
                    stageTimeout, out, progress);
        }
    }

    /** The unreported warm-up passes of the three stages, before their measured rounds. */
    private void warmUpThreeStages(WarmUp warmUp, String bootstrap, BenchSettings settings, AppPlacement placement,
                                   String runId, Path stateDirectory, PrintWriter progress) {
        warmUp.run(pass -> {
            try (StageRunner runner = new StageRunner(bootstrap, warmUp.settingsOf(settings), placement,
                    WarmUp.runId(runId, pass), stateDirectory, Duration.ofSeconds(stageTimeoutSeconds), progress)) {
                runner.scoring(runner.training().model());
                runner.passthrough();
            }
        }, progress);
    }

    /** The --publish-interval-ms given, else the default of the mode. */
    static long publishIntervalMs(Long given, boolean memory) {
        return given != null ? given : memory ? MEMORY_PUBLISH_INTERVAL_MS : PUBLISH_INTERVAL_MS;
    }

    /** The stage named by --variant-stage (training when not given). */
    static Stage comparedStage(String given) {
        if (given == null) {
            return Stage.TRAINING;
        }
        for (Stage stage : Stage.values()) {
            if (stage.label().equals(given.trim())) {
                return stage;
            }
        }
        throw new UserError("--variant-stage " + given + ": expected training, scoring or passthrough");
    }

    /** {@code settings} with {@code extra} KEY=VALUE settings after the --set ones. */
    private BenchSettings withKeys(BenchSettings settings, List<String> extra) {
        List<String> all = new ArrayList<>(set);
        all.addAll(extra);
        BenchConfiguration configuration = BenchConfiguration.of(all, classes, features);
        return new BenchSettings(classes, features, events, partitions, threads, guarantee, seed, latencyEvents,
                latencyRate, settings.publishInterval(), configuration);
    }
}
