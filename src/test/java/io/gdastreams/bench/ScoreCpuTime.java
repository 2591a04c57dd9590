package io.gdastreams.bench;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.KernelChoice;
import io.gdastreams.math.LegacyScorer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;

/**
 * Old vs new score path for one (d, covariance type), interleaved in one JVM and timed in thread CPU time: the
 * companion of {@link MathCoreBenchmark} for a loaded machine, where wall-clock throughput swings with the other
 * processes but a ratio of CPU times measured in alternation does much less. Same model and points as the
 * benchmark (K = 3, seed 42). Per round: n old scores, n new allocation-free scores, n new allocating scores; the
 * minimum over rounds 6–30 of each. Usage and results: docs/BENCHMARKS.md, "Math core".
 */
public final class ScoreCpuTime {

    private static final int ROUNDS = 30;
    private static final int WARM_UP_ROUNDS = 5;
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
        int n = Math.max(2000, 8_000_000 / (d * d + 16 * d));
        ThreadMXBean clock = ManagementFactory.getThreadMXBean();
        double old = Double.MAX_VALUE;
        double into = Double.MAX_VALUE;
        double allocating = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = clock.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += legacy.score(points[i & 1023]).logDensity();
            }
            long t1 = clock.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += discriminant.score(points[i & 1023], null, out);
            }
            long t2 = clock.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += discriminant.score(points[i & 1023]).logDensity();
            }
            long t3 = clock.getCurrentThreadCpuTime();
            if (round >= WARM_UP_ROUNDS) {
                old = Math.min(old, (t1 - t0) / (double) n);
                into = Math.min(into, (t2 - t1) / (double) n);
                allocating = Math.min(allocating, (t3 - t2) / (double) n);
            }
        }
        System.out.printf("[%s] d=%d %s: old %.1f ns, new allocation-free %.1f ns, new allocating %.1f ns, "
                + "old/new %.2f (sink %s)%n", KernelChoice.describe(), d, type, old, into, allocating, old / into,
                sink != 0);
    }
}
