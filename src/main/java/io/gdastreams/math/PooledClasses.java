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
                    pooled.computeIfAbsent(entry.getKey(), l -> new RunningGaussian(entry.getValue().dimension()))
                            .merge(entry.getValue());
                }
            }
        }
        return pooled;
    }
}
