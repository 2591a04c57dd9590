package io.gdastreams.math;

import java.util.SplittableRandom;

/**
 * The per-class sums of naive Bayes scoring three ways, interleaved in one JVM and timed in thread CPU time (minimum
 * over {@value #ROUNDS} measured rounds after {@value #WARM_UP_CPU_MILLIS} ms of thread CPU time of unmeasured rounds
 * per d, {@link CpuTimeRounds}): one class after the other (the loop scores use without the vector module), one class at a
 * time over {@link ClassLanes}' side-by-side layout, and the vector form; and, for scale, the posterior step ({@link LogSumExp#normalise}, K exponentials, K divisions, one
 * logarithm) alone. Needs {@code --add-modules jdk.incubator.vector}. Usage: {@code ClassLanesCpuTime K d …};
 * results: docs/BENCHMARKS.md, "Class lanes".
 */
public final class ClassLanesCpuTime {

    private static final int ROUNDS = 25;
    private static final long WARM_UP_CPU_MILLIS = 2000;
    private static double sink;

    private ClassLanesCpuTime() {
    }

    public static void main(String[] args) throws InterruptedException {
        KernelChoice.awaitWarmUp(60_000);
        int classes = Integer.parseInt(args[0]);
        SplittableRandom random = new SplittableRandom(42);
        for (int a = 1; a < args.length; a++) {
            int d = Integer.parseInt(args[a]);
            int kp = ClassLanes.padded(classes);
            double[][] means = new double[classes][d];
            double[][] scales = new double[classes][d];
            for (int k = 0; k < classes; k++) {
                for (int j = 0; j < d; j++) {
                    means[k][j] = random.nextGaussian();
                    scales[k][j] = 1.0 + random.nextDouble();
                }
            }
            double[] laneMeans = ClassLanes.interleave(means, d);
            double[] laneScales = ClassLanes.interleave(scales, d);
            double[][] points = new double[256][d];
            for (double[] x : points) {
                for (int j = 0; j < d; j++) {
                    x[j] = random.nextGaussian();
                }
            }
            double[][] logJoints = new double[256][classes];
            for (double[] v : logJoints) {
                for (int k = 0; k < classes; k++) {
                    v[k] = -10.0 * random.nextDouble();
                }
            }
            double[] q = new double[kp];
            double[] v = new double[classes];
            int n = 4_000_000 / d;
            CpuTimeRounds.Result r = new CpuTimeRounds()
                    .variant("rows", m -> {
                        for (int i = 0; i < m; i++) {
                            double[] x = points[i & 255];
                            for (int k = 0; k < classes; k++) {
                                double[] mu = means[k];
                                double[] w = scales[k];
                                double s = 0.0;
                                for (int j = 0; j < d; j++) {
                                    double t = (x[j] - mu[j]) * w[j];
                                    s += t * t;
                                }
                                q[k] = s;
                            }
                            sink += q[0];
                        }
                    })
                    .variant("side by side", m -> {
                        for (int i = 0; i < m; i++) {
                            // One class at a time over the side-by-side layout (stride K₄): the scalar alternative.
                            double[] x = points[i & 255];
                            for (int k = 0; k < classes; k++) {
                                double s = 0.0;
                                for (int j = 0, c = k; j < d; j++, c += kp) {
                                    double t = (x[j] - laneMeans[c]) * laneScales[c];
                                    s += t * t;
                                }
                                q[k] = s;
                            }
                            sink += q[0];
                        }
                    })
                    .variant("vector lanes", m -> {
                        for (int i = 0; i < m; i++) {
                            VectorClassLanes.scaledSquares(points[i & 255], laneMeans, laneScales, d, kp, q, 0);
                            sink += q[0];
                        }
                    })
                    .variant("posterior step", m -> {
                        for (int i = 0; i < m; i++) {
                            System.arraycopy(logJoints[i & 255], 0, v, 0, classes);
                            sink += LogSumExp.normalise(v, classes);
                        }
                    })
                    .measure(n, WARM_UP_CPU_MILLIS, ROUNDS);
            System.out.printf("K=%d d=%d: one class at a time (rows) %.1f ns, (side by side) %.1f ns, vector lanes %.1f ns;"
                    + " posterior step %.1f ns (sink %s)%n", classes, d, r.nanos("rows"), r.nanos("side by side"), r.nanos("vector lanes"), r.nanos("posterior step"),
                    sink != 0);
        }
    }
}
