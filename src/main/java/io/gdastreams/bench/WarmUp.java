package io.gdastreams.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * The unreported warm-up before a bench's measured rounds: passes of {@code events} events per stage (and
 * {@code pacedEvents} paced ones), repeated until the JIT is quiet. One pass of a few tens of thousands of events
 * gets every hot path compiled once, but C2 then goes on compiling Kafka's client code for tens of seconds (≈ 30 s
 * of compilation on a 2-core machine, docs/BENCHMARKS.md), on the cores the measured rounds need. So passes repeat
 * until one in which the JIT compiled for less than {@link #QUIET_PERCENT} % of its wall time, at most
 * {@code maxPasses}. No pass at all when {@code events} is 0.
 */
final class WarmUp {

    /** A pass during which the JIT compiled for less than this per cent of its wall time is quiet. */
    static final int QUIET_PERCENT = 10;
    private static final double QUIET_SHARE = QUIET_PERCENT / 100.0;
    /** Passes at most when {@code --warmup-passes} is not given and the applications run in the bench's JVM. */
    static final int DEFAULT_MAX_PASSES = 8;
    /**
     * More passes at most per {@code --instances} child: each compiles its own copy of the same code on the same
     * cores (on two cores one child was quiet after 8 passes, two after 14: docs/BENCHMARKS.md).
     */
    static final int DEFAULT_PASSES_PER_INSTANCE = 4;

    private final long events;
    private final int pacedEvents;
    private final int maxPasses;
    private final DoubleSupplier compileSeconds;
    private final LongSupplier nanoTime;

    WarmUp(long events, int pacedEvents, int maxPasses) {
        this(events, pacedEvents, maxPasses, JitTime::seconds, System::nanoTime);
    }

    WarmUp(long events, int pacedEvents, int maxPasses, DoubleSupplier compileSeconds, LongSupplier nanoTime) {
        if (events < 0 || maxPasses < 1) {
            throw new IllegalArgumentException("events must be >= 0 and maxPasses >= 1, got " + events + " and "
                    + maxPasses);
        }
        this.events = events;
        this.pacedEvents = pacedEvents;
        this.maxPasses = maxPasses;
        this.compileSeconds = compileSeconds;
        this.nanoTime = nanoTime;
    }

    /** Passes at most when {@code --warmup-passes} is not given, for {@code instances} child JVMs (0: none). */
    static int defaultMaxPasses(int instances) {
        return DEFAULT_MAX_PASSES + DEFAULT_PASSES_PER_INSTANCE * instances;
    }

    /** Paced events per stage of a pass (the latency or freshness measurement every stage ends with). */
    int pacedEvents() {
        return pacedEvents;
    }

    /** {@code settings} with the events of one warm-up pass. */
    BenchSettings settingsOf(BenchSettings settings) {
        return settings.withEvents(events, pacedEvents);
    }

    /**
     * The run id of what pass {@code pass} runs: {@code runId-warmup<pass>}, so that its topics, applications and
     * threads are told from the measured rounds' ({@code docs/jfr_top_frames.py} leaves them out by that name).
     */
    static String runId(String runId, int pass) {
        return runId + "-warmup" + pass;
    }

    /**
     * The run id of the unreported training run whose model a scoring comparison or the latency profile scores
     * with: {@code runId-warmup-model}, left out of profiles like a pass's.
     */
    static String modelRunId(String runId) {
        return runId + "-warmup-model";
    }

    /**
     * Runs {@code pass} (given the pass number, from 1) until a pass was quiet or {@code maxPasses} ran, announcing
     * each; returns how many ran (0 when there is no warm-up).
     */
    int run(IntConsumer pass, PrintWriter progress) {
        for (int n = 1; events > 0; n++) {
            progress.println("warm-up pass " + n + " (" + events + " events per stage, not reported)...");
            progress.flush();
            double compiledBefore = compileSeconds.getAsDouble();
            long start = nanoTime.getAsLong();
            pass.accept(n);
            double wall = (nanoTime.getAsLong() - start) / 1e9;
            double share = (compileSeconds.getAsDouble() - compiledBefore) / wall;
            if (Double.isNaN(share)) {
                progress.printf("warm-up pass %d: this JVM does not report its JIT's compile time; no more passes%n",
                        n);
                progress.flush();
                return n;
            }
            boolean quiet = share < QUIET_SHARE;
            progress.printf(Locale.ROOT, "warm-up pass %d: the JIT compiled for %.0f %% of its %.1f s%s%n", n,
                    100 * share, wall, quiet ? " (quiet)" : n == maxPasses ? "; still compiling after " + n
                            + " passes (--warmup-passes), measuring anyway" : "");
            progress.flush();
            if (quiet || n == maxPasses) {
                return n;
            }
        }
        return 0;
    }
}
