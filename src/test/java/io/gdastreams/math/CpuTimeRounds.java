package io.gdastreams.math;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The shared loop of the thread-CPU-time micro-harnesses ({@link KernelCpuTime}, {@link ClassLanesCpuTime},
 * {@code bench.ScoreCpuTime}): named variants run interleaved in one JVM, each round one timed loop per variant;
 * unmeasured rounds until a given amount of this thread's CPU time has gone, then a given number of measured rounds;
 * per variant the minimum CPU time per iteration over the measured rounds. In {@code math} (test tree) so that the
 * math harnesses use it without importing a package above them; {@code bench} may import {@code math}.
 *
 * <p>Why the warm-up is timed, not counted: with a fixed five short rounds C2 could still be compiling the measured
 * paths during the measured rounds (seen with {@code -XX:+PrintCompilation} for {@code ScoreCpuTime} at d = 64
 * DIAG), so the minimum depended on how far the compile queue had got. Why each variant is a {@link Loop} of its
 * own: its loop is then compiled as its own method, not as part of a caller's loop whose warm-up test changes
 * outcome (which would deoptimise it at the switch from warm-up to measuring). The variants' loops keep their
 * results alive themselves (a static sink of the harness).
 */
public final class CpuTimeRounds {

    /** One variant's timed loop: {@code n} iterations of the work measured. */
    @FunctionalInterface
    public interface Loop {
        void run(int n);
    }

    /** Per variant (in the order added) the minimum thread CPU time per iteration, in ns, and the warm-up rounds run. */
    public record Result(List<String> names, double[] minimumNanos, int warmUpRounds) {

        public double nanos(String name) {
            int i = names.indexOf(name);
            if (i < 0) {
                throw new IllegalArgumentException("no variant " + name + " among " + names);
            }
            return minimumNanos[i];
        }
    }

    private static final ThreadMXBean CLOCK = ManagementFactory.getThreadMXBean();

    private final List<String> names = new ArrayList<>();
    private final List<Loop> loops = new ArrayList<>();

    /** Adds a variant; variants run in the order added, once per round. */
    public CpuTimeRounds variant(String name, Loop loop) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("variant " + name + " added twice");
        }
        names.add(name);
        loops.add(loop);
        return this;
    }

    /**
     * Runs rounds of every variant, {@code n} iterations each, until {@code warmUpCpuMillis} of this thread's CPU
     * time has gone (a round that starts before then is unmeasured), then {@code rounds} measured rounds.
     */
    public Result measure(int n, long warmUpCpuMillis, int rounds) {
        if (!CLOCK.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure thread CPU time");
        }
        Loop[] variants = loops.toArray(new Loop[0]);
        double[] minimum = new double[variants.length];
        Arrays.fill(minimum, Double.MAX_VALUE);
        long[] t = new long[variants.length + 1];
        long warmUpEnd = CLOCK.getCurrentThreadCpuTime() + warmUpCpuMillis * 1_000_000L;
        int warmUpRounds = 0;
        int measured = 0;
        while (measured < rounds) {
            round(variants, n, t);
            if (t[0] < warmUpEnd) {
                warmUpRounds++;
            } else {
                measured++;
                for (int v = 0; v < variants.length; v++) {
                    minimum[v] = Math.min(minimum[v], (t[v + 1] - t[v]) / (double) n);
                }
            }
        }
        return new Result(List.copyOf(names), minimum, warmUpRounds);
    }

    /** One round: t[0] before the first variant, t[v + 1] after variant v. */
    private static void round(Loop[] variants, int n, long[] t) {
        t[0] = CLOCK.getCurrentThreadCpuTime();
        for (int v = 0; v < variants.length; v++) {
            variants[v].run(n);
            t[v + 1] = CLOCK.getCurrentThreadCpuTime();
        }
    }
}
