package io.gdastreams.math;

import java.util.Arrays;

/**
 * Running count, mean and scatter matrix S = Σ (x−μ)(x−μ)ᵀ of a stream of d-dimensional points, optionally
 * weighted: with weights w_i the statistics are W = Σ w_i, μ = Σ w_i x_i / W, S = Σ w_i (x_i−μ)(x_i−μ)ᵀ and
 * V = Σ w_i² (for the effective sample size W²/V).
 *
 * <p>Updates use Welford's recurrence and merges Chan et al.'s pairwise formula. Both work on coordinates
 * relative to a pivot (the first observation): data such as 1e12 ± 1e-3 then keeps its full precision,
 * because the differences x − pivot are exact and small. The scatter is translation invariant, so only the
 * mean needs the pivot added back. Only the upper triangle of S is stored (row-major, packed).
 *
 * <p>Weighted updates follow West (1979): W' = W + w, μ' = μ + (w/W')δ with δ = x − μ, S' = S + w·δ(x − μ')ᵀ;
 * a retraction ({@link #retract}) runs the same recurrence backwards. With every weight 1 and no retraction or
 * rescale the arithmetic is exactly the unweighted Welford recurrence (w/W' = 1/n and w·δ = δ are exact), so the
 * statistic stays <em>unweighted</em>: W = V = n, and its binary form is version 1, byte for byte as before. A
 * weight other than 1, a retraction or a {@link #rescale} makes it weighted (version 2, which carries W, V, the
 * number of retractions and the reference time of {@link Forgetting}).
 *
 * <p>{@link #count()} is the raw count: observations added less observations retracted, weight-0 ones included
 * (they change nothing else). The mean is defined while W &gt; 0; when W falls to 0 the next observation of
 * positive weight becomes the new pivot.
 *
 * <p>This class holds the state and its checks; the recurrences that change it each live in a class of their
 * own ({@link WestUpdate}, {@link Retraction}, {@link ChanMerge}; the binary form in {@link RunningGaussianBytes}),
 * which reach the package-private fields directly so that an update still allocates nothing.
 *
 * <p>A <em>diagonal</em> statistic ({@link #diagonal(int)}, {@code gda.statistics=diagonal}) keeps only the diagonal
 * of S, S_ii = Σ w (x_i − μ_i)², with the same recurrences restricted to it: O(d) per update, merge and retraction
 * instead of O(d²), and d instead of d(d+1)/2 numbers stored. That is all Gaussian naive Bayes reads; its
 * {@link #scatter()} has zeros off the diagonal, so it may only be fitted with a diagonal covariance. Its binary
 * form is version 3. A full statistic merges into a diagonal one by its diagonal, never the other way round.
 *
 * <p>Mutable and not thread-safe. Per update it allocates nothing.
 */
public final class RunningGaussian {

    /** No reference time: the statistic was never rescaled (no forgetting). */
    public static final long NO_REFERENCE_TIME = Long.MIN_VALUE;
    /**
     * Relative tolerance of a retraction: a weight or scatter entry that would go below zero by more than this
     * fraction of its scale is not rounding, so the retraction is refused; within it, the value is rounding and is
     * set to zero.
     */
    public static final double RETRACTION_TOLERANCE = 1e-9;

    final int d;
    long n;
    /** W = Σ w_i; equals n while unweighted. */
    double weight;
    /** V = Σ w_i²; equals n while unweighted. */
    double squaredWeights;
    long retractions;
    long referenceTime = NO_REFERENCE_TIME;
    boolean weighted;
    /** Only the diagonal of S is kept ({@link #diagonal(int)}). */
    final boolean diagonal;
    /** The first observation of positive weight; meaningless while W == 0. */
    final double[] pivot;
    /** μ − pivot. */
    final double[] relativeMean;
    /** Upper triangle of S, packed row by row: (0,0) (0,1) … (0,d−1) (1,1) …; for a diagonal statistic S_00 … S_dd. */
    final double[] packedScatter;
    /** Scratch for one update: δ = (x − pivot) − μ_old and (x − pivot) − μ_new. */
    final double[] delta;
    final double[] centred;

    /** An empty statistic of the given dimension (d ≥ 1). */
    public RunningGaussian(int dimension) {
        this(dimension, false);
    }

    /** An empty statistic of the given dimension (d ≥ 1) that keeps only the diagonal of the scatter. */
    public static RunningGaussian diagonal(int dimension) {
        return new RunningGaussian(dimension, true);
    }

    /** An empty statistic, full or {@code diagonal}. */
    public static RunningGaussian of(int dimension, boolean diagonal) {
        return new RunningGaussian(dimension, diagonal);
    }

    private RunningGaussian(int dimension, boolean diagonal) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
        }
        this.d = dimension;
        this.diagonal = diagonal;
        this.pivot = new double[dimension];
        this.relativeMean = new double[dimension];
        this.packedScatter = new double[diagonal ? dimension : packedSize(dimension)];
        this.delta = new double[dimension];
        this.centred = new double[dimension];
    }

    public int dimension() {
        return d;
    }

    /**
     * The raw count: observations added less observations retracted (weight-0 ones included).
     */
    public long count() {
        return n;
    }

    /** W = Σ w_i, the effective count (n while unweighted). */
    public double weight() {
        return weight;
    }

    /** V = Σ w_i² (n while unweighted). */
    public double squaredWeights() {
        return squaredWeights;
    }

    /** Kish's effective sample size W²/V (exactly n while unweighted); 0 while W = 0. */
    public double effectiveSampleSize() {
        return ClassSummary.effectiveSampleSize(weight, squaredWeights);
    }

    /** The events this statistic absorbed: its count plus twice its retractions (each took one observation away). */
    public long events() {
        return n + 2 * retractions;
    }

    /** Observations retracted so far; the events this statistic absorbed are {@code count() + 2·retractions()}. */
    public long retractions() {
        return retractions;
    }

    /** The time the weights refer to ({@link Forgetting}), or {@link #NO_REFERENCE_TIME}. */
    public long referenceTime() {
        return referenceTime;
    }

    /** Whether only the diagonal of the scatter is kept ({@link #diagonal(int)}). */
    public boolean isDiagonal() {
        return diagonal;
    }

    /** Whether a weight other than 1, a retraction or a rescale has touched this statistic. */
    public boolean isWeighted() {
        return weighted;
    }

    /** Welford update with one observation. {@code x}: length d, all finite; not modified. */
    public void update(double[] x) {
        update(x, 1.0);
    }

    /**
     * West's weighted update with one observation of weight {@code w} (finite, ≥ 0; 0 only counts it).
     * {@code x}: length d, all finite; not modified.
     */
    public void update(double[] x, double w) {
        checkPoint(x);
        checkWeight(w);
        WestUpdate.apply(this, x, w);
    }

    /**
     * Removes one earlier observation of weight {@code w} exactly (the Welford/West recurrence backwards:
     * W' = W − w, μ' = μ − (w/W')(x − μ), S' = S − w·(x − μ')(x − μ)ᵀ, V' = V − w²). Refused, leaving the
     * statistic unchanged, when the count would become negative, the weight W' negative, or the scatter would
     * lose positive semi-definiteness beyond rounding: a diagonal entry below zero, or a 2×2 principal minor
     * S'_ii·S'_jj − S'_ij² below zero, by more than {@link #RETRACTION_TOLERANCE} of its scale. These are the
     * O(d²) necessary conditions; a full test would need an O(d³) factorisation per retraction. Retracting the
     * last observation leaves the empty statistic.
     *
     * @return null when done, else the reason it was refused
     */
    public String retract(double[] x, double w) {
        checkPoint(x);
        checkWeight(w);
        return Retraction.apply(this, x, w);
    }

    /**
     * Multiplies the weights by {@code factor} (in [0, 1]) and sets the reference time: W ← fW, S ← fS,
     * V ← f²V, the mean unchanged ({@link Forgetting} computes f = 2^(−(T'−T)/h)). A weight that underflows to 0
     * leaves no mean. A factor of 0 is what f is after some 1075 half-lives (2^(−1075) rounds to 0: a class quiet for
     * 18 hours under a one-minute half-life): everything before is forgotten, as it is when W underflows.
     */
    public void rescale(double factor, long newReferenceTime) {
        if (!(factor >= 0.0 && factor <= 1.0)) {
            throw new IllegalArgumentException("rescale factor must be in [0, 1], got " + factor);
        }
        weighted = true;
        referenceTime = newReferenceTime;
        if (factor == 1.0) {
            return;
        }
        weight *= factor;
        squaredWeights *= factor * factor;
        for (int p = 0; p < packedScatter.length; p++) {
            packedScatter[p] *= factor;
        }
        if (weight == 0.0 || squaredWeights < Double.MIN_NORMAL) {
            // V = Σ w² decays with f², twice as fast as W: below the normal doubles it loses its digits (about 510
            // half-lives after a class's last unit-weight event), and its effective sample size W²/V with it.
            // Forgotten in all but name: cleared (no weight, no mean, no scatter), and left out of scoring.
            clearWeight();
        }
    }

    void clearWeight() {
        weight = 0.0;
        squaredWeights = 0.0;
        Arrays.fill(relativeMean, 0.0);
        Arrays.fill(packedScatter, 0.0);
    }

    private void checkPoint(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("expected " + d + " values, got " + x.length);
        }
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("non-finite value " + v);
            }
        }
    }

    private static void checkWeight(double w) {
        if (!(Double.isFinite(w) && w >= 0.0)) {
            throw new IllegalArgumentException("weight must be finite and >= 0, got " + w);
        }
    }

    /**
     * Chan et al. pairwise merge of {@code other} into this, with weights: W = W_a + W_b, δ = μ_b − μ_a,
     * μ = μ_a + δ·W_b/W, S = S_a + S_b + δδᵀ·W_a·W_b/W. The weights are merged as they are, and the result
     * refers to the later reference time: under forgetting, align both first ({@link Forgetting#alignTo};
     * {@link PooledClasses} does), without it (never configured, or turned off since) there is nothing to align.
     * {@code other}: same dimension; not modified. A full {@code other} merges into a diagonal statistic by its
     * diagonal (what a diagonal statistic of the same points would hold); a diagonal one into a full statistic is
     * refused.
     */
    public void merge(RunningGaussian other) {
        if (other.d != d) {
            throw new IllegalArgumentException("dimension mismatch: " + d + " vs " + other.d);
        }
        if (other.diagonal && !diagonal) {
            throw new IllegalArgumentException("cannot merge a diagonal statistic into a full one (it has no"
                    + " off-diagonal scatter); merge both into a diagonal one");
        }
        ChanMerge.apply(this, other);
    }

    /** A copy of the mean (length d); zeros while W = 0. */
    public double[] mean() {
        double[] mean = new double[d];
        if (weight > 0) {
            for (int i = 0; i < d; i++) {
                mean[i] = pivot[i] + relativeMean[i];
            }
        }
        return mean;
    }

    /** A copy of the full symmetric scatter matrix (d × d); zero off the diagonal for a diagonal statistic. */
    public double[][] scatter() {
        double[][] s = new double[d][d];
        if (diagonal) {
            for (int i = 0; i < d; i++) {
                s[i][i] = packedScatter[i];
            }
            return s;
        }
        int p = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                s[i][j] = packedScatter[p];
                s[j][i] = packedScatter[p];
                p++;
            }
        }
        return s;
    }

    /** A diagonal statistic of the same points: this one's count, weights, mean and the diagonal of its scatter. */
    public RunningGaussian diagonalCopy() {
        RunningGaussian copy = new RunningGaussian(d, true);
        copy.merge(this);
        copy.n = n;
        copy.retractions = retractions;
        copy.weighted = weighted;
        copy.referenceTime = referenceTime;
        return copy;
    }

    /** A deep copy. */
    public RunningGaussian copy() {
        RunningGaussian copy = new RunningGaussian(d, diagonal);
        copy.copyFrom(this);
        return copy;
    }

    /**
     * Compact, versioned binary form (for state stores and internal topics): version 1 while unweighted, byte for
     * byte the layout of before weights, version 2 once weighted, version 3 when diagonal
     * ({@link RunningGaussianBytes}).
     */
    public byte[] toBytes() {
        return RunningGaussianBytes.write(this);
    }

    /** Inverse of {@link #toBytes()}; throws IllegalArgumentException on a corrupt or foreign buffer. */
    public static RunningGaussian fromBytes(byte[] bytes) {
        return RunningGaussianBytes.read(bytes);
    }

    /** Copies {@code other} (same dimension and kind) into this. */
    void copyFrom(RunningGaussian other) {
        n = other.n;
        weight = other.weight;
        squaredWeights = other.squaredWeights;
        retractions = other.retractions;
        referenceTime = other.referenceTime;
        weighted = other.weighted;
        System.arraycopy(other.pivot, 0, pivot, 0, d);
        System.arraycopy(other.relativeMean, 0, relativeMean, 0, d);
        System.arraycopy(other.packedScatter, 0, packedScatter, 0, packedScatter.length);
    }

    /** S_ii, from either layout. */
    double scatterDiagonal(int i) {
        // Row r of the packed upper triangle starts at r·d − r(r−1)/2, and (i, i) is its first entry.
        return diagonal ? packedScatter[i] : packedScatter[i * d - i * (i - 1) / 2];
    }

    static int packedSize(int d) {
        return d * (d + 1) / 2;
    }

}
