package peers;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.KernelChoice;
import io.gdastreams.math.RunningGaussian;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What the peer comparisons share: the synthetic data (K = 3 Gaussian classes with correlated, class-specific
 * covariances, fixed seed), our side's fit, the interleaved thread-CPU-time rounds, and the table rows. Not part
 * of the Maven build: compiled and run by docs/peers/run.sh against the peer jars.
 */
public final class Harness {

    public static final int K = 3;
    public static final long SEED = 20_240_701L;
    /** Training rows per class (the peers' fit and ours see the same rows, classes interleaved 0, 1, 2, 0, ...). */
    public static final int TRAIN_PER_CLASS = 10_000;
    /** Scored points, cycled through by the timed loops (a power of two). */
    public static final int POOL = 4096;
    /** Fresh points on which labels and posteriors are compared (not timed). */
    public static final int AGREEMENT_POINTS = 100_000;
    /** Per-event iterations per timed loop: ROUNDS × this ≥ 10^6 events per measurement. */
    public static final int EVENTS_PER_ROUND = 50_000;
    public static final int ROUNDS = 20;
    public static final long WARM_UP_CPU_MILLIS = 2_000;

    /** AR(1)-correlated noise per class: e_j = z_j + rho_k e_{j-1}, scaled by scale_k, around mean mu_k. */
    private static final double[] RHO = {0.3, 0.6, -0.4};
    private static final double[] SCALE = {1.0, 1.3, 0.8};

    private Harness() {
    }

    /** The K class means for dimension d (entries 0.5·N(0, 1), seeded). */
    public static double[][] means(int d) {
        SplittableRandom r = new SplittableRandom(SEED + d);
        double[][] mu = new double[K][d];
        for (double[] m : mu) {
            for (int j = 0; j < d; j++) {
                m[j] = 0.5 * r.nextGaussian();
            }
        }
        return mu;
    }

    /** One point of class k. */
    public static double[] draw(double[][] mu, int k, SplittableRandom r) {
        int d = mu[k].length;
        double[] x = new double[d];
        double e = 0;
        for (int j = 0; j < d; j++) {
            e = r.nextGaussian() + RHO[k] * e;
            x[j] = mu[k][j] + SCALE[k] * e;
        }
        return x;
    }

    /** Labelled rows: class i % K for row i. */
    public record Labelled(double[][] x, int[] y) {
        public int size() {
            return y.length;
        }
    }

    public static Labelled sample(double[][] mu, int rows, SplittableRandom r) {
        double[][] x = new double[rows][];
        int[] y = new int[rows];
        for (int i = 0; i < rows; i++) {
            y[i] = i % K;
            x[i] = draw(mu, y[i], r);
        }
        return new Labelled(x, y);
    }

    public static Labelled training(int d) {
        return sample(means(d), K * TRAIN_PER_CLASS, new SplittableRandom(SEED));
    }

    public static double[][] pool(int d) {
        return sample(means(d), POOL, new SplittableRandom(SEED + 1)).x();
    }

    /** The generator of the agreement points (fresh, not the pool). */
    public static SplittableRandom agreementRandom() {
        return new SplittableRandom(SEED + 2);
    }

    /**
     * Ours, fitted as the product does: per-event Welford updates of one {@link RunningGaussian} per class (full
     * scatter, or diagonal only), then {@link GaussianModel#fit} and {@link Discriminant#compile}. UNBIASED
     * divisors because the peers use them (Smile QDA n_k − 1, Smile LDA n − K, MOA W − 1), so that the posterior
     * comparison measures numerics rather than a different estimator; timing does not depend on it.
     */
    public static Discriminant fitOurs(Labelled data, CovarianceType type, boolean diagonalStatistics) {
        int d = data.x()[0].length;
        RunningGaussian[] g = new RunningGaussian[K];
        for (int k = 0; k < K; k++) {
            g[k] = RunningGaussian.of(d, diagonalStatistics);
        }
        double[][] x = data.x();
        int[] y = data.y();
        for (int i = 0; i < x.length; i++) {
            g[y[i]].update(x[i]);
        }
        return compile(g, type);
    }

    public static Discriminant compile(RunningGaussian[] g, CovarianceType type) {
        List<ClassSummary> summaries = new ArrayList<>(K);
        for (int k = 0; k < K; k++) {
            summaries.add(ClassSummary.of(Integer.toString(k), g[k]));
        }
        FitOptions options = FitOptions.defaults().withCovarianceType(type).withEstimator(Estimator.UNBIASED);
        return Discriminant.compile(GaussianModel.fit(summaries, options));
    }

    /**
     * Ours TIED, but given Smile's LDA covariance instead of the pooled within-class one: Smile's LDA.fit
     * (DiscriminantAnalysis.St) takes the scatter of all rows around the common mean, divided by n − K. Each class
     * gets that matrix as its covariance, so the pooled (UNBIASED, n − K) estimate is exactly Smile's. Used only
     * to show what the LDA disagreement comes from.
     */
    public static Discriminant oursWithTotalScatter(Labelled data) {
        double[][] x = data.x();
        int[] y = data.y();
        int n = x.length;
        int d = x[0].length;
        double[] grand = new double[d];
        double[][] mean = new double[K][d];
        long[] count = new long[K];
        for (int i = 0; i < n; i++) {
            count[y[i]]++;
            for (int j = 0; j < d; j++) {
                grand[j] += x[i][j] / n;
                mean[y[i]][j] += x[i][j];
            }
        }
        for (int k = 0; k < K; k++) {
            for (int j = 0; j < d; j++) {
                mean[k][j] /= count[k];
            }
        }
        double[][] cov = new double[d][d];
        for (double[] row : x) {
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    cov[a][b] += (row[a] - grand[a]) * (row[b] - grand[b]) / n;
                }
            }
        }
        List<ClassSummary> summaries = new ArrayList<>(K);
        for (int k = 0; k < K; k++) {
            summaries.add(ClassSummary.ofMleCovariance(Integer.toString(k), count[k], mean[k], cov));
        }
        FitOptions options = FitOptions.defaults().withCovarianceType(CovarianceType.TIED)
                .withEstimator(Estimator.UNBIASED);
        return Discriminant.compile(GaussianModel.fit(summaries, options));
    }

    /** outIndex[k] = position of class k's label in ours' posterior array. */
    public static int[] labelOrder(Discriminant discriminant) {
        int[] order = new int[K];
        for (int k = 0; k < K; k++) {
            order[k] = discriminant.labels().indexOf(Integer.toString(k));
            if (order[k] < 0) {
                throw new IllegalStateException("class " + k + " missing from " + discriminant.labels());
            }
        }
        return order;
    }

    public static int argmax(double[] p) {
        int best = 0;
        for (int k = 1; k < p.length; k++) {
            if (p[k] > p[best]) {
                best = k;
            }
        }
        return best;
    }

    /** Label agreement and max |p_ours − p_peer| over a set of points. */
    public static final class Agreement {
        private long points;
        private long agreeing;
        private double maxDiff;

        /** ours: ours' posterior in ours' order; peer: the peer's probabilities in class order 0..K−1. */
        public void add(double[] ours, int[] order, double[] peer) {
            double[] mine = new double[K];
            for (int k = 0; k < K; k++) {
                mine[k] = ours[order[k]];
                maxDiff = Math.max(maxDiff, Math.abs(mine[k] - peer[k]));
            }
            points++;
            if (argmax(mine) == argmax(peer)) {
                agreeing++;
            }
        }

        public String rate() {
            return String.format(Locale.ROOT, "%.4f%% of %,d", 100.0 * agreeing / points, points);
        }

        public String maxDiff() {
            return String.format(Locale.ROOT, "%.1e", maxDiff);
        }
    }

    /** One variant's timed loop of n iterations; each loop is its own lambda, so C2 compiles it as its own method. */
    @FunctionalInterface
    public interface Loop {
        void run(int n);
    }

    private static final ThreadMXBean CLOCK = ManagementFactory.getThreadMXBean();

    /**
     * Variants run interleaved, one timed loop each per round, in this thread's CPU time: unmeasured rounds until
     * {@link #WARM_UP_CPU_MILLIS} of CPU time has gone, then {@link #ROUNDS} measured rounds; per variant the
     * minimum CPU time per iteration.
     */
    public static final class Rounds {
        private final List<String> names = new ArrayList<>();
        private final List<Loop> loops = new ArrayList<>();
        private final List<Integer> sizes = new ArrayList<>();
        private int warmUpRounds;

        public Rounds add(String name, int n, Loop loop) {
            names.add(name);
            loops.add(loop);
            sizes.add(n);
            return this;
        }

        public double[] measure() {
            if (!CLOCK.isCurrentThreadCpuTimeSupported()) {
                throw new IllegalStateException("this JVM cannot measure thread CPU time");
            }
            int v = loops.size();
            double[] min = new double[v];
            Arrays.fill(min, Double.MAX_VALUE);
            long warmUpEnd = CLOCK.getCurrentThreadCpuTime() + WARM_UP_CPU_MILLIS * 1_000_000L;
            int measured = 0;
            while (measured < ROUNDS) {
                boolean warmUp = CLOCK.getCurrentThreadCpuTime() < warmUpEnd;
                for (int i = 0; i < v; i++) {
                    int n = sizes.get(i);
                    long t0 = CLOCK.getCurrentThreadCpuTime();
                    loops.get(i).run(n);
                    long t1 = CLOCK.getCurrentThreadCpuTime();
                    if (!warmUp) {
                        min[i] = Math.min(min[i], (t1 - t0) / (double) n);
                    }
                }
                if (warmUp) {
                    warmUpRounds++;
                } else {
                    measured++;
                }
            }
            return min;
        }

        public int warmUpRounds() {
            return warmUpRounds;
        }
    }

    public static void awaitVectorKernel() throws InterruptedException {
        if (!KernelChoice.awaitWarmUp(60_000)) {
            throw new IllegalStateException("the vector kernel's warm-up did not end within 60 s");
        }
    }

    public static String jdk() {
        return Integer.toString(Runtime.version().feature());
    }

    /** A time in ns as ns, µs or ms. */
    public static String time(double nanos) {
        if (nanos < 10_000) {
            return String.format(Locale.ROOT, "%.0f ns", nanos);
        }
        if (nanos < 10_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
        }
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    /** One markdown table row: operation, d, JDK, peer, peer time, our variant, our time, ours/peer throughput. */
    public static void row(String op, int d, String peer, double peerNanos, String ours, double oursNanos,
                           String agreement, String maxDiff) {
        System.out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | **%.2f** | %s | %s |%n", op, d, jdk(), peer,
                time(peerNanos), ours, time(oursNanos), peerNanos / oursNanos, agreement, maxDiff);
    }
}
