package io.gdastreams.model;

import io.gdastreams.math.RunningGaussian;
import java.util.Objects;
import java.util.SortedMap;

/**
 * The cumulative statistics of one input partition at one point of its stream, as sent from a training task to
 * the model combiner. Cumulative means idempotent: a newer snapshot of a partition replaces an older one, so a
 * replayed snapshot can never be counted twice. "Newer" is a larger {@code progress.nextOffset()}.
 *
 * @param classes label → running statistics over {@code progress.features()}; not copied (the sender encodes
 *                the snapshot at once)
 */
public record PartialSnapshot(String modelId, PartitionProgress progress, SortedMap<String, RunningGaussian> classes) {

    public PartialSnapshot {
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(classes, "classes");
    }

    /** Events summarised by the class statistics. */
    public long classCount() {
        long n = 0;
        for (RunningGaussian g : classes.values()) {
            n += g.count();
        }
        return n;
    }
}
