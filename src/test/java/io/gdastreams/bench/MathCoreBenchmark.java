package io.gdastreams.bench;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.KernelChoice;
import io.gdastreams.math.LegacyScorer;
import io.gdastreams.math.Posterior;
import io.gdastreams.math.RunningGaussian;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-event cost of the math core: one Welford update of a class statistic (full or diagonal), and one posterior
 * of a compiled model with K = 3 classes, by the current path and by the path before the score kernels
 * ({@link LegacyScorer}). Run command and results: docs/BENCHMARKS.md, section "Math core".
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MathCoreBenchmark {

    static final int POINTS = 1024;
    private static final int CLASSES = 3;
    private static final long SEED = 42;
    /** Points per call of {@link #scoreGroup}. */
    static final int GROUP_BLOCK = 256;

    /** {@link #points}' {@value #POINTS} points as blocks of {@value #GROUP_BLOCK}, for the group form. */
    static double[][][] blocks(double[][] points) {
        double[][][] blocks = new double[POINTS / GROUP_BLOCK][GROUP_BLOCK][];
        for (int i = 0; i < POINTS; i++) {
            blocks[i / GROUP_BLOCK][i % GROUP_BLOCK] = points[i];
        }
        return blocks;
    }

    static double[][] points(int d, double offset, SplittableRandom random) {
        double[][] x = new double[POINTS][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = offset + random.nextGaussian() + 0.3 * (j > 0 ? row[j - 1] : 0);
            }
        }
        return x;
    }

    /** The benchmark's model: {@value #CLASSES} classes of {@link #points} at offsets 0, 1, 2, fitted as {@code type}. */
    static GaussianModel model(int d, CovarianceType type, SplittableRandom random) {
        List<ClassSummary> classes = new ArrayList<>();
        for (int k = 0; k < CLASSES; k++) {
            RunningGaussian g = new RunningGaussian(d);
            for (double[] x : points(d, k, random)) {
                g.update(x);
            }
            classes.add(ClassSummary.of("class-" + k, g));
        }
        return GaussianModel.fit(classes, FitOptions.defaults().withCovarianceType(type));
    }

    @State(Scope.Thread)
    public static class UpdateState {
        @Param({"4", "16", "64", "256"})
        public int d;

        /** The statistic's kind: the full scatter (O(d²) per update) or its diagonal only (O(d), naive Bayes). */
        @Param({"full", "diagonal"})
        public String statistics;

        RunningGaussian stats;
        double[][] points;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            points = points(d, 1e6, new SplittableRandom(SEED));
            stats = RunningGaussian.of(d, statistics.equals("diagonal"));
        }
    }

    @State(Scope.Thread)
    public static class ScoreState {
        @Param({"4", "16", "64"})
        public int d;

        @Param({"FULL", "TIED", "DIAG"})
        public CovarianceType type;

        Discriminant discriminant;
        LegacyScorer legacy;
        /** The caller-supplied output of {@link #scoreInto}. */
        double[] posterior;
        double[][] points;
        double[][] pointsOneMissing;
        /** The points as blocks of {@link #GROUP_BLOCK} for {@link #scoreGroup}, and its caller-supplied outputs. */
        double[][][] blocks;
        double[][] posteriors;
        double[] logDensities;
        int next;

        @Setup(Level.Trial)
        public void setUp() throws InterruptedException {
            // With the vector module, measure the vector kernel, not the scalar one it starts on (math.VectorWarmUp).
            KernelChoice.awaitWarmUp(60_000);
            SplittableRandom random = new SplittableRandom(SEED);
            GaussianModel model = model(d, type, random);
            discriminant = Discriminant.compile(model);
            legacy = LegacyScorer.compile(model);
            posterior = new double[CLASSES];
            points = points(d, 1, random);
            pointsOneMissing = new double[POINTS][];
            for (int i = 0; i < POINTS; i++) {
                pointsOneMissing[i] = points[i].clone();
                pointsOneMissing[i][d / 2] = Double.NaN;
            }
            blocks = blocks(points);
            posteriors = new double[GROUP_BLOCK][CLASSES];
            logDensities = new double[GROUP_BLOCK];
        }
    }

    @Benchmark
    public long update(UpdateState s) {
        s.stats.update(s.points[s.next]);
        s.next = (s.next + 1) & (POINTS - 1);
        return s.stats.count();
    }

    /**
     * The training task's per-event work since its state is written through to the store: the update plus the
     * serialisation of the updated class (the record-cache put that follows is O(1)). Its ratio to
     * {@link #update} is the cost of write-through at each d.
     */
    @Benchmark
    public int updateAndSerialise(UpdateState s) {
        s.stats.update(s.points[s.next]);
        s.next = (s.next + 1) & (POINTS - 1);
        return s.stats.toBytes().length;
    }

    /** The allocating form ({@link Posterior} and its two K-arrays) over the new kernels. */
    @Benchmark
    public Posterior score(ScoreState s) {
        Posterior p = s.discriminant.score(s.points[s.next]);
        s.next = (s.next + 1) & (POINTS - 1);
        return p;
    }

    /** The allocation-free form: the posterior into the caller's array, log p(x) returned. */
    @Benchmark
    public double scoreInto(ScoreState s) {
        double logDensity = s.discriminant.score(s.points[s.next], null, s.posterior);
        s.next = (s.next + 1) & (POINTS - 1);
        return logDensity + s.posterior[0];
    }

    /**
     * The group form ({@link Discriminant#score(double[][], int, double[][], double[])}): {@value #GROUP_BLOCK}
     * points per call, four at a time through the compiled form's group kernel, into the caller's arrays; one
     * operation is one point.
     */
    @Benchmark
    @OperationsPerInvocation(GROUP_BLOCK)
    public double scoreGroup(ScoreState s) {
        s.discriminant.score(s.blocks[s.next], GROUP_BLOCK, s.posteriors, s.logDensities);
        s.next = (s.next + 1) & (POINTS / GROUP_BLOCK - 1);
        return s.logDensities[0] + s.posteriors[GROUP_BLOCK - 1][0];
    }

    /**
     * The path before the kernels ({@link LegacyScorer}: forward substitution per class, two passes of
     * exponentials, a new Posterior per event): the "old" of the old-vs-new ratio, measured in the same run.
     */
    @Benchmark
    public Posterior scoreLegacy(ScoreState s) {
        Posterior p = s.legacy.score(s.points[s.next]);
        s.next = (s.next + 1) & (POINTS - 1);
        return p;
    }

    /** One feature missing (the same pattern each time): the cached marginal factors are reused. */
    @Benchmark
    public Posterior scoreOneMissing(ScoreState s) {
        Posterior p = s.discriminant.score(s.pointsOneMissing[s.next]);
        s.next = (s.next + 1) & (POINTS - 1);
        return p;
    }
}
