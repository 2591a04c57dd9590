package io.gdastreams.math;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Class statistics pooled over several sources (the input partitions of a training): per label the Chan merge
 * ({@link RunningGaussian#merge}) of every source's statistic of that label, which equals the statistic of all
 * their observations.
 */
public final class PooledClasses {

    private PooledClasses() {
    }

    /**
     * label → pooled statistic (new objects), in label order, over the labels {@code include} accepts.
     * {@code sources}: label → statistic each, not modified; the statistics of one label share a dimension.
     */
    public static SortedMap<String, RunningGaussian> of(Iterable<? extends Map<String, RunningGaussian>> sources,
                                                        Predicate<String> include) {
        SortedMap<String, RunningGaussian> pooled = new TreeMap<>();
        for (Map<String, RunningGaussian> source : sources) {
            for (Map.Entry<String, RunningGaussian> entry : source.entrySet()) {
                if (include.test(entry.getKey())) {
                    pool(pooled, entry.getKey(), entry.getValue());
                }
            }
        }
        return pooled;
    }

    /**
     * As {@link #of(Iterable, Predicate)} under exponential forgetting: every statistic is first advanced to the
     * latest reference time T of them all ({@link Forgetting#alignTo}, on a copy), so that the pooled classes
     * (and the priors W_k/ΣW) all refer to T. {@code forgetting} null: exactly {@link #of(Iterable, Predicate)}.
     */
    public static SortedMap<String, RunningGaussian> of(Iterable<? extends Map<String, RunningGaussian>> sources,
                                                        Predicate<String> include, Forgetting forgetting) {
        if (forgetting == null) {
            return of(sources, include);
        }
        long latest = RunningGaussian.NO_REFERENCE_TIME;
        for (Map<String, RunningGaussian> source : sources) {
            for (Map.Entry<String, RunningGaussian> entry : source.entrySet()) {
                if (include.test(entry.getKey())) {
                    latest = Math.max(latest, entry.getValue().referenceTime());
                }
            }
        }
        SortedMap<String, RunningGaussian> pooled = new TreeMap<>();
        for (Map<String, RunningGaussian> source : sources) {
            for (Map.Entry<String, RunningGaussian> entry : source.entrySet()) {
                if (include.test(entry.getKey())) {
                    RunningGaussian aligned = entry.getValue().copy();
                    if (latest != RunningGaussian.NO_REFERENCE_TIME) {
                        forgetting.alignTo(aligned, latest);
                    }
                    pool(pooled, entry.getKey(), aligned);
                }
            }
        }
        return pooled;
    }

    /**
     * Merges {@code g} into label's pooled statistic, created of g's kind. A label with a diagonal statistic
     * anywhere is pooled diagonal ({@code gda.statistics} changed while state was kept): the full ones give their
     * diagonals.
     */
    private static void pool(SortedMap<String, RunningGaussian> pooled, String label, RunningGaussian g) {
        RunningGaussian target = pooled.computeIfAbsent(label, l -> RunningGaussian.of(g.dimension(), g.isDiagonal()));
        if (g.isDiagonal() && !target.isDiagonal()) {
            target = target.diagonalCopy();
            pooled.put(label, target);
        }
        target.merge(g);
    }
}
