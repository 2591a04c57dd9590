package io.gdastreams.topology;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * When the combiner publishes (docs/TRAINING.md, "Snapshots, versions, lineage"): at most one version per publish
 * interval, however many partitions send snapshots (each version is megabytes at large d, and every scorer
 * compiles it). An accepted snapshot publishes at once when the last publish is at least an interval old (the
 * first snapshot after a quiet period is not delayed); otherwise it waits for a later check, which publishes as
 * soon as the interval has passed. After a (re)start the first publish is not throttled, and the model is
 * published again once (a new version) even with nothing pending.
 *
 * <p><b>Rounds.</b> The partitions snapshot together, on the same wall-clock ticks ({@link SnapshotTicks}), so the
 * snapshots of one tick (a round) reach the combiner within a short spread. Publishing on the first of them would
 * leave the others for a whole interval more (freshness up to two intervals). So:
 * <ul>
 *   <li>the interval is counted from the arrival of the oldest snapshot the last publish took in (the start of
 *       its round), so that a round published late does not push every later round back; two publishes are
 *       still at least {@link #gatherMs} (half an interval) apart;</li>
 *   <li>once it has passed, the schedule also waits until every partition of the last published round has sent
 *       a snapshot since, but never more than {@link #gatherMs} after the oldest unpublished snapshot arrived (a
 *       partition that went quiet delays one round by at most that, and is not waited for afterwards). A last
 *       publish more than two intervals old is a quiet period: nobody is waited for.</li>
 * </ul>
 *
 * <p>Pure wall-clock bookkeeping, one per combiner incarnation: the caller says what happened and asks what to do.
 */
final class PublishSchedule {

    /** What the combiner should do at a check. */
    enum Action {
        /** Publish the merge of the kept snapshots: one is pending and the interval has passed. */
        PUBLISH,
        /** Publish the current statistics again, as a new version: the trainer (re)started. */
        REPUBLISH_AT_START,
        /** See whether the model topic still holds the last model, and publish it again if not. */
        CHECK_TOPIC,
        /** Nothing now. */
        NOTHING
    }

    /** The longest wait for the rest of a round, as a fraction of the interval. */
    static final int GATHER_DIVISOR = 2;
    private static final long NEVER = Long.MIN_VALUE;

    private final long intervalMs;
    private final long gatherMs;
    /** An accepted snapshot is not in a published model yet. */
    private boolean pending;
    /** Wall clock of this incarnation's last publish; NEVER after a (re)start, so a pending publish goes at once. */
    private long lastPublishMs = NEVER;
    /** When the oldest snapshot the last publish took in arrived (the publish time if it took in none). */
    private long lastRoundStartMs = NEVER;
    private boolean republishAtStart = true;
    /** The partitions whose snapshots the last publish took in: the round the next one waits for. */
    private Set<Integer> lastRound = Set.of();
    /** The partitions that sent a snapshot since the last publish. */
    private final Set<Integer> arrived = new HashSet<>();
    /** When the oldest snapshot not yet published arrived; NEVER when none is waiting. */
    private long oldestArrivalMs = NEVER;

    /** @param pending whether the state holds a snapshot that no published model absorbed */
    PublishSchedule(Duration interval, boolean pending) {
        this.intervalMs = interval.toMillis();
        this.gatherMs = intervalMs / GATHER_DIVISOR;
        this.pending = pending;
    }

    /**
     * What to do at wall-clock {@code now}; {@code hasPublished}: whether there is a last model to check or send
     * again. A due publish supersedes the re-publication at start (the new version is the re-publication). Right
     * after a publish the model topic's global store may not have read it back yet, so the topic is checked only
     * an interval after the last publish.
     */
    Action next(long now, boolean hasPublished) {
        if (pending && (lastPublishMs == NEVER || roundDue(now))) {
            if (lastPublishMs == NEVER || roundGathered(now)) {
                republishAtStart = false;
                return Action.PUBLISH;
            }
            return Action.NOTHING; // the rest of the round is due any moment; the topic check can wait for it
        }
        boolean started = republishAtStart;
        republishAtStart = false;
        if (!hasPublished || (!started && lastPublishMs != NEVER && now - lastPublishMs < intervalMs)) {
            return Action.NOTHING;
        }
        return started ? Action.REPUBLISH_AT_START : Action.CHECK_TOPIC;
    }

    /** Whether an interval has passed since the start of the last published round (see the class comment). */
    private boolean roundDue(long now) {
        return now - lastRoundStartMs >= intervalMs && now - lastPublishMs >= gatherMs;
    }

    /** Whether the publish may go now rather than wait for the rest of the round (see the class comment). */
    private boolean roundGathered(long now) {
        return now - lastPublishMs >= 2 * intervalMs
                || arrived.containsAll(lastRound)
                || oldestArrivalMs == NEVER
                || now - oldestArrivalMs >= gatherMs;
    }

    /** A snapshot of {@code partition} was accepted at {@code now}: publish at the next due check. */
    void snapshotAccepted(int partition, long now) {
        pending = true;
        arrived.add(partition);
        if (oldestArrivalMs == NEVER) {
            oldestArrivalMs = now;
        }
    }

    /** The last model is to be published again: publish at the next due check. */
    void publishWanted() {
        pending = true;
    }

    /** A model was published at {@code now}. */
    void published(long now) {
        pending = false;
        lastPublishMs = now;
        lastRoundStartMs = oldestArrivalMs == NEVER ? now : oldestArrivalMs;
        lastRound = Set.copyOf(arrived);
        arrived.clear();
        oldestArrivalMs = NEVER;
    }

    /** There is nothing to publish (no events yet): stop asking until the next snapshot. */
    void nothingToPublish() {
        pending = false;
    }
}
