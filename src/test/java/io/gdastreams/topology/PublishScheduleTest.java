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
}
