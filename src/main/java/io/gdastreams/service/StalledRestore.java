package io.gdastreams.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * A changelog restore that has not moved for a while, judged by what the broker holds on its partition.
 *
 * <p>Why: Kafka Streams waits for a restore without a time limit. It sets the restore's end to the partition's end
 * offset (read_uncommitted) while its restore consumer, under exactly-once, reads read_committed: no further than
 * the last stable offset. A transaction left open there holds the restore until it ends (HeldRestoreIT); a hanging
 * one, never (the service aborts it when that provably loses nothing, {@link HangingInput}; else an operator must). If
 * a record beyond the restore's position is readable, or nothing is left to read, it is the client that is stuck: a new
 * client restores again from the stores' checkpoints, so the service restarts it (docs/RELIABILITY.md, "A restore that
 * does not finish").
 *
 * @param toAbort the hanging transaction that holds the restore, when the service is to abort it: only with
 *                {@code gda.restore.abort-hanging} on and an abort that provably loses nothing
 *                ({@link ChangelogOnBroker.OpenTransaction#abortLosesNothing()})
 */
record StalledRestore(RestoreWatch.Progress progress, Verdict verdict, String message,
                      Optional<ChangelogOnBroker.OpenTransaction> toAbort) {

    StalledRestore(RestoreWatch.Progress progress, Verdict verdict, String message) {
        this(progress, verdict, message, Optional.empty());
    }

    /** Ends a hanging transaction on a changelog partition, as {@code kafka-transactions.sh abort} does. */
    @FunctionalInterface
    interface Aborter {
        void abort(TopicPartition partition, ChangelogOnBroker.OpenTransaction open) throws Exception;
    }

    /** What came of an abort: {@code done}, or not and why, as the line the service logs. */
    record AbortOutcome(boolean done, String message) {
    }

    /**
     * Aborts {@link #toAbort()} through {@code aborter}, if there is one: its outcome as {@code service} logs it,
     * with the command that does it when it failed ({@code bootstrap} goes into it). Empty when there is nothing to
     * abort.
     */
    Optional<AbortOutcome> abort(Aborter aborter, String service, String bootstrap) throws InterruptedException {
        if (toAbort.isEmpty()) {
            return Optional.empty();
        }
        ChangelogOnBroker.OpenTransaction open = toAbort.get();
        TopicPartition partition = progress.changelog();
        String which = String.format("the hanging transaction on %s from offset %d (producer %d, epoch %d)",
                partition, open.startOffset(), open.producerId(), open.producerEpoch());
        try {
            aborter.abort(partition, open);
            return Optional.of(new AbortOutcome(true, service + ": aborted " + which + ": its training input was"
                    + " never committed; the restore goes on"));
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return Optional.of(new AbortOutcome(false, service + ": could not abort " + which + " ("
                    + StreamsApp.rootMessage(e) + "); " + open.abortCommand(bootstrap, partition) + " ends it (an abort"
                    + " needs ClusterAction on the cluster)"));
        }
    }

    /** What the broker's view makes of the stall. */
    enum Verdict {
        /** Nothing is readable before the last stable offset, which is short of the end: a transaction holds it. */
        HELD_BY_A_TRANSACTION,
        /** A record is readable beyond the restore's position, or nothing is left to read: the client is stuck. */
        NOT_READING,
        /** The broker could not be asked. */
        UNKNOWN
    }

    /**
     * Judges each of {@code stalled} by asking {@code broker} about its partition (a failed question gives
     * {@link Verdict#UNKNOWN} with its reason); {@code clock} gives the wall-clock time in milliseconds. Once the
     * questions have taken {@code budget}, the partitions not yet asked are {@link Verdict#UNKNOWN} too, to be
     * asked after the next patience: the service's loop, which also restarts a failed client, waits for these
     * questions, and a broker that does not answer would otherwise hold it one timeout per stalled partition.
     */
    static List<StalledRestore> judgeAll(String service, List<RestoreWatch.Progress> stalled, Duration patience,
                                         ChangelogOnBroker.Source broker, String bootstrap, LongSupplier clock,
                                         Duration budget, boolean abortHanging) throws InterruptedException {
        List<StalledRestore> judged = new ArrayList<>();
        long start = clock.getAsLong();
        for (RestoreWatch.Progress progress : stalled) {
            Optional<ChangelogOnBroker> onBroker = Optional.empty();
            String failure = null;
            if (clock.getAsLong() - start >= budget.toMillis()) {
                judged.add(judge(service, progress, patience, onBroker, "not asked: the questions about other"
                        + " stalled restores took this check's " + span(budget) + "; asked again in "
                        + span(patience), bootstrap, clock.getAsLong(), abortHanging));
                continue;
            }
            try {
                onBroker = Optional.of(broker.ask(progress.changelog(), progress.position()));
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                failure = StreamsApp.rootMessage(e);
            }
            judged.add(judge(service, progress, patience, onBroker, failure, bootstrap, clock.getAsLong(),
                    abortHanging));
        }
        return judged;
    }

    /**
     * Judges {@code progress}, stalled for {@code patience}, by {@code onBroker} (empty: the broker could not be
     * asked, for {@code failure}); {@code nowMillis} dates an open transaction's last write, {@code bootstrap}
     * goes into the command that ends a hanging one; {@code abortHanging}: the service aborts a hanging transaction
     * whose abort provably loses nothing ({@link #toAbort()}).
     */
    static StalledRestore judge(String service, RestoreWatch.Progress progress, Duration patience,
                                Optional<ChangelogOnBroker> onBroker, String failure, String bootstrap,
                                long nowMillis, boolean abortHanging) {
        String head = String.format("%s: the restore of %s (store %s) has not moved for %s: at offset %d of %d.",
                service, progress.changelog(), progress.store(), span(patience), progress.position(),
                progress.end());
        if (onBroker.isEmpty()) {
            return new StalledRestore(progress, Verdict.UNKNOWN, head + " The broker could not be asked about the"
                    + " partition (" + failure + "); Kafka Streams waits for it without a limit.");
        }
        ChangelogOnBroker broker = onBroker.get();
        String offsets = String.format("last stable offset %d, end offset %d", broker.lastStableOffset(),
                broker.endOffset());
        String restart = ": restarting Kafka Streams, whose stores restore again from their checkpoints.";
        if (broker.firstReadable().isPresent()) {
            return new StalledRestore(progress, Verdict.NOT_READING, head + " The broker serves a record at offset "
                    + broker.firstReadable().getAsLong() + " (" + offsets + ") that the restore is not reading"
                    + restart);
        }
        if (broker.lastStableOffset() >= progress.end()) {
            return new StalledRestore(progress, Verdict.NOT_READING, head + " Nothing is left for it to read ("
                    + offsets + "), yet it has not finished" + restart);
        }
        String holder = broker.open().isEmpty()
                ? " The broker names no open transaction on the partition."
                : holder(broker.open().get(0), progress, bootstrap, nowMillis, abortHanging);
        Optional<ChangelogOnBroker.OpenTransaction> toAbort = broker.open().stream().findFirst()
                .filter(open -> abortHanging && open.abortLosesNothing());
        return new StalledRestore(progress, Verdict.HELD_BY_A_TRANSACTION, head + " An exactly-once restore reads no"
                + " further than the last stable offset (" + offsets + ")." + holder
                + " (docs/RELIABILITY.md, 'A restore that does not finish')", toAbort);
    }

    private static String holder(ChangelogOnBroker.OpenTransaction open, RestoreWatch.Progress progress,
                                 String bootstrap, long nowMillis, boolean abortHanging) {
        String held = open.holdsIt(nowMillis);
        String command = open.abortCommand(bootstrap, progress.changelog());
        if (open.hanging()) {
            String hanging = held + open.hangingSentence();
            if (open.input().isEmpty()) {
                return hanging + " " + command + " ends it, discarding its records (docs/RELIABILITY.md says when that"
                        + " loses nothing).";
            }
            HangingInput input = open.input().get();
            if (input.neverCommitted()) {
                return hanging + " Its training input was never committed (" + input.describe() + "), so an abort"
                        + " loses nothing" + (abortHanging ? ": aborting it (gda.restore.abort-hanging)."
                        : "; " + command + " ends it (gda.restore.abort-hanging=false: not aborted here).");
            }
            return hanging + " But its training input was committed (" + input.describe() + "): its coordinator may"
                    + " have committed it without writing the marker here, and an abort would drop training the group"
                    + " has moved past. Not aborted: docs/RELIABILITY.md ('A hanging transaction whose input was"
                    + " committed') says how to recover.";
        }
        String abort = command + " ends it: its records were never committed, so nothing is lost.";
        if (open.coordinator().isPresent()) {
            ChangelogOnBroker.CoordinatorView view = open.coordinator().get();
            return held + " Its coordinator counts it open (transactional id " + view.transactionalId().orElseThrow()
                    + ", " + view.state() + "): its producer commits or aborts it, or the broker aborts it after"
                    + " transaction.max.timeout.ms (15 min by default). Should it outlive that, " + abort;
        }
        return held + " If it has been open longer than the broker's transaction.max.timeout.ms (15 min by default) it"
                + " is hanging, and " + abort;
    }

    /** A patience as people say it: whole minutes in minutes ("5 min"), anything else in seconds ("90 s"). */
    static String span(Duration patience) {
        return patience.toSecondsPart() == 0 && patience.toMinutes() > 0 ? patience.toMinutes() + " min"
                : patience.toSeconds() + " s";
    }
}
