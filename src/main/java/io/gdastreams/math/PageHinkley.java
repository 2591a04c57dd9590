package io.gdastreams.math;

/**
 * The Page–Hinkley test for an increase in the mean of a sequence (Page 1954, "Continuous inspection schemes",
 * Biometrika 41; in the form of Gama et al. 2013, "On evaluating stream learning algorithms", Machine Learning
 * 90): with x̄_t the running mean of x_1 … x_t,
 * <pre>
 *   m_T = Σ_{t ≤ T} (x_t − x̄_t − δ),   M_T = min_{t ≤ T} m_t,   alarm when PH_T = m_T − M_T &gt; λ
 * </pre>
 * δ is the magnitude of change that is tolerated, λ the alarm threshold (both in the units of x). No alarm is
 * raised before {@code minInstances} values (the running mean is still rough). After an alarm the test starts
 * afresh from the next value, so one change raises one alarm. Constant memory; not thread-safe.
 */
public final class PageHinkley {

    private final double delta;
    private final double lambda;
    private final long minInstances;
    private long n;
    private double mean;
    private double cumulative;
    private double minimum;
    /** PH_T at the last alarm. */
    private double alarmStatistic = Double.NaN;

    public PageHinkley(double delta, double lambda, long minInstances) {
        if (!(delta >= 0) || !Double.isFinite(delta)) {
            throw new IllegalArgumentException("delta must be finite and >= 0, got " + delta);
        }
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("lambda must be finite and > 0, got " + lambda);
        }
        if (minInstances < 1) {
            throw new IllegalArgumentException("minInstances must be >= 1, got " + minInstances);
        }
        this.delta = delta;
        this.lambda = lambda;
        this.minInstances = minInstances;
    }

    /** Adds {@code x} (finite); true when the test fires at it (and it then starts afresh). */
    public boolean update(double x) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("x must be finite, got " + x);
        }
        n++;
        mean += (x - mean) / n;
        cumulative += x - mean - delta;
        minimum = Math.min(minimum, cumulative);
        if (n >= minInstances && cumulative - minimum > lambda) {
            alarmStatistic = cumulative - minimum;
            reset();
            return true;
        }
        return false;
    }

    /** PH_T = m_T − M_T, the statistic compared with λ (0 after a reset). */
    public double statistic() {
        return cumulative - minimum;
    }

    /** PH_T at the last alarm (NaN before any), the value that exceeded λ. */
    public double alarmStatistic() {
        return alarmStatistic;
    }

    /** The running state (n, x̄, m, M), to store and {@link #restore} it. */
    public double[] state() {
        return new double[] {n, mean, cumulative, minimum};
    }

    /** Puts back a {@link #state()}. */
    public void restore(double[] state) {
        if (state.length != 4 || state[0] < 0) {
            throw new IllegalArgumentException("not a Page-Hinkley state");
        }
        n = (long) state[0];
        mean = state[1];
        cumulative = state[2];
        minimum = state[3];
    }

    public double delta() {
        return delta;
    }

    public double lambda() {
        return lambda;
    }

    /** Values seen since the start or the last alarm. */
    public long count() {
        return n;
    }

    /** Forgets everything: the next value is the first. */
    public void reset() {
        n = 0;
        mean = 0;
        cumulative = 0;
        minimum = 0;
    }
}
