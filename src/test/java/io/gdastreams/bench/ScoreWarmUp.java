package io.gdastreams.bench;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import java.util.SplittableRandom;

/**
 * How long a fresh JVM takes to score its first events (before the JIT has compiled the score path): wall time of
 * each successive block of events, for one (d, covariance type). The Vector API kernel is very slow until C2 has
 * compiled it (its interpreted form allocates every vector). Usage: {@code ScoreWarmUp 64 FULL}; results:
 * docs/BENCHMARKS.md, "Vector kernel".
 */
public final class ScoreWarmUp {

    private ScoreWarmUp() {
    }

    public static void main(String[] args) {
        int d = Integer.parseInt(args[0]);
        CovarianceType type = CovarianceType.valueOf(args[1]);
        SplittableRandom random = new SplittableRandom(42);
        Discriminant discriminant = Discriminant.compile(MathCoreBenchmark.model(d, type, random));
        double[][] points = MathCoreBenchmark.points(d, 1, random);
        double[] out = new double[3];
        double sink = 0.0;
        int block = 1000;
        long start = System.nanoTime();
        StringBuilder line = new StringBuilder("d=" + d + " " + type + ", ms per block of " + block + " events:");
        long total = 0;
        for (int b = 0; b < 40; b++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < block; i++) {
                sink += discriminant.score(points[(b * block + i) & 1023], null, out);
            }
            long t = System.nanoTime() - t0;
            total += t;
            if (b < 10 || b % 10 == 9) {
                line.append(String.format(" [%d] %.1f", b + 1, t / 1e6));
            }
        }
        System.out.println(line + String.format("; first %d events %.0f ms (sink %s)", 40 * block,
                (System.nanoTime() - start) / 1e6, sink != 0));
    }
}
