package io.gdastreams.math;

/**
 * Exponential forgetting by event time with half-life h (milliseconds): at reference time T an observation of
 * event time t and weight w counts w·2^(−(T − t)/h).
 *
 * <p>Each {@link RunningGaussian} keeps its own reference time T, the largest event time it has seen. An
 * observation with t &gt; T first advances the statistic to t (W ← fW, S ← fS, V ← f²V with f = 2^(−(t − T)/h),
 * the mean unchanged) and then enters with its weight w; a late one (t ≤ T) enters with w·2^(−(T − t)/h), never
 * more than w. Because the factors compose (2^(−a/h)·2^(−b/h) = 2^(−(a+b)/h)), statistics advanced lazily in this
 * way equal, up to rounding, the batch statistics with weights w_i·2^(−(T − t_i)/h) at any later T; statistics
 * of different reference times are merged by advancing both to the later one ({@link #alignTo}).
 *
 * @param halfLifeMs h, finite and &gt; 0
 */
public record Forgetting(double halfLifeMs) {

    public Forgetting {
        if (!(Double.isFinite(halfLifeMs) && halfLifeMs > 0)) {
            throw new IllegalArgumentException("half-life must be finite and > 0, got " + halfLifeMs);
        }
    }

    /** 2^(−(to − from)/h) for to ≥ from: the factor that carries a weight at time {@code from} to {@code to}. */
    public double factor(long from, long to) {
        if (to < from) {
            throw new IllegalArgumentException("cannot advance from " + from + " back to " + to);
        }
        return Math.pow(2.0, -((double) (to - from)) / halfLifeMs);
    }

    /** Advances {@code stats} to {@code time} when that is later than its reference time (else nothing). */
    public void alignTo(RunningGaussian stats, long time) {
        long reference = stats.referenceTime();
        if (reference == RunningGaussian.NO_REFERENCE_TIME) {
            stats.rescale(1.0, time);
        } else if (time > reference) {
            stats.rescale(factor(reference, time), time);
        }
    }

    /**
     * Advances the category counts {@code counts} to {@code time} when that is later than their reference time (else
     * nothing), as {@link #alignTo(RunningGaussian, long)} does for the Gaussian statistic of the same class.
     */
    public void alignTo(CategoryCounts counts, long time) {
        long reference = counts.referenceTime();
        if (reference == RunningGaussian.NO_REFERENCE_TIME) {
            counts.rescale(1.0, time);
        } else if (time > reference) {
            counts.rescale(factor(reference, time), time);
        }
    }

    /** Adds the values of an observation of weight w and event time t to {@code counts} (advancing them first). */
    public void update(CategoryCounts counts, String[] values, double w, long t) {
        alignTo(counts, t);
        long reference = counts.referenceTime();
        counts.update(values, t >= reference ? w : w * factor(t, reference));
    }

    /**
     * The weight now, in {@code counts}, of the observation of weight w and event time t that a retraction removes
     * (as {@link #retract(RunningGaussian, double[], double, long)} removes it from the Gaussian statistic).
     */
    public double decayedWeight(CategoryCounts counts, double w, long t) {
        long reference = counts.referenceTime();
        return reference == RunningGaussian.NO_REFERENCE_TIME || t >= reference ? w : w * factor(t, reference);
    }

    /** The weight at the reference time of {@code stats} of an observation of weight w and event time t. */
    private double decayed(RunningGaussian stats, double w, long t) {
        long reference = stats.referenceTime();
        return reference == RunningGaussian.NO_REFERENCE_TIME || t >= reference ? w : w * factor(t, reference);
    }

    /** Adds observation x of weight w and event time t (advancing first when t is later than the reference). */
    public void update(RunningGaussian stats, double[] x, double w, long t) {
        alignTo(stats, t);
        stats.update(x, decayed(stats, w, t));
    }

    /**
     * Retracts the observation x of weight w and event time t (its original timestamp): its weight now is
     * w·2^(−(T − t)/h). A time later than the reference cannot be the time of an observation of this statistic
     * (its reference is the latest it has seen), so it is refused and the statistic left unchanged. Returns the
     * reason when refused ({@link RunningGaussian#retract}), else null.
     */
    public String retract(RunningGaussian stats, double[] x, double w, long t) {
        long reference = stats.referenceTime();
        if (reference != RunningGaussian.NO_REFERENCE_TIME && t > reference) {
            return "the retraction's timestamp " + t + " is later than every event of its class (" + reference + ")";
        }
        return stats.retract(x, decayed(stats, w, t));
    }
}
