package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * How a stalled changelog restore is judged from the broker's view of its partition: held by an open transaction
 * (the last stable offset is where the restore stands), not read although readable (restart), or unknown.
 */
class StalledRestoreTest {

    private static final Duration PATIENCE = Duration.ofMinutes(5);
    /** The broker timeout (gda.broker.timeout.ms) the service gives one check's questions. */
    private static final Duration BUDGET = Duration.ofSeconds(15);
    private static final TopicPartition CHANGELOG = new TopicPartition("app-class-stats-changelog", 2);
    /** Stalled 7 offsets short of its end, as in the long fault run. */
    private static final RestoreWatch.Progress STALLED =
            new RestoreWatch.Progress(CHANGELOG, "class-stats", 3160, 3167, 0);
    private static final long NOW = 1_800_000_000_000L;
    private static final String BOOTSTRAP = "broker-1:9092";

    private static StalledRestore judge(ChangelogOnBroker broker) {
        return judge(broker, true);
    }

    private static StalledRestore judge(ChangelogOnBroker broker, boolean abortHanging) {
        return StalledRestore.judge("training", STALLED, PATIENCE, Optional.of(broker), null, BOOTSTRAP, NOW,
                abortHanging);
    }

    @Test
    void shouldNameTheOpenTransactionThatHoldsTheLastStableOffsetAndTheCommandThatEndsIt() {
        var holder = new ChangelogOnBroker.OpenTransaction(4001, 2, OptionalInt.of(7), 3160,
                NOW - Duration.ofMinutes(17).toMillis());
        var later = new ChangelogOnBroker.OpenTransaction(4002, 0, OptionalInt.empty(), 3164, NOW);
        StalledRestore stalled = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(),
                List.of(holder, later)));

        assertEquals(StalledRestore.Verdict.HELD_BY_A_TRANSACTION, stalled.verdict());
        assertEquals("training: the restore of app-class-stats-changelog-2 (store class-stats) has not moved for 5"
                + " min: at offset 3160 of 3167. An exactly-once restore reads no further than the last stable offset"
                + " (last stable offset 3160, end offset 3168). A transaction open since offset 3160 holds it"
                + " (producer 4001, epoch 2, last write 17 min ago). If it has been open longer than the broker's"
                + " transaction.max.timeout.ms (15 min by default) it is hanging, and `kafka-transactions.sh"
                + " --bootstrap-server broker-1:9092 abort --topic app-class-stats-changelog --partition 2"
                + " --start-offset 3160` ends it: its records were never committed, so nothing is lost."
                + " (docs/RELIABILITY.md, 'A restore that does not finish')", stalled.message());
    }

    /**
     * Asked as {@code kafka-transactions.sh find-hanging} asks: the coordinator of producer 4 has completed its
     * transactions up to epoch 1110 and has none open on this partition, so the one open since offset 149 at epoch 39
     * is hanging now, not after 15 minutes (seen in a fault run after the broker fenced itself). A coordinator that
     * lists no transaction of the producer at all says the same.
     */
    @Test
    void shouldSayATransactionIsHangingWhenItsCoordinatorHasMovedOn() {
        var hanging = new ChangelogOnBroker.OpenTransaction(4, 39, OptionalInt.of(1), 3160,
                NOW - Duration.ofMinutes(6).toMillis(), Optional.of(new ChangelogOnBroker.CoordinatorView(
                        Optional.of("app-091c14b3-2"), "CompleteCommit", 1110, false)));
        StalledRestore stalled = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(hanging)));
        assertEquals(StalledRestore.Verdict.HELD_BY_A_TRANSACTION, stalled.verdict());
        assertTrue(stalled.message().contains(" A transaction open since offset 3160 holds it (producer 4, epoch 39,"
                + " last write 6 min ago). It is hanging: its coordinator has moved on (transactional id app-091c14b3-2"
                + " is CompleteCommit at epoch 1110, without this partition), so nothing but an abort will end it."
                + " `kafka-transactions.sh --bootstrap-server broker-1:9092 abort --topic app-class-stats-changelog"
                + " --partition 2 --start-offset 3160` ends it, discarding its records (docs/RELIABILITY.md says when"
                + " that loses nothing)."), stalled.message());
        assertTrue(stalled.toAbort().isEmpty(), "nothing proves its input uncommitted: left to the operator");

        var unknown = new ChangelogOnBroker.OpenTransaction(4, 39, OptionalInt.of(1), 3160, NOW, Optional.of(
                new ChangelogOnBroker.CoordinatorView(Optional.empty(), "none", -1, false)));
        assertTrue(judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(unknown))).message()
                .contains("(no coordinator lists a transaction of producer 4)"));
    }

    /** The hanging transaction of the fault run, with what its records and the consumer group say of its input. */
    private static ChangelogOnBroker.OpenTransaction hanging(OptionalLong committed) {
        return new ChangelogOnBroker.OpenTransaction(4, 39, OptionalInt.of(1), 3160, NOW,
                Optional.of(new ChangelogOnBroker.CoordinatorView(Optional.of("app-091c14b3-2"), "CompleteCommit", 1110,
                        false)), Optional.of(new HangingInput("labelled", 2, 812, committed)));
    }

    /**
     * Its progress entries reach from offset 812 while the group committed 809: the transaction never committed, so
     * its abort loses nothing, and the service aborts it (unless told not to; then the command is named).
     */
    @Test
    void shouldAbortAHangingTransactionWhoseTrainingInputWasNeverCommitted() {
        var open = hanging(OptionalLong.of(809));
        StalledRestore stalled = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(open)));
        assertEquals(Optional.of(open), stalled.toAbort());
        assertTrue(stalled.message().contains("so nothing but an abort will end it. Its training input was never"
                + " committed (the training progress in its records reaches from offset 812 of labelled-2; the"
                + " consumer group committed offset 809), so an abort loses nothing: aborting it"
                + " (gda.restore.abort-hanging). (docs/RELIABILITY.md"), stalled.message());

        StalledRestore told = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(open)), false);
        assertEquals(Optional.empty(), told.toAbort());
        assertTrue(told.message().contains("so an abort loses nothing; `kafka-transactions.sh --bootstrap-server"
                + " broker-1:9092 abort --topic app-class-stats-changelog --partition 2 --start-offset 3160` ends it"
                + " (gda.restore.abort-hanging=false: not aborted here)."), told.message());

        // A group that has committed nothing on the partition has not committed this either.
        assertEquals(Optional.of(hanging(OptionalLong.empty())), judge(new ChangelogOnBroker(3168, 3160,
                OptionalLong.empty(), List.of(hanging(OptionalLong.empty())))).toAbort());
    }

    /** The service aborts what {@link StalledRestore#toAbort()} names, and says what came of it. */
    @Test
    void shouldSayWhatCameOfTheAbort() throws Exception {
        var open = hanging(OptionalLong.of(809));
        StalledRestore stalled = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(open)));
        List<String> aborted = new ArrayList<>();
        assertEquals(Optional.of(new StalledRestore.AbortOutcome(true, "training: aborted the hanging transaction on"
                + " app-class-stats-changelog-2 from offset 3160 (producer 4, epoch 39): its training input was never"
                + " committed; the restore goes on")), stalled.abort((partition, transaction) -> aborted.add(
                        partition + "@" + transaction.startOffset()), "training", BOOTSTRAP));
        assertEquals(List.of("app-class-stats-changelog-2@3160"), aborted);

        assertEquals(Optional.of(new StalledRestore.AbortOutcome(false, "training: could not abort the hanging"
                + " transaction on app-class-stats-changelog-2 from offset 3160 (producer 4, epoch 39)"
                + " (ClusterAuthorizationException: Cluster authorization failed.); `kafka-transactions.sh"
                + " --bootstrap-server broker-1:9092 abort --topic app-class-stats-changelog --partition 2"
                + " --start-offset 3160` ends it (an abort needs ClusterAction on the cluster)")),
                stalled.abort((partition, transaction) -> {
                    throw new ExecutionException(new org.apache.kafka.common.errors.ClusterAuthorizationException(
                            "Cluster authorization failed."));
                }, "training", BOOTSTRAP));

        // Nothing to abort: nothing done.
        StalledRestore told = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(open)), false);
        assertEquals(Optional.empty(), told.abort((partition, transaction) -> aborted.add("never"), "training",
                BOOTSTRAP));
        assertEquals(1, aborted.size());
    }

    /**
     * The group committed offset 812 or beyond: the transaction may have committed without its marker here, and an
     * abort would drop training the group has moved past. Left alone, with why.
     */
    @Test
    void shouldLeaveAHangingTransactionWhoseTrainingInputWasCommitted() {
        for (long committed : new long[] {812, 900}) {
            var open = hanging(OptionalLong.of(committed));
            assertTrue(!open.abortLosesNothing(), "committed " + committed);
            StalledRestore stalled = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(open)));
            assertEquals(Optional.empty(), stalled.toAbort());
            assertTrue(stalled.message().contains("so nothing but an abort will end it. But its training input was"
                    + " committed (the training progress in its records reaches from offset 812 of labelled-2; the"
                    + " consumer group committed offset " + committed + "): its coordinator may have committed it"
                    + " without writing the marker here, and an abort would drop training the group has moved past."
                    + " Not aborted: docs/RELIABILITY.md ('A hanging transaction whose input was committed') says how"
                    + " to recover."), stalled.message());
            assertTrue(!stalled.message().contains("kafka-transactions.sh"), stalled.message());
        }
        // Not hanging (its coordinator counts it open): never aborted by the service, whatever its input.
        var ongoing = new ChangelogOnBroker.OpenTransaction(4, 39, OptionalInt.of(1), 3160, NOW,
                Optional.of(new ChangelogOnBroker.CoordinatorView(Optional.of("held-1"), "Ongoing", 39, true)),
                Optional.of(new HangingInput("labelled", 2, 812, OptionalLong.of(809))));
        assertEquals(Optional.empty(), judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(),
                List.of(ongoing))).toAbort());
    }

    /** A transaction its coordinator still has open on the partition is not hanging, whatever its age. */
    @Test
    void shouldSayATransactionItsCoordinatorCountsOpenIsNotHanging() {
        for (String state : List.of("Ongoing", "PrepareCommit", "PrepareAbort")) {
            var open = new ChangelogOnBroker.OpenTransaction(4001, 2, OptionalInt.of(7), 3160,
                    NOW - Duration.ofMinutes(17).toMillis(), Optional.of(new ChangelogOnBroker.CoordinatorView(
                            Optional.of("held-1"), state, 2, true)));
            assertTrue(!open.hanging(), state);
            String message = judge(new ChangelogOnBroker(3168, 3160, OptionalLong.empty(), List.of(open))).message();
            assertTrue(message.contains(" Its coordinator counts it open (transactional id held-1, " + state
                    + "): its producer commits or aborts it, or the broker aborts it after transaction.max.timeout.ms"
                    + " (15 min by default). Should it outlive that, `kafka-transactions.sh"), message);
        }
        // Open on the coordinator, but not on this partition: this partition's is hanging.
        assertTrue(new ChangelogOnBroker.OpenTransaction(4001, 2, OptionalInt.of(7), 3160, NOW, Optional.of(
                new ChangelogOnBroker.CoordinatorView(Optional.of("held-1"), "Ongoing", 3, false))).hanging());
    }

    @Test
    void shouldSayWhenTheLastStableOffsetHoldsItWithoutAnOpenTransactionNamed() {
        StalledRestore stalled = judge(new ChangelogOnBroker(3167, 3160, OptionalLong.empty(), List.of()));

        assertEquals(StalledRestore.Verdict.HELD_BY_A_TRANSACTION, stalled.verdict());
        assertTrue(stalled.message().contains("(last stable offset 3160, end offset 3167). The broker names no open"
                + " transaction on the partition."), stalled.message());
    }

    @Test
    void shouldRestartWhenARecordBeyondThePositionIsReadable() {
        StalledRestore stalled = judge(new ChangelogOnBroker(3167, 3167, OptionalLong.of(3162), List.of()));

        assertEquals(StalledRestore.Verdict.NOT_READING, stalled.verdict());
        assertEquals("training: the restore of app-class-stats-changelog-2 (store class-stats) has not moved for 5"
                + " min: at offset 3160 of 3167. The broker serves a record at offset 3162 (last stable offset 3167,"
                + " end offset 3167) that the restore is not reading: restarting Kafka Streams, whose stores restore"
                + " again from their checkpoints.", stalled.message());
    }

    @Test
    void shouldRestartWhenNothingIsLeftToReadUpToTheEnd() {
        // Only commit markers between the last restored record and the end: the restore should have finished.
        StalledRestore stalled = judge(new ChangelogOnBroker(3167, 3167, OptionalLong.empty(), List.of()));

        assertEquals(StalledRestore.Verdict.NOT_READING, stalled.verdict());
        assertTrue(stalled.message().endsWith("at offset 3160 of 3167. Nothing is left for it to read (last stable"
                + " offset 3167, end offset 3167), yet it has not finished: restarting Kafka Streams, whose stores"
                + " restore again from their checkpoints."), stalled.message());
    }

    @Test
    void shouldNotRestartForMarkersAndAbortedRecordsBeforeTheHold() {
        // The last stable offset is beyond the position, but only markers and aborted records lie before it.
        var holder = new ChangelogOnBroker.OpenTransaction(4001, 2, OptionalInt.empty(), 3163, NOW);
        StalledRestore stalled = judge(new ChangelogOnBroker(3167, 3163, OptionalLong.empty(), List.of(holder)));

        assertEquals(StalledRestore.Verdict.HELD_BY_A_TRANSACTION, stalled.verdict());
        assertTrue(stalled.message().contains("--start-offset 3163`"), stalled.message());
    }

    @Test
    void shouldNeitherRestartNorGuessWhenTheBrokerCannotBeAsked() {
        StalledRestore stalled = StalledRestore.judge("scoring", STALLED, PATIENCE, Optional.empty(),
                "TimeoutException: Timed out waiting for a node assignment", BOOTSTRAP, NOW, true);

        assertEquals(StalledRestore.Verdict.UNKNOWN, stalled.verdict());
        assertTrue(stalled.message().endsWith("at offset 3160 of 3167. The broker could not be asked about the"
                + " partition (TimeoutException: Timed out waiting for a node assignment); Kafka Streams waits for"
                + " it without a limit."), stalled.message());
    }
    @Test
    void shouldAskTheBrokerAboutEachStalledPartitionAndKeepGoingWhenOneQuestionFails() throws Exception {
        TopicPartition other = new TopicPartition("app-model-combiner-changelog", 0);
        var otherStalled = new RestoreWatch.Progress(other, "model-combiner", 10, 18, 0);
        List<TopicPartition> asked = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        ChangelogOnBroker.Source broker = (partition, position) -> {
            asked.add(partition);
            positions.add(position);
            if (partition.equals(CHANGELOG)) {
                throw new ExecutionException(new TimeoutException("no answer"));
            }
            return new ChangelogOnBroker(18, 18, OptionalLong.of(10), List.of());
        };

        List<StalledRestore> judged = StalledRestore.judgeAll("training", List.of(STALLED, otherStalled), PATIENCE,
                broker, BOOTSTRAP, () -> NOW, BUDGET, true);

        assertEquals(List.of(CHANGELOG, other), asked);
        assertEquals(List.of(3160L, 10L), positions, "asked from where each restore stands");
        assertEquals(List.of(StalledRestore.Verdict.UNKNOWN, StalledRestore.Verdict.NOT_READING),
                judged.stream().map(StalledRestore::verdict).toList());
        assertTrue(judged.get(0).message().contains("(TimeoutException: no answer)"), judged.get(0).message());
        assertEquals(otherStalled, judged.get(1).progress());
    }

    @Test
    void shouldLeaveThePartitionsItHasNoTimeForToTheNextPatience() throws Exception {
        TopicPartition second = new TopicPartition("app-model-combiner-changelog", 0);
        TopicPartition third = new TopicPartition("app-class-stats-changelog", 1);
        var secondStalled = new RestoreWatch.Progress(second, "model-combiner", 10, 18, 0);
        var thirdStalled = new RestoreWatch.Progress(third, "class-stats", 20, 28, 0);
        List<TopicPartition> asked = new ArrayList<>();
        long[] now = {NOW};
        // A broker that does not answer: each question takes the whole budget before it fails.
        ChangelogOnBroker.Source broker = (partition, position) -> {
            asked.add(partition);
            now[0] += BUDGET.toMillis();
            throw new ExecutionException(new TimeoutException("no answer"));
        };

        List<StalledRestore> judged = StalledRestore.judgeAll("training", List.of(STALLED, secondStalled,
                thirdStalled), PATIENCE, broker, BOOTSTRAP, () -> now[0], BUDGET, true);

        assertEquals(List.of(CHANGELOG), asked, "one question, then the budget is spent");
        assertEquals(List.of(StalledRestore.Verdict.UNKNOWN, StalledRestore.Verdict.UNKNOWN,
                StalledRestore.Verdict.UNKNOWN), judged.stream().map(StalledRestore::verdict).toList());
        assertTrue(judged.get(0).message().contains("(TimeoutException: no answer)"), judged.get(0).message());
        assertEquals(List.of(secondStalled, thirdStalled), List.of(judged.get(1).progress(),
                judged.get(2).progress()));
        assertTrue(judged.get(2).message().endsWith("at offset 20 of 28. The broker could not be asked about the"
                + " partition (not asked: the questions about other stalled restores took this check's 15 s; asked"
                + " again in 5 min); Kafka Streams waits for it without a limit."), judged.get(2).message());
    }

    @Test
    void shouldSayThePatienceInWholeMinutesOrElseInSeconds() {
        assertEquals("5 min", StalledRestore.span(Duration.ofMinutes(5)));
        assertEquals("90 s", StalledRestore.span(Duration.ofSeconds(90)));
        assertEquals("3 s", StalledRestore.span(Duration.ofSeconds(3)));
    }
}
