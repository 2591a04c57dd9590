package io.gdastreams.topology;

import java.time.Duration;

/**
 * When the combiner publishes (docs/TRAINING.md, "Snapshots, versions, lineage"): at most one version per publish
 * interval, however many partitions send snapshots (each version is megabytes at large d, and every scorer
 * compiles it). An accepted snapshot publishes at once when the last publish is at least an interval old (the
 * first snapshot after a quiet period is not delayed); otherwise it waits for a later check, which publishes as
 * soon as the interval has passed. After a (re)start the first publish is not throttled, and the model is
 * published again once (a new version) even with nothing pending.
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

    private static final long NEVER = Long.MIN_VALUE;

    private final long intervalMs;
    /** An accepted snapshot is not in a published model yet. */
    private boolean pending;
    /** Wall clock of this incarnation's last publish; NEVER after a (re)start, so a pending publish goes at once. */
    private long lastPublishMs = NEVER;
    private boolean republishAtStart = true;

    /** @param pending whether the state holds a snapshot that no published model absorbed */
    PublishSchedule(Duration interval, boolean pending) {
        this.intervalMs = interval.toMillis();
        this.pending = pending;
    }

    /**
     * What to do at wall-clock {@code now}; {@code hasPublished}: whether there is a last model to check or send
     * again. A due publish supersedes the re-publication at start (the new version is the re-publication). Right
     * after a publish the model topic's global store may not have read it back yet, so the topic is checked only
     * an interval after the last publish.
     */
    Action next(long now, boolean hasPublished) {
        if (pending && (lastPublishMs == NEVER || now - lastPublishMs >= intervalMs)) {
            republishAtStart = false;
            return Action.PUBLISH;
        }
        boolean started = republishAtStart;
        republishAtStart = false;
        if (!hasPublished || (!started && lastPublishMs != NEVER && now - lastPublishMs < intervalMs)) {
            return Action.NOTHING;
        }
        return started ? Action.REPUBLISH_AT_START : Action.CHECK_TOPIC;
    }

    /** A snapshot was accepted, or the last model is to be published again: publish at the next due check. */
    void publishWanted() {
        pending = true;
    }

    /** A model was published at {@code now}. */
    void published(long now) {
        pending = false;
        lastPublishMs = now;
    }

    /** There is nothing to publish (no events yet): stop asking until the next snapshot. */
    void nothingToPublish() {
        pending = false;
    }
}
