package io.gdastreams.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * A changelog restore that has not moved for a while, judged by what the broker holds on its partition.
 *
 * <p>Why: Kafka Streams waits for a restore without a time limit. It sets the restore's end to the partition's end
 * offset (read_uncommitted) while its restore consumer, under exactly-once, reads read_committed: no further than
 * the last stable offset. A transaction left open there holds the restore until it ends (an operator must abort
 * a hanging one; HeldRestoreIT). If a record beyond the restore's position is readable, or nothing is left to
 * read, it is the client that is stuck: a new client restores again from the stores' checkpoints, so the service
 * restarts it (docs/RELIABILITY.md, "A restore that does not finish").
 */
record StalledRestore(RestoreWatch.Progress progress, Verdict verdict, String message) {

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
                                         Duration budget) throws InterruptedException {
        List<StalledRestore> judged = new ArrayList<>();
        long start = clock.getAsLong();
        for (RestoreWatch.Progress progress : stalled) {
            Optional<ChangelogOnBroker> onBroker = Optional.empty();
            String failure = null;
            if (clock.getAsLong() - start >= budget.toMillis()) {
                judged.add(judge(service, progress, patience, onBroker, "not asked: the questions about other"
                        + " stalled restores took this check's " + span(budget) + "; asked again in "
                        + span(patience), bootstrap, clock.getAsLong()));
                continue;
            }
            try {
                onBroker = Optional.of(broker.ask(progress.changelog(), progress.position()));
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                failure = StreamsApp.rootMessage(e);
            }
            judged.add(judge(service, progress, patience, onBroker, failure, bootstrap, clock.getAsLong()));
        }
        return judged;
    }

    /**
     * Judges {@code progress}, stalled for {@code patience}, by {@code onBroker} (empty: the broker could not be
     * asked, for {@code failure}); {@code nowMillis} dates an open transaction's last write, {@code bootstrap}
     * goes into the command that ends a hanging one.
     */
    static StalledRestore judge(String service, RestoreWatch.Progress progress, Duration patience,
                                Optional<ChangelogOnBroker> onBroker, String failure, String bootstrap,
                                long nowMillis) {
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
                : holder(broker.open().get(0), progress, bootstrap, nowMillis);
        return new StalledRestore(progress, Verdict.HELD_BY_A_TRANSACTION, head + " An exactly-once restore reads no"
                + " further than the last stable offset (" + offsets + ")." + holder
                + " (docs/RELIABILITY.md, 'A restore that does not finish')");
    }

    private static String holder(ChangelogOnBroker.OpenTransaction open, RestoreWatch.Progress progress,
                                 String bootstrap, long nowMillis) {
        long minutes = Duration.ofMillis(Math.max(0, nowMillis - open.lastTimestampMillis())).toMinutes();
        String held = String.format(" A transaction open since offset %d holds it (producer %d, epoch %d, last write"
                + " %d min ago).", open.startOffset(), open.producerId(), open.producerEpoch(), minutes);
        String abort = String.format("`kafka-transactions.sh --bootstrap-server %s abort --topic %s --partition %d"
                        + " --start-offset %d` ends it: its records were never committed, so nothing is lost.",
                bootstrap, progress.changelog().topic(), progress.changelog().partition(), open.startOffset());
        if (open.hanging()) {
            ChangelogOnBroker.CoordinatorView view = open.coordinator().orElseThrow();
            String said = view.transactionalId().map(id -> "transactional id " + id + " is " + view.state()
                    + " at epoch " + view.producerEpoch() + (view.includesPartition() ? "" : ", without this partition"))
                    .orElse("no coordinator lists a transaction of producer " + open.producerId());
            return held + " It is hanging: its coordinator has moved on (" + said + "), so nothing but an abort"
                    + " will end it; " + abort;
        }
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
