package io.gdastreams.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Watches Kafka Streams' restores of changelog partitions and names the ones that have made no progress for a
 * while, so that a stalled restore is said out loud instead of looking like a service that is merely starting.
 *
 * <p>Why: in a long fault run a rebuilt trainer's restore of two changelog partitions stopped a few offsets short
 * of their end offsets and never finished (docs/RELIABILITY.md, "Runs"); Kafka Streams waits for a restore without
 * a time limit and logs only "Restoration in progress". A restore that cannot pass the last stable offset of its
 * changelog (a transaction left open on it) looks exactly like that. The watch only finds such restores;
 * {@link StalledRestore} judges them by the broker's view of their partitions (docs/RELIABILITY.md, "A restore that
 * does not finish").
 */
final class RestoreWatch implements StateRestoreListener {

    /** One restore in progress: where it is, where it must get to, and since when it has not moved. */
    record Progress(TopicPartition changelog, String store, long position, long end, long sinceNanos) {
    }

    private final Map<TopicPartition, Progress> restoring = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> reported = new ConcurrentHashMap<>();
    private final Map<TopicPartition, StalledRestore> judged = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;

    RestoreWatch(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        restoring.put(partition, new Progress(partition, storeName, startingOffset, endingOffset,
                nanoClock.getAsLong()));
        reported.remove(partition);
        judged.remove(partition);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
        if (numRestored == 0) {
            return; // a poll that restored nothing (global stores report those) is no progress
        }
        restoring.computeIfPresent(partition, (p, old) -> new Progress(p, storeName, batchEndOffset + 1, old.end(),
                nanoClock.getAsLong()));
        reported.remove(partition);
        judged.remove(partition);
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        restoring.remove(partition);
        reported.remove(partition);
        judged.remove(partition);
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        restoring.remove(partition);
        reported.remove(partition);
        judged.remove(partition);
    }

    /** Keeps {@code stalled}'s judgement while its restore stands where it was judged. */
    void judged(StalledRestore stalled) {
        judged.put(stalled.progress().changelog(), stalled);
    }

    /** What was found about {@code progress}'s stall, while it stands where it was judged (else empty). */
    Optional<StalledRestore> judgement(Progress progress) {
        StalledRestore stalled = judged.get(progress.changelog());
        return stalled != null && stalled.progress().equals(progress) ? Optional.of(stalled) : Optional.empty();
    }

    /** True while {@code progress}'s restore is still in progress and stands exactly where it stood then. */
    boolean standsStill(Progress progress) {
        return progress.equals(restoring.get(progress.changelog()));
    }

    /** Every restore in progress now. */
    List<Progress> inProgress() {
        return List.copyOf(restoring.values());
    }

    /**
     * The restores that have not moved for {@code patience} and were not reported in the last {@code patience};
     * each is then counted as reported now (a stall is repeated once per {@code patience}, not every call).
     */
    List<Progress> newlyStalled(Duration patience) {
        long now = nanoClock.getAsLong();
        List<Progress> stalled = new ArrayList<>();
        for (Progress progress : restoring.values()) {
            if (now - progress.sinceNanos() < patience.toNanos()) {
                continue;
            }
            Long last = reported.get(progress.changelog());
            if (last == null || now - last >= patience.toNanos()) {
                reported.put(progress.changelog(), now);
                stalled.add(progress);
            }
        }
        return stalled;
    }
}
