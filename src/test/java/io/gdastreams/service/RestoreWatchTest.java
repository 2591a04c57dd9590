package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which changelog restores RestoreWatch names as stalled, and how often, on a hand-driven clock. */
class RestoreWatchTest {

    private static final Duration PATIENCE = Duration.ofMinutes(5);
    private static final TopicPartition CHANGELOG = new TopicPartition("app-class-stats-changelog", 0);
    private static final TopicPartition OTHER = new TopicPartition("app-model-combiner-changelog", 0);

    private long now;
    private final RestoreWatch watch = new RestoreWatch(() -> now);

    private void advance(Duration by) {
        now += by.toNanos();
    }

    @Test
    void shouldNameARestoreWithoutProgressForThePatienceOncePerPatience() {
        watch.onRestoreStart(CHANGELOG, "class-stats", 0, 3167);
        watch.onBatchRestored(CHANGELOG, "class-stats", 3159, 2974);
        advance(PATIENCE.minusSeconds(1));
        assertTrue(watch.newlyStalled(PATIENCE).isEmpty(), "not yet");

        advance(Duration.ofSeconds(1));
        List<RestoreWatch.Progress> stalled = watch.newlyStalled(PATIENCE);
        assertEquals(1, stalled.size());
        assertEquals(CHANGELOG, stalled.get(0).changelog());
        assertEquals(3160, stalled.get(0).position(), "the next offset to restore");
        assertEquals(3167, stalled.get(0).end());

        advance(Duration.ofMinutes(1));
        assertTrue(watch.newlyStalled(PATIENCE).isEmpty(), "said once per patience, not on every check");
        advance(PATIENCE);
        assertEquals(1, watch.newlyStalled(PATIENCE).size(), "and again while it lasts");
    }

    @Test
    void shouldForgetARestoreThatMovesEndsOrIsSuspended() {
        watch.onRestoreStart(CHANGELOG, "class-stats", 0, 100);
        watch.onRestoreStart(OTHER, "model-combiner", 0, 10);
        advance(PATIENCE.minusSeconds(10));
        watch.onBatchRestored(CHANGELOG, "class-stats", 49, 50);
        watch.onRestoreEnd(OTHER, "model-combiner", 10);
        advance(Duration.ofSeconds(20));
        assertTrue(watch.newlyStalled(PATIENCE).isEmpty(), "one moved 20 s ago, the other finished");

        watch.onRestoreSuspended(CHANGELOG, "class-stats", 50);
        advance(PATIENCE.multipliedBy(2));
        assertTrue(watch.newlyStalled(PATIENCE).isEmpty(), "a suspended restore is not waited for");
    }

    @Test
    void shouldKeepAStallsJudgementOnlyWhileTheRestoreStandsWhereItWasJudged() {
        watch.onRestoreStart(CHANGELOG, "class-stats", 0, 3167);
        watch.onBatchRestored(CHANGELOG, "class-stats", 3159, 2974);
        advance(PATIENCE);
        RestoreWatch.Progress stalled = watch.newlyStalled(PATIENCE).get(0);
        watch.judged(new StalledRestore(stalled, StalledRestore.Verdict.HELD_BY_A_TRANSACTION, "held"));
        assertEquals("held", watch.judgement(watch.inProgress().get(0)).orElseThrow().message());

        watch.onBatchRestored(CHANGELOG, "class-stats", 3163, 4);
        assertTrue(watch.judgement(watch.inProgress().get(0)).isEmpty(), "it moved: the judgement is gone");
    }

    @Test
    void shouldCountABatchWithoutRecordsAsNoProgressAndSayWhetherARestoreStandsStill() {
        watch.onRestoreStart(CHANGELOG, "class-stats", 0, 3167);
        watch.onBatchRestored(CHANGELOG, "class-stats", 3159, 2974);
        RestoreWatch.Progress judged = watch.inProgress().get(0);
        advance(PATIENCE);
        watch.onBatchRestored(CHANGELOG, "class-stats", 3160, 0); // a poll that restored nothing (global stores)
        assertTrue(watch.standsStill(judged), "no record restored: no progress");
        assertEquals(1, watch.newlyStalled(PATIENCE).size());

        watch.onBatchRestored(CHANGELOG, "class-stats", 3163, 4);
        assertTrue(!watch.standsStill(judged), "it moved");
        watch.onRestoreEnd(CHANGELOG, "class-stats", 2978);
        assertTrue(!watch.standsStill(judged), "it finished");
    }
}
