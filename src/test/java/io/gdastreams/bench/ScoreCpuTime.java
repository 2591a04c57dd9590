package io.gdastreams.bench;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.CpuTimeRounds;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.KernelChoice;
import io.gdastreams.math.LegacyScorer;
import java.util.SplittableRandom;

/**
 * Old vs new score path for one (d, covariance type), interleaved in one JVM and timed in thread CPU time: the
 * companion of {@link MathCoreBenchmark} for a loaded machine, where wall-clock throughput swings with the other
 * processes but a ratio of CPU times measured in alternation does much less. Same model and points as the
 * benchmark (K = 3, seed 42). Per round: n old scores, n new allocation-free scores, n new allocating scores, n new
 * scores in groups of {@value #GROUP_BLOCK} points (the group form, four points at a time in its kernel); the
 * minimum of each over {@value #ROUNDS} measured rounds, after unmeasured rounds worth at least
 * {@value #WARM_UP_CPU_MILLIS} ms of this thread's CPU time ({@link CpuTimeRounds}).
 *
 * <p>Why the warm-up is timed, not counted: with a fixed count of five short rounds, at d = 64 DIAG (≈ 0.2 µs per new
 * score, n = 2000) the whole measurement took ≈ 50 ms and C2 compiled the score path during the measured rounds
 * (-XX:+PrintCompilation: {@code Discriminant::score} and the compiled form's {@code logLikelihood} at tier 4 a few
 * ms before the JVM exited), so the minimum depended on how far the compile queue had got: 122–234 ns for the same
 * code. Usage and results: docs/BENCHMARKS.md, "Math core".
 */
public final class ScoreCpuTime {

    private static final int ROUNDS = 25;
    /** Unmeasured rounds until this much thread CPU time has gone: C2 has then compiled every path. */
    private static final long WARM_UP_CPU_MILLIS = 2000;
    /** At least this many scores per loop, so that a measured loop is ≥ ≈ 1 ms even where a score is cheap. */
    private static final int MIN_SCORES = 10_000;
    /** Points per call of the group form ({@link Discriminant#score(double[][], int, double[][], double[])}). */
    private static final int GROUP_BLOCK = MathCoreBenchmark.GROUP_BLOCK;
    private static double sink;

    private ScoreCpuTime() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (!KernelChoice.awaitWarmUp(60_000)) {
            throw new IllegalStateException("the vector kernel's warm-up did not end within 60 s");
        }
        int d = Integer.parseInt(args[0]);
        CovarianceType type = CovarianceType.valueOf(args[1]);
        SplittableRandom random = new SplittableRandom(42);
        GaussianModel model = MathCoreBenchmark.model(d, type, random);
        Discriminant discriminant = Discriminant.compile(model);
        LegacyScorer legacy = LegacyScorer.compile(model);
        double[][] points = MathCoreBenchmark.points(d, 1, random);
        double[] out = new double[3];
        double[][][] blocks = MathCoreBenchmark.blocks(points);
        double[][] posteriors = new double[GROUP_BLOCK][3];
        double[] logDensities = new double[GROUP_BLOCK];
        int n = (Math.max(MIN_SCORES, 8_000_000 / (d * d + 16 * d)) + GROUP_BLOCK - 1) / GROUP_BLOCK * GROUP_BLOCK;
        CpuTimeRounds.Result r = new CpuTimeRounds()
                .variant("old", m -> {
                    for (int i = 0; i < m; i++) {
                        sink += legacy.score(points[i & 1023]).logDensity();
                    }
                })
                .variant("new allocation-free", m -> {
                    for (int i = 0; i < m; i++) {
                        sink += discriminant.score(points[i & 1023], null, out);
                    }
                })
                .variant("new allocating", m -> {
                    for (int i = 0; i < m; i++) {
                        sink += discriminant.score(points[i & 1023]).logDensity();
                    }
                })
                .variant("new in groups", m -> {
                    for (int i = 0; i < m; i += GROUP_BLOCK) {
                        discriminant.score(blocks[(i / GROUP_BLOCK) & (blocks.length - 1)], GROUP_BLOCK, posteriors,
                                logDensities);
                        sink += logDensities[0];
                    }
                })
                .measure(n, WARM_UP_CPU_MILLIS, ROUNDS);
        double old = r.nanos("old");
        double into = r.nanos("new allocation-free");
        double grouped = r.nanos("new in groups");
        System.out.printf("[%s] d=%d %s: old %.1f ns, new allocation-free %.1f ns, new allocating %.1f ns, "
                + "new in groups %.1f ns, old/new %.2f, old/groups %.2f (%d warm-up rounds, n = %d; sink %s)%n",
                KernelChoice.describe(), d, type, old, into, r.nanos("new allocating"), grouped, old / into,
                old / grouped, r.warmUpRounds(), n, sink != 0);
    }
}
