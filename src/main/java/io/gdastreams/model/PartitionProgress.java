package io.gdastreams.model;

import java.util.List;
import java.util.Objects;

/**
 * How far the training of one input partition has got. Every record read from the partition is either applied
 * to the class statistics or dead-lettered, so {@code applied + deadLettered} is the number of records read.
 *
 * @param partition the input partition
 * @param nextOffset offset of the next record to read (last record read + 1; 0 before the first)
 * @param applied records applied to the statistics
 * @param deadLettered records sent to the dead-letter topic instead
 * @param features the schema in force, in model order; empty until the first valid event fixes it
 */
public record PartitionProgress(int partition, long nextOffset, long applied, long deadLettered,
                                List<String> features) {

    public PartitionProgress {
        if (partition < 0 || nextOffset < 0 || applied < 0 || deadLettered < 0) {
            throw new IllegalArgumentException("negative partition, offset or count");
        }
        features = List.copyOf(Objects.requireNonNull(features, "features"));
    }

    public static PartitionProgress start(int partition, List<String> features) {
        return new PartitionProgress(partition, 0, 0, 0, features);
    }

    /** Records read so far (applied + dead-lettered). */
    public long recordsRead() {
        return applied + deadLettered;
    }

    /** This progress after reading the record at {@code offset}. */
    public PartitionProgress afterRecord(long offset, boolean wasApplied) {
        return new PartitionProgress(partition, offset + 1, applied + (wasApplied ? 1 : 0),
                deadLettered + (wasApplied ? 0 : 1), features);
    }

    public PartitionProgress withFeatures(List<String> schema) {
        return new PartitionProgress(partition, nextOffset, applied, deadLettered, schema);
    }
}
