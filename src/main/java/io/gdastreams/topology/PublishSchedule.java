package io.gdastreams.topology;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * When the combiner publishes (docs/TRAINING.md, "Snapshots, versions, lineage"): one version per round of
 * snapshots (at most two: see late members below), however many partitions send them (each version is megabytes
 * at large d, and every scorer compiles it). After a (re)start the first publish is not throttled, and the model
 * is published again once (a new version) even with nothing pending.
 *
 * <p><b>Rounds.</b> The partitions snapshot together, on the same wall-clock ticks ({@link SnapshotTicks}), so the
 * snapshots of one tick reach the combiner within a short spread. A <i>round</i> is the snapshots from its first
 * on, one per partition: a partition's next snapshot, or any snapshot three quarters of an interval after the
 * round's first, starts the next round. Publishing on the first snapshot of a round would leave the others for a
 * whole interval more (freshness up to two intervals); so a round is published
 * <ul>
 *   <li>at once when there was no earlier round, or the earlier one began two intervals or more before (a
 *       quiet period: nobody to wait for; the first snapshot after a quiet period is not delayed);</li>
 *   <li>as soon as every partition of the previous round has sent its snapshot of this round, or said that it has
 *       nothing new ({@link #partitionQuiet}: its task re-sends the snapshot the combiner already keeps, once, at
 *       the first tick without news; without that word a round after which a partition went quiet would wait
 *       half an interval for it, which at moderate event rates is most rounds);</li>
 *   <li>at the latest {@link #gatherMs} (half an interval) after its first snapshot: a partition that went quiet
 *       delays one round by at most that, and is not waited for afterwards. Unless a report of the round came
 *       within the last check period: the combiner is then reading the round's snapshots (typically after its own
 *       stream thread stood still past the limit, with the rest of the round waiting in its consumer), and the
 *       round waits for the next check. (A trace showed a round published 9 ms before the thread read the two
 *       snapshots it lacked, which then went out 126 ms later as late members.)</li>
 * </ul>
 * Two publishes are at least half an interval apart. A snapshot arriving after its round was published but
 * within half an interval of the round's first (a partition quiet in the previous round whose news came a little
 * after the rest of the tick's) goes out half an interval after that publish, in a version of its own: waiting for
 * the next round would make its events up to two intervals old, this keeps them within one and a half. The next
 * round is then published no earlier after its tick than the late one's round was after its own (the half
 * interval between two publishes): tens of milliseconds. A later member of a published round, and a publish
 * wanted without any snapshot (a re-publication), go out an interval after the last publish (or with the next
 * round).
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

    /** The longest wait for the rest of a round, as a fraction of the interval (also the shortest spacing). */
    static final int GATHER_DIVISOR = 2;
    private static final long NEVER = Long.MIN_VALUE;
    /** Quiet period: a previous round this many intervals older than the current one is not waited for. */
    private static final int QUIET_INTERVALS = 2;
    /** A failed try waits this many times its own duration: failed tries take at most a tenth of the thread. */
    static final int COST_FACTOR = 10;

    /**
     * The partitions whose snapshots arrived within three quarters of an interval of the first, and when that was;
     * and the partitions that said they had nothing new ({@link #partitionQuiet}).
     */
    private static final class Round {
        final long startMs;
        /** When the latest report (snapshot or quiet word) of this round came. */
        long lastReportMs;
        /** Partitions with a new snapshot in this round: the next round waits for these. */
        final Set<Integer> partitions = new HashSet<>();
        /** Partitions that reported nothing new: this round need not wait for them, and the next does not. */
        final Set<Integer> quiet = new HashSet<>();
        boolean published;
        /**
         * A snapshot of this round came after the round was published, within half an interval of its first, and
         * is not published yet.
         */
        boolean lateNews;

        Round(long startMs) {
            this.startMs = startMs;
        }

        boolean reported(int partition) {
            return partitions.contains(partition) || quiet.contains(partition);
        }

        /** Whether every one of {@code expected} has reported in this round. */
        boolean reportedAll(Set<Integer> expected) {
            for (int partition : expected) {
                if (!reported(partition)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final long intervalMs;
    private final long gatherMs;
    /** The combiner's check period ({@link SnapshotTicks#checkPeriod}): a report this recent means reading goes on. */
    private final long checkMs;
    /** A snapshot this long after its round's first one starts a new round, even from a partition not yet in it. */
    private final long roundSpanMs;
    /** A snapshot (or a re-publication) is not in a published model yet. */
    private boolean pending;
    /** Wall clock of this incarnation's last publish; NEVER after a (re)start, so a pending publish goes at once. */
    private long lastPublishMs = NEVER;
    /**
     * A publish that was held or too large is not tried again before this (NEVER: no such wait), unless a snapshot
     * or a re-publication comes: the checks run every 10 ms, and a try merges and serialises the whole model.
     */
    private long retryAfterMs = NEVER;
    /** How long a held publish waits before it is tried again without news: a tenth of the interval. */
    private final long retryMs;
    /**
     * After a try that was not published, no try before this, news or not (NEVER: no such wait): {@link
     * #COST_FACTOR} times the failed try's own duration. A try merges and serialises the whole model, about a
     * second per merge at K = 100, d = 256; a model over the record limit would otherwise be tried again at every
     * snapshot and every retry, and take the whole stream thread (and the partitions it hosts) with it.
     */
    private long costAfterMs = NEVER;
    private boolean republishAtStart = true;
    /** The newest round, and the one before it (null until there is one). */
    private Round current;
    private Round previous;

    /** @param pending whether the state holds a snapshot that no published model absorbed */
    PublishSchedule(Duration interval, boolean pending) {
        this.intervalMs = interval.toMillis();
        this.gatherMs = intervalMs / GATHER_DIVISOR;
        this.checkMs = SnapshotTicks.checkPeriod(interval).toMillis();
        this.roundSpanMs = intervalMs * 3 / 4;
        this.retryMs = Math.max(1, intervalMs / 10);
        this.pending = pending;
    }

    /**
     * What to do at wall-clock {@code now}; {@code hasPublished}: whether there is a last model to check or send
     * again. A due publish supersedes the re-publication at start (the new version is the re-publication). Right
     * after a publish the model topic's global store may not have read it back yet, so the topic is checked only
     * an interval after the last publish.
     */
    Action next(long now, boolean hasPublished) {
        if (pending && (now < retryAfterMs || now < costAfterMs)) {
            return Action.NOTHING;
        }
        if (pending && (lastPublishMs == NEVER || due(now))) {
            republishAtStart = false;
            return Action.PUBLISH;
        }
        boolean started = republishAtStart;
        republishAtStart = false;
        if (pending && current != null && !current.published) {
            return Action.NOTHING; // the rest of the round is due any moment; the topic check can wait for it
        }
        if (!hasPublished || (!started && lastPublishMs != NEVER && now - lastPublishMs < intervalMs)) {
            return Action.NOTHING;
        }
        return started ? Action.REPUBLISH_AT_START : Action.CHECK_TOPIC;
    }

    /** Whether a pending publish may go now (see the class comment); the first after a (re)start always may. */
    private boolean due(long now) {
        if (now - lastPublishMs < gatherMs) {
            return false;
        }
        if (current == null || current.published) {
            // Half an interval after the last publish (checked above) for a late member of its round; a
            // re-publication waits a whole interval.
            return (current != null && current.lateNews) || now - lastPublishMs >= intervalMs;
        }
        return previous == null
                || current.startMs - previous.startMs >= QUIET_INTERVALS * intervalMs
                || current.reportedAll(previous.partitions)
                || now - current.startMs >= gatherMs && now - current.lastReportMs >= checkMs;
    }

    /** A snapshot of {@code partition} was accepted at {@code now}: publish when its round is due. */
    void snapshotAccepted(int partition, long now) {
        pending = true;
        retryAfterMs = NEVER;
        Round round = roundOf(partition, now);
        round.partitions.add(partition);
        round.lateNews |= round.published && now - round.startMs < gatherMs;
    }

    /**
     * {@code partition} had nothing new at this tick (its task sent the snapshot the combiner already keeps): the
     * round need not wait for it. Publishes nothing by itself.
     */
    void partitionQuiet(int partition, long now) {
        roundOf(partition, now).quiet.add(partition);
    }

    /**
     * The round a report of {@code partition} at {@code now} belongs to: the current one, or a new one; the report's
     * time is noted in it.
     */
    private Round roundOf(int partition, long now) {
        if (current == null || current.reported(partition) || now - current.startMs >= roundSpanMs) {
            previous = current;
            current = new Round(now);
        }
        current.lastReportMs = now;
        return current;
    }

    /**
     * Whether every one of {@code partitions} has reported in the current, unpublished round: no other snapshot of
     * this tick can come, so the round may be judged at once rather than at the next check.
     */
    boolean roundHasAll(Set<Integer> partitions) {
        return current != null && !current.published && current.reportedAll(partitions);
    }

    /** The last model is to be published again: publish at the next due check. */
    void publishWanted() {
        pending = true;
        retryAfterMs = NEVER;
    }

    /**
     * A due publish was not made at {@code now} (held for a partition or a gate, or too large) after a try of
     * {@code tryMs}: it stays pending, and is tried again a tenth of an interval later, or at once after the next
     * snapshot, but in either case not before {@link #COST_FACTOR} × {@code tryMs} has passed.
     */
    void notPublished(long now, long tryMs) {
        costAfterMs = now + COST_FACTOR * Math.max(0, tryMs);
        retryAfterMs = Math.max(now + retryMs, costAfterMs);
    }

    /** A model was published at {@code now}. */
    void published(long now) {
        pending = false;
        retryAfterMs = NEVER;
        costAfterMs = NEVER;
        lastPublishMs = now;
        if (current != null) {
            current.published = true;
            current.lateNews = false;
        }
    }

    /** There is nothing to publish (no events yet): stop asking until the next snapshot. */
    void nothingToPublish() {
        pending = false;
    }
}
