package io.gdastreams.topology;

import io.gdastreams.model.PartitionProgress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * A training progress entry as it stands in the {@code class-stats} changelog (key {@code progress}, the binary
 * counters of {@link ProgressCounters} as value). The service reads these from the records of a transaction that
 * holds a restore, to tell whether the training input behind them was ever committed (docs/RELIABILITY.md, "A
 * restore that does not finish").
 */
public final class ChangelogProgress {

    private static final byte[] KEY = PartitionState.PROGRESS_KEY.getBytes(StandardCharsets.UTF_8);

    private ChangelogProgress() {
    }

    /** Whether {@code topic} is the changelog of a trainer's {@code class-stats} store. */
    public static boolean isClassStatsChangelog(String topic) {
        return InternalTopics.isChangelogOf(topic, TrainingTopology.CLASS_STATS_STORE);
    }

    /**
     * The progress a changelog record holds: empty when its key is not the progress key, or it is a deletion, or
     * its value is not a progress of any layout the trainer wrote (such a record proves nothing).
     */
    public static Optional<PartitionProgress> of(byte[] key, byte[] value) {
        if (key == null || value == null || !Arrays.equals(KEY, key)) {
            return Optional.empty();
        }
        try {
            return Optional.of(ProgressCounters.decodeStored(value, null).progress());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
