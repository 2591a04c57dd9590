package io.gdastreams.math;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Per categorical feature j, the count n_jv of each value v among the observations of one class, and the number of
 * observations n. The categorical counterpart of {@link RunningGaussian}: every observation carries a value for
 * every feature (a training event must match the schema), so Σ_v n_jv = n for each j. Counts are integers, so
 * {@link #merge} is exact: the merge of the counts of two sets of observations equals the counts of their union.
 *
 * <p>Weighted, like {@link RunningGaussian}: with sample weights, retractions or forgetting the counts also carry
 * the weight W_jv = Σ w_i [x_ij = v] of each value and W = Σ w_i (so Σ_v W_jv = W), with the reference time of
 * {@link Forgetting}; a {@link #rescale} multiplies every weight (the decay), {@link #retract} removes one
 * observation. The raw counts n_jv stay the observations added less those retracted, and a value whose raw count
 * falls to 0 is forgotten. Until a weight other than 1, a retraction or a rescale touches them the counts are
 * unweighted (W_jv = n_jv) and their binary form is version 1, byte for byte as before
 * ({@link CategoryCountsBytes}).
 *
 * <p>Values are kept in their natural (String) order, so the binary form of equal counts is equal. Mutable and not
 * thread-safe.
 */
public final class CategoryCounts {

    final List<String> features;
    final List<TreeMap<String, Long>> counts;
    long n;
    /** W_jv per feature; null while unweighted (then W_jv = n_jv). */
    List<TreeMap<String, Double>> weights;
    /** W = Σ w_i; meaningful only when weighted. */
    double weight;
    long referenceTime = RunningGaussian.NO_REFERENCE_TIME;

    /** Empty counts over the categorical {@code features} (at least one, distinct, in schema order). */
    public CategoryCounts(List<String> features) {
        if (features.isEmpty()) {
            throw new IllegalArgumentException("at least one categorical feature is required");
        }
        if (Set.copyOf(features).size() != features.size()) {
            throw new IllegalArgumentException("duplicate categorical feature in " + features);
        }
        this.features = List.copyOf(features);
        this.counts = new ArrayList<>(features.size());
        for (int j = 0; j < features.size(); j++) {
            counts.add(new TreeMap<>());
        }
    }

    public List<String> features() {
        return features;
    }

    /** The raw count: observations added less observations retracted. */
    public long count() {
        return n;
    }

    /** Whether a weight other than 1, a retraction or a rescale has touched these counts. */
    public boolean isWeighted() {
        return weights != null;
    }

    /** W = Σ w_i (n while unweighted). */
    public double weight() {
        return weights == null ? n : weight;
    }

    /** The time the weights refer to ({@link Forgetting}), or {@link RunningGaussian#NO_REFERENCE_TIME}. */
    public long referenceTime() {
        return referenceTime;
    }

    /** One observation of weight 1: {@code values[j]} is the value of feature j (none null); not modified. */
    public void update(String[] values) {
        update(values, 1.0);
    }

    /** One observation of weight w (finite, ≥ 0): {@code values[j]} is the value of feature j; not modified. */
    public void update(String[] values, double w) {
        check(values);
        if (!(w >= 0) || !Double.isFinite(w)) {
            throw new IllegalArgumentException("weight must be finite and >= 0, got " + w);
        }
        if (w != 1.0) {
            makeWeighted();
        }
        for (int j = 0; j < values.length; j++) {
            counts.get(j).merge(values[j], 1L, Long::sum);
            if (weights != null) {
                weights.get(j).merge(values[j], w, Double::sum);
            }
        }
        n++;
        weight += w;
    }

    /**
     * Why one observation with {@code values} and (current) weight w cannot be retracted, or null: a value it does
     * not count, or a weight below w by more than {@link RunningGaussian#RETRACTION_TOLERANCE} of W.
     */
    public String retractionProblem(String[] values, double w) {
        check(values);
        for (int j = 0; j < values.length; j++) {
            if (!counts.get(j).containsKey(values[j])) {
                return "categorical feature '" + features.get(j) + "' has no observation of value '" + values[j]
                        + "' in this class";
            }
            double wjv = weights == null ? counts.get(j).get(values[j]) : weights.get(j).get(values[j]);
            if (wjv - w < -RunningGaussian.RETRACTION_TOLERANCE * Math.max(weight(), w)) {
                return "the retracted weight " + w + " exceeds the weight " + wjv + " of value '" + values[j]
                        + "' of categorical feature '" + features.get(j) + "'";
            }
        }
        return null;
    }

    /**
     * Removes one observation with {@code values} and (current) weight w; throws IllegalArgumentException when
     * {@link #retractionProblem} says it cannot (check it first: nothing changes then).
     */
    public void retract(String[] values, double w) {
        String problem = retractionProblem(values, w);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        makeWeighted();
        for (int j = 0; j < values.length; j++) {
            long left = counts.get(j).merge(values[j], -1L, Long::sum);
            if (left == 0) {
                counts.get(j).remove(values[j]);
                weights.get(j).remove(values[j]);
            } else {
                weights.get(j).put(values[j], Math.max(0.0, weights.get(j).get(values[j]) - w));
            }
        }
        n--;
        weight = n == 0 ? 0.0 : Math.max(0.0, weight - w);
    }

    /**
     * Multiplies every weight by {@code factor} (in [0, 1]; 0 after some 1075 half-lives, as for
     * {@link RunningGaussian#rescale}) and sets the reference time: decay by forgetting.
     */
    public void rescale(double factor, long newReferenceTime) {
        if (!(factor >= 0 && factor <= 1)) {
            throw new IllegalArgumentException("rescale factor must be in [0, 1], got " + factor);
        }
        makeWeighted();
        for (TreeMap<String, Double> table : weights) {
            table.replaceAll((v, w) -> w * factor);
        }
        weight *= factor;
        referenceTime = newReferenceTime;
    }

    private void makeWeighted() {
        if (weights != null) {
            return;
        }
        weights = new ArrayList<>(counts.size());
        for (TreeMap<String, Long> table : counts) {
            TreeMap<String, Double> w = new TreeMap<>();
            table.forEach((v, c) -> w.put(v, (double) c));
            weights.add(w);
        }
        weight = n;
    }

    private void check(String[] values) {
        if (values.length != features.size()) {
            throw new IllegalArgumentException("expected " + features.size() + " values, got " + values.length);
        }
        for (String v : values) {
            if (v == null) {
                throw new IllegalArgumentException("a training observation has a value for every feature");
            }
        }
    }

    /**
     * Adds the counts of {@code other} (same features; not modified) to these; weights add when either is weighted
     * (the caller has aligned their reference times, as for {@link RunningGaussian#merge}).
     */
    public void merge(CategoryCounts other) {
        if (!other.features.equals(features)) {
            throw new IllegalArgumentException("feature mismatch: " + features + " vs " + other.features);
        }
        if (other.weights != null) {
            makeWeighted();
        }
        for (int j = 0; j < features.size(); j++) {
            TreeMap<String, Long> mine = counts.get(j);
            other.counts.get(j).forEach((value, c) -> mine.merge(value, c, Math::addExact));
            if (weights != null) {
                TreeMap<String, Double> myWeights = weights.get(j);
                other.weights(j).forEach((value, w) -> myWeights.merge(value, w, Double::sum));
            }
        }
        weight = weight() + other.weight();
        n = Math.addExact(n, other.n);
        referenceTime = Math.max(referenceTime, other.referenceTime);
    }

    /** Value → count (each ≥ 1) of feature j, in value order; a read-only view. */
    public SortedMap<String, Long> counts(int j) {
        return Collections.unmodifiableSortedMap(counts.get(j));
    }

    /** Value → weight W_jv of feature j, for the values of {@link #counts(int)} (the counts while unweighted). */
    public SortedMap<String, Double> weights(int j) {
        if (weights != null) {
            return Collections.unmodifiableSortedMap(weights.get(j));
        }
        TreeMap<String, Double> w = new TreeMap<>();
        counts.get(j).forEach((v, c) -> w.put(v, (double) c));
        return w;
    }

    /** How many distinct values of feature j these counts hold. */
    public int distinctValues(int j) {
        return counts.get(j).size();
    }

    /** Whether feature j has value {@code value} among these counts. */
    public boolean contains(int j, String value) {
        return counts.get(j).containsKey(value);
    }

    public CategoryCounts copy() {
        CategoryCounts copy = new CategoryCounts(features);
        copy.merge(this);
        return copy;
    }

    /** The binary form ({@link CategoryCountsBytes}): version 1 while unweighted, else version 2. */
    public byte[] toBytes() {
        return CategoryCountsBytes.encode(this);
    }

    /** Inverse of {@link #toBytes()}; throws IllegalArgumentException on a corrupt or foreign buffer. */
    public static CategoryCounts fromBytes(byte[] bytes) {
        return CategoryCountsBytes.decode(bytes);
    }

    /**
     * label → the sum of every source's counts of that label (new objects), in label order. {@code sources}:
     * label → counts each, not modified; the counts of one label share their features.
     */
    public static SortedMap<String, CategoryCounts> pooled(Iterable<? extends Map<String, CategoryCounts>> sources,
                                                           Predicate<String> include) {
        return pooled(sources, include, null);
    }

    /**
     * As {@link #pooled(Iterable, Predicate)} under {@code forgetting} (null: none): every source's counts are
     * first advanced (on a copy) to the latest reference time of them all, as {@link PooledClasses} does for the
     * Gaussian statistics of the same classes.
     */
    public static SortedMap<String, CategoryCounts> pooled(Iterable<? extends Map<String, CategoryCounts>> sources,
                                                           Predicate<String> include, Forgetting forgetting) {
        long latest = RunningGaussian.NO_REFERENCE_TIME;
        for (Map<String, CategoryCounts> source : sources) {
            for (Map.Entry<String, CategoryCounts> entry : source.entrySet()) {
                if (include.test(entry.getKey())) {
                    latest = Math.max(latest, entry.getValue().referenceTime());
                }
            }
        }
        SortedMap<String, CategoryCounts> pooled = new TreeMap<>();
        for (Map<String, CategoryCounts> source : sources) {
            for (Map.Entry<String, CategoryCounts> entry : source.entrySet()) {
                if (include.test(entry.getKey())) {
                    CategoryCounts counts = entry.getValue();
                    if (forgetting != null && latest != RunningGaussian.NO_REFERENCE_TIME) {
                        counts = counts.copy();
                        forgetting.alignTo(counts, latest);
                    }
                    pooled.computeIfAbsent(entry.getKey(), l -> new CategoryCounts(entry.getValue().features()))
                            .merge(counts);
                }
            }
        }
        return pooled;
    }
}
