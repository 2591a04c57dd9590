package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.topology.PublishSchedule.Action;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the combiner publishes: at most once per interval, at once after a quiet period, once more at start. */
class PublishScheduleTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final boolean PUBLISHED_BEFORE = true;
    private static final boolean NEVER_PUBLISHED = false;

    @Test
    void shouldPublishAPendingSnapshotAtOnceAfterAStartAndThenAtMostOncePerInterval() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, true);
        assertEquals(Action.PUBLISH, schedule.next(5_000, NEVER_PUBLISHED), "the first publish is not throttled");
        schedule.published(5_000);

        schedule.publishWanted();
        assertEquals(Action.NOTHING, schedule.next(5_100, PUBLISHED_BEFORE));
        assertEquals(Action.NOTHING, schedule.next(5_999, PUBLISHED_BEFORE));
        assertEquals(Action.PUBLISH, schedule.next(6_000, PUBLISHED_BEFORE), "as soon as the interval has passed");
        schedule.published(6_000);
        assertEquals(Action.NOTHING, schedule.next(6_500, PUBLISHED_BEFORE), "nothing pending, topic checked later");
    }

    @Test
    void shouldPublishAtOnceTheFirstSnapshotAfterAQuietPeriod() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, true);
        schedule.next(0, NEVER_PUBLISHED);
        schedule.published(0);

        schedule.publishWanted();
        assertEquals(Action.PUBLISH, schedule.next(60_000, PUBLISHED_BEFORE));
    }

    @Test
    void shouldPublishAgainOnceAtStartWhenNothingIsPendingAndThenCheckTheTopicEveryIntervalAfterAPublish() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, false);
        assertEquals(Action.REPUBLISH_AT_START, schedule.next(0, PUBLISHED_BEFORE));
        schedule.publishWanted(); // what the combiner does to re-publish
        schedule.published(0);
        assertEquals(Action.NOTHING, schedule.next(500, PUBLISHED_BEFORE), "the topic may not have it back yet");
        assertEquals(Action.CHECK_TOPIC, schedule.next(1_000, PUBLISHED_BEFORE));
        assertEquals(Action.CHECK_TOPIC, schedule.next(1_100, PUBLISHED_BEFORE));
    }

    @Test
    void shouldLetADuePublishStandForTheRepublicationAtStart() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, true);
        assertEquals(Action.PUBLISH, schedule.next(0, PUBLISHED_BEFORE));
        schedule.published(0);
        assertEquals(Action.NOTHING, schedule.next(100, PUBLISHED_BEFORE), "no second version for the start");
    }

    @Test
    void shouldHaveNothingToCheckOrSendAgainBeforeAnythingWasPublished() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, false);
        assertEquals(Action.NOTHING, schedule.next(0, NEVER_PUBLISHED));
        assertEquals(Action.NOTHING, schedule.next(10_000, NEVER_PUBLISHED));
    }

    @Test
    void shouldCheckTheTopicRatherThanRepublishAtALaterCheckWhenTheStartFoundNothingPublished() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, false);
        assertEquals(Action.NOTHING, schedule.next(0, NEVER_PUBLISHED), "the start's re-publication is used up");
        assertEquals(Action.CHECK_TOPIC, schedule.next(100, PUBLISHED_BEFORE));
    }

    @Test
    void shouldStopAskingWhenThereIsNothingToPublishUntilTheNextSnapshot() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, true);
        assertEquals(Action.PUBLISH, schedule.next(0, NEVER_PUBLISHED));
        schedule.nothingToPublish();
        assertEquals(Action.NOTHING, schedule.next(2_000, NEVER_PUBLISHED));
        schedule.publishWanted();
        assertEquals(Action.PUBLISH, schedule.next(2_100, NEVER_PUBLISHED));
    }

    @Test
    void shouldKeepAskingToPublishWhileAPublishIsHeld() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, true);
        assertEquals(Action.PUBLISH, schedule.next(0, PUBLISHED_BEFORE));
        // held (a partition is missing): neither published nor nothing to publish
        assertEquals(Action.PUBLISH, schedule.next(100, PUBLISHED_BEFORE));
    }

    @Test
    void shouldPublishARoundWhenThePartitionsOfThePreviousRoundAreInButWaitAtMostHalfAnInterval() {
        // Partitions 0-2 snapshot on the same tick; each round arrives within a few ms.
        PublishSchedule schedule = firstRoundPublished(0, 10, 20);

        schedule.snapshotAccepted(2, 1_000);
        schedule.snapshotAccepted(0, 1_005);
        assertEquals(Action.NOTHING, schedule.next(1_020, PUBLISHED_BEFORE), "partition 1 of the round is missing");
        schedule.snapshotAccepted(1, 1_030);
        assertEquals(Action.PUBLISH, schedule.next(1_030, PUBLISHED_BEFORE), "the round is complete");
        schedule.published(1_030);

        schedule.snapshotAccepted(0, 2_000);
        assertEquals(Action.NOTHING, schedule.next(2_030, PUBLISHED_BEFORE), "partitions 1 and 2 are missing");
        assertEquals(Action.NOTHING, schedule.next(2_499, PUBLISHED_BEFORE));
        assertEquals(Action.PUBLISH, schedule.next(2_500, PUBLISHED_BEFORE), "half an interval after it arrived");
        schedule.published(2_500);

        schedule.snapshotAccepted(0, 3_000);
        assertEquals(Action.PUBLISH, schedule.next(3_000, PUBLISHED_BEFORE), "the last round was partition 0 alone, "
                + "and the last publish is half an interval old");
        schedule.published(3_000);
        schedule.snapshotAccepted(1, 3_600);
        assertEquals(Action.NOTHING, schedule.next(3_999, PUBLISHED_BEFORE), "a member of a published round, "
                + "more than half an interval after its first");
        assertEquals(Action.PUBLISH, schedule.next(4_000, PUBLISHED_BEFORE), "an interval after the last publish");
    }

    /**
     * The combiner's thread stood still past a round's limit and is reading the rest of the round when it checks
     * again: the check right after a report waits for the next one, and the round goes out complete (a trace of a
     * sparse bench run had it published 9 ms before the two snapshots it lacked).
     */
    @Test
    void shouldGiveARoundStillBeingReadAtItsLimitOneMoreCheck() {
        PublishSchedule schedule = firstRoundPublished(0, 5, 10);

        schedule.snapshotAccepted(0, 1_020); // the round's limit: 1 520
        schedule.snapshotAccepted(1, 1_525); // read after the thread stood still
        assertEquals(Action.NOTHING, schedule.next(1_526, PUBLISHED_BEFORE), "a report 1 ms ago: reading goes on");
        schedule.snapshotAccepted(2, 1_530);
        assertEquals(Action.PUBLISH, schedule.next(1_530, PUBLISHED_BEFORE), "the round is complete");
        schedule.published(1_530);

        schedule.snapshotAccepted(0, 2_040); // limit 2 540
        schedule.partitionQuiet(1, 2_541);
        assertEquals(Action.NOTHING, schedule.next(2_545, PUBLISHED_BEFORE), "a quiet word 4 ms ago");
        assertEquals(Action.NOTHING, schedule.next(2_550, PUBLISHED_BEFORE), "9 ms: less than a check period");
        assertEquals(Action.PUBLISH, schedule.next(2_551, PUBLISHED_BEFORE), "a check period without a report");
    }

    @Test
    void shouldPublishALateMemberOfAPublishedRoundHalfAnIntervalAfterItsRoundAndDelayTheNextRoundAtMostAsMuch() {
        PublishSchedule schedule = firstRoundPublished(0);

        // Tick 1 000: partition 0 was the whole previous round, so its snapshot is the round (published at 1 040);
        // partition 1, quiet last round, has news too, but its snapshot comes 20 ms after the publish.
        schedule.snapshotAccepted(0, 1_040);
        assertEquals(Action.PUBLISH, schedule.next(1_040, PUBLISHED_BEFORE));
        schedule.published(1_040);
        schedule.snapshotAccepted(1, 1_060);
        assertEquals(Action.NOTHING, schedule.next(1_539, PUBLISHED_BEFORE), "half an interval between publishes");
        assertEquals(Action.PUBLISH, schedule.next(1_540, PUBLISHED_BEFORE), "not with the next round");
        schedule.published(1_540);

        // Tick 2 000: the round is complete at 2 010, but goes out 40 ms after its tick, as the late one's round did.
        schedule.snapshotAccepted(0, 2_005);
        schedule.snapshotAccepted(1, 2_010);
        assertEquals(Action.NOTHING, schedule.next(2_010, PUBLISHED_BEFORE));
        assertEquals(Action.NOTHING, schedule.next(2_039, PUBLISHED_BEFORE));
        assertEquals(Action.PUBLISH, schedule.next(2_040, PUBLISHED_BEFORE));
        schedule.published(2_040);

        schedule.publishWanted();
        assertEquals(Action.NOTHING, schedule.next(2_540, PUBLISHED_BEFORE), "a re-publication is no late member");
        assertEquals(Action.PUBLISH, schedule.next(3_040, PUBLISHED_BEFORE));
    }

    @Test
    void shouldKeepHalfAnIntervalBetweenTwoPublishesEvenWhenARoundIsComplete() {
        PublishSchedule schedule = firstRoundPublished(0);
        schedule.snapshotAccepted(1, 600); // a member of the published round more than half an interval after it
        assertEquals(Action.NOTHING, schedule.next(999, PUBLISHED_BEFORE));
        assertEquals(Action.PUBLISH, schedule.next(1_000, PUBLISHED_BEFORE));
        schedule.published(1_000);
        schedule.snapshotAccepted(0, 1_000);
        schedule.snapshotAccepted(1, 1_000);
        assertEquals(Action.NOTHING, schedule.next(1_000, PUBLISHED_BEFORE), "complete, but just published");
        assertEquals(Action.NOTHING, schedule.next(1_499, PUBLISHED_BEFORE));
        assertEquals(Action.PUBLISH, schedule.next(1_500, PUBLISHED_BEFORE));
    }

    @Test
    void shouldNotWaitForARoundTwoIntervalsOlder() {
        PublishSchedule schedule = firstRoundPublished(0, 0);

        schedule.snapshotAccepted(1, 2_000);
        assertEquals(Action.PUBLISH, schedule.next(2_000, PUBLISHED_BEFORE), "partition 0 is quiet, not late");
    }

    @Test
    void shouldPublishARoundAtOnceWhenItsMissingPartitionSaysItHasNothingNewAndNotWaitForItNextRound() {
        PublishSchedule schedule = firstRoundPublished(0, 5);

        schedule.snapshotAccepted(0, 1_000);
        assertEquals(Action.NOTHING, schedule.next(1_010, PUBLISHED_BEFORE), "partition 1 of the round is missing");
        schedule.partitionQuiet(1, 1_020);
        assertEquals(Action.PUBLISH, schedule.next(1_020, PUBLISHED_BEFORE), "partition 1 has nothing new");
        schedule.published(1_020);

        schedule.snapshotAccepted(0, 2_000);
        assertEquals(Action.PUBLISH, schedule.next(2_000, PUBLISHED_BEFORE), "partition 1 is not waited for any more");
        schedule.published(2_000);

        schedule.partitionQuiet(0, 3_000);
        assertEquals(Action.CHECK_TOPIC, schedule.next(3_000, PUBLISHED_BEFORE), "a quiet word alone publishes nothing");
    }

    @Test
    void shouldSayARoundHasAllOnlyWhenEveryGivenPartitionReportedInItBeforeItWasPublished() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, false);
        assertEquals(false, schedule.roundHasAll(java.util.Set.of(0)), "no round yet");
        schedule.snapshotAccepted(0, 0);
        assertEquals(true, schedule.roundHasAll(java.util.Set.of(0)));
        assertEquals(false, schedule.roundHasAll(java.util.Set.of(0, 1)), "partition 1 has not reported");
        schedule.partitionQuiet(1, 5);
        assertEquals(true, schedule.roundHasAll(java.util.Set.of(0, 1)), "a quiet word is a report");
        schedule.next(5, NEVER_PUBLISHED);
        schedule.published(5);
        assertEquals(false, schedule.roundHasAll(java.util.Set.of(0, 1)), "published: nothing left to judge");
    }

    @Test
    void shouldStartARoundWithAQuietWordThatComesFirstAndPublishItWhenItsNewsFollows() {
        PublishSchedule schedule = firstRoundPublished(0, 5);

        schedule.partitionQuiet(1, 1_000); // partition 1 reported in the round of 00:00:00: this starts the next one
        assertEquals(false, schedule.roundHasAll(java.util.Set.of(0, 1)), "partition 0 has not reported yet");
        assertEquals(Action.NOTHING, schedule.next(1_000, PUBLISHED_BEFORE), "a quiet word alone publishes nothing");
        schedule.snapshotAccepted(0, 1_010);
        assertEquals(true, schedule.roundHasAll(java.util.Set.of(0, 1)));
        assertEquals(Action.PUBLISH, schedule.next(1_010, PUBLISHED_BEFORE));
    }

    @Test
    void shouldTryAHeldPublishAgainATenthOfAnIntervalLaterOrAtOnceAfterTheNextSnapshot() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, true);
        assertEquals(Action.PUBLISH, schedule.next(0, NEVER_PUBLISHED));
        schedule.notPublished(0, 0); // held (a partition is missing) or too large, after a quick try
        assertEquals(Action.NOTHING, schedule.next(10, NEVER_PUBLISHED), "not merged again at every 10 ms check");
        assertEquals(Action.NOTHING, schedule.next(99, NEVER_PUBLISHED));
        assertEquals(Action.PUBLISH, schedule.next(100, NEVER_PUBLISHED), "a tenth of the interval later");
        schedule.notPublished(100, 0);
        schedule.snapshotAccepted(1, 110);
        assertEquals(Action.PUBLISH, schedule.next(110, NEVER_PUBLISHED), "news: at once");
    }

    @Test
    void shouldWaitTenTimesAFailedTrysOwnDurationEvenAfterNews() {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, true);
        assertEquals(Action.PUBLISH, schedule.next(0, NEVER_PUBLISHED));
        schedule.notPublished(400, 400); // a too-large model: merging and serialising it took 400 ms
        assertEquals(Action.NOTHING, schedule.next(500, NEVER_PUBLISHED), "not a tenth of an interval later");
        schedule.snapshotAccepted(1, 600);
        assertEquals(Action.NOTHING, schedule.next(600, NEVER_PUBLISHED), "nor at once after news");
        assertEquals(Action.NOTHING, schedule.next(4_399, NEVER_PUBLISHED));
        assertEquals(Action.PUBLISH, schedule.next(4_400, NEVER_PUBLISHED), "ten times the try's 400 ms later");
        schedule.published(4_400);
        schedule.snapshotAccepted(0, 5_400);
        assertEquals(Action.PUBLISH, schedule.next(5_400, PUBLISHED_BEFORE), "a publish ends the wait");
    }

    /**
     * A fresh schedule after its first round: partition p's snapshot at {@code arrivalsMs[p]}, the round published
     * at the last of them (the first publish after a start is not throttled).
     */
    private static PublishSchedule firstRoundPublished(long... arrivalsMs) {
        PublishSchedule schedule = new PublishSchedule(INTERVAL, false);
        for (int partition = 0; partition < arrivalsMs.length; partition++) {
            schedule.snapshotAccepted(partition, arrivalsMs[partition]);
        }
        long last = arrivalsMs[arrivalsMs.length - 1];
        assertEquals(Action.PUBLISH, schedule.next(last, NEVER_PUBLISHED));
        schedule.published(last);
        return schedule;
    }
}
