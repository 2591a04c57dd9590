package io.gdastreams.model;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The cumulative statistics of one input partition at one point of its stream, as sent from a training task to
 * the model combiner. Cumulative means idempotent: a newer snapshot of a partition replaces an older one, so a
 * replayed snapshot can never be counted twice. "Newer" is a larger {@code progress.nextOffset()}.
 *
 * @param classes label → running statistics over {@code progress.features()} (the continuous features); not copied
 *                (the sender encodes the snapshot at once)
 * @param categories label → value counts of the categorical features, for the same labels as {@code classes}; empty
 *                   when no categorical feature is configured; not copied
 * @param generation the reset generation the classes belong to ({@link ResetGeneration#NONE} without a reset)
 */
public record PartialSnapshot(String modelId, PartitionProgress progress, SortedMap<String, RunningGaussian> classes,
                              SortedMap<String, CategoryCounts> categories, ResetGeneration generation) {

    public PartialSnapshot {
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(classes, "classes");
        Objects.requireNonNull(categories, "categories");
        Objects.requireNonNull(generation, "generation");
    }

    /** A snapshot of generation 0 (no reset). */
    public PartialSnapshot(String modelId, PartitionProgress progress, SortedMap<String, RunningGaussian> classes,
                           SortedMap<String, CategoryCounts> categories) {
        this(modelId, progress, classes, categories, ResetGeneration.NONE);
    }

    /** A snapshot without categorical features. */
    public PartialSnapshot(String modelId, PartitionProgress progress, SortedMap<String, RunningGaussian> classes) {
        this(modelId, progress, classes, new TreeMap<>());
    }

    /**
     * Events summarised by the class statistics of this generation: each class's count plus twice its retractions (a
     * retraction is an applied event that took one observation away).
     */
    public long classCount() {
        long n = 0;
        for (RunningGaussian g : classes.values()) {
            n += g.events();
        }
        return n;
    }
}
