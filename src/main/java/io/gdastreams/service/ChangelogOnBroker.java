package io.gdastreams.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * What the broker holds on one changelog partition beyond a restore's position: its end offset, its last stable
 * offset (how far a read_committed reader, such as a restore under exactly-once, can read), the first record such
 * a reader gets from that position, and the transactions open on the partition. Asked when a restore has stalled,
 * so that the report can say whether a transaction holds it or records it could read are waiting.
 *
 * @param firstReadable the offset of the first record a read_committed reader gets at or after the position; empty
 *                      when it reaches the last stable offset without one (transaction markers and aborted records
 *                      are all there is)
 */
record ChangelogOnBroker(long endOffset, long lastStableOffset, OptionalLong firstReadable,
                         List<OpenTransaction> open) {

    ChangelogOnBroker {
        open = List.copyOf(open);
    }

    /**
     * A transaction open on the partition: its producer, the offset of its first record, when it last wrote, what
     * its transaction coordinator says of it (empty when the coordinator could not be asked), and, for a hanging one
     * on a trainer's {@code class-stats} changelog, whether the training input behind its records was committed
     * (empty when not asked or nothing could be proved).
     */
    record OpenTransaction(long producerId, int producerEpoch, OptionalInt coordinatorEpoch, long startOffset,
                           long lastTimestampMillis, Optional<CoordinatorView> coordinator,
                           Optional<HangingInput> input) {

        OpenTransaction(long producerId, int producerEpoch, OptionalInt coordinatorEpoch, long startOffset,
                        long lastTimestampMillis, Optional<CoordinatorView> coordinator) {
            this(producerId, producerEpoch, coordinatorEpoch, startOffset, lastTimestampMillis, coordinator,
                    Optional.empty());
        }

        OpenTransaction(long producerId, int producerEpoch, OptionalInt coordinatorEpoch, long startOffset,
                        long lastTimestampMillis) {
            this(producerId, producerEpoch, coordinatorEpoch, startOffset, lastTimestampMillis, Optional.empty());
        }

        OpenTransaction withInput(Optional<HangingInput> proof) {
            return new OpenTransaction(producerId, producerEpoch, coordinatorEpoch, startOffset, lastTimestampMillis,
                    coordinator, proof);
        }

        /** " A transaction open since offset 149 holds it (producer 4, epoch 39, last write 6 min ago)." */
        String holdsIt(long nowMillis) {
            long minutes = Duration.ofMillis(Math.max(0, nowMillis - lastTimestampMillis)).toMinutes();
            return String.format(" A transaction open since offset %d holds it (producer %d, epoch %d, last write %d"
                    + " min ago).", startOffset, producerId, producerEpoch, minutes);
        }

        /** " It is hanging: its coordinator has moved on (…), so nothing but an abort will end it." */
        String hangingSentence() {
            return " It is hanging: its coordinator has moved on (" + coordinatorSays().orElseThrow() + "), so nothing"
                    + " but an abort will end it.";
        }

        /** Kafka's command that aborts it on {@code partition}, quoted. */
        String abortCommand(String bootstrap, TopicPartition partition) {
            return String.format("`kafka-transactions.sh --bootstrap-server %s abort --topic %s --partition %d"
                    + " --start-offset %d`", bootstrap, partition.topic(), partition.partition(), startOffset);
        }

        /**
         * What its coordinator says of it, for a message: "transactional id t is CompleteCommit at epoch 94, without
         * this partition", or that no coordinator lists its producer. Empty when the coordinator was not asked.
         */
        Optional<String> coordinatorSays() {
            return coordinator.map(view -> view.transactionalId().map(id -> "transactional id " + id + " is "
                    + view.state() + " at epoch " + view.producerEpoch()
                    + (view.includesPartition() ? "" : ", without this partition"))
                    .orElse("no coordinator lists a transaction of producer " + producerId));
        }

        /** Hanging, and its records hold training whose input the group never committed: an abort loses nothing. */
        boolean abortLosesNothing() {
            return hanging() && input.map(HangingInput::neverCommitted).orElse(false);
        }

        /**
         * Hanging: its coordinator has no transaction of this producer that is still open on this partition (the
         * producer has moved on, or the coordinator never knew it), so nothing will ever end it but an abort.
         */
        boolean hanging() {
            return coordinator.map(c -> !c.stillOpenHere()).orElse(false);
        }
    }

    /**
     * The coordinator's view of the producer of an open transaction: its transactional id (empty when no coordinator
     * lists a transaction of this producer id), state and epoch, and whether its current transaction includes the
     * partition.
     */
    record CoordinatorView(Optional<String> transactionalId, String state, int producerEpoch,
                           boolean includesPartition) {

        /** Open on the partition as far as the coordinator knows (it will commit or abort it, or time it out). */
        boolean stillOpenHere() {
            return transactionalId.isPresent() && includesPartition && (state.equals("Ongoing")
                    || state.startsWith("Prepare"));
        }
    }

    /** How a service asks the broker about a partition from a position (an exception says why it could not). */
    @FunctionalInterface
    interface Source {
        ChangelogOnBroker ask(TopicPartition partition, long position) throws Exception;
    }

    /**
     * Asks through {@code admin} and reads through {@code reader} (assigned nothing, no group, reading as the
     * restore does: {@code isolation}), waiting at most {@code timeout} for each answer and for the read. Under
     * read_uncommitted (at-least-once) nothing holds a reader short of the end: the last stable offset is then the
     * end offset.
     */
    static ChangelogOnBroker ask(Admin admin, Consumer<byte[], byte[]> reader, IsolationLevel isolation,
                                 TopicPartition partition, long position, Duration timeout)
            throws ExecutionException, InterruptedException, TimeoutException {
        return ask(admin, reader, null, isolation, partition, position, timeout, Optional.empty());
    }

    /**
     * As {@link #ask(Admin, Consumer, IsolationLevel, TopicPartition, long, Duration)}; for a trainer
     * ({@code training} present) the first open transaction, when it is hanging, is also read through
     * {@code uncommitted} (a read_uncommitted reader) for the training input behind it ({@link HangingInput}).
     */
    static ChangelogOnBroker ask(Admin admin, Consumer<byte[], byte[]> reader, Consumer<byte[], byte[]> uncommitted,
                                 IsolationLevel isolation, TopicPartition partition, long position, Duration timeout,
                                 Optional<HangingInput.Training> training)
            throws ExecutionException, InterruptedException, TimeoutException {
        long end = offset(admin, partition, IsolationLevel.READ_UNCOMMITTED, timeout);
        long stable = isolation == IsolationLevel.READ_COMMITTED
                ? offset(admin, partition, IsolationLevel.READ_COMMITTED, timeout) : end;
        List<OpenTransaction> open = admin.describeProducers(List.of(partition)).partitionResult(partition)
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).activeProducers().stream()
                .filter(p -> p.currentTransactionStartOffset().isPresent())
                .map(p -> new OpenTransaction(p.producerId(), p.producerEpoch(), p.coordinatorEpoch(),
                        p.currentTransactionStartOffset().getAsLong(), p.lastTimestamp(),
                        coordinatorView(admin, p.producerId(), partition, timeout)))
                .sorted(Comparator.comparingLong(OpenTransaction::startOffset))
                .collect(Collectors.toCollection(ArrayList::new));
        if (training.isPresent() && !open.isEmpty() && open.get(0).hanging()) {
            open.set(0, open.get(0).withInput(proof(uncommitted, admin, training.get(), partition,
                    open.get(0).startOffset(), end, timeout)));
        }
        return new ChangelogOnBroker(end, stable, firstReadable(reader, partition, position, stable, timeout), open);
    }

    /**
     * What the coordinators say of {@code producerId} (as Kafka's {@code kafka-transactions.sh find-hanging} asks
     * them): the transactional id that has it, described. Empty when they cannot be asked (no Describe permission on
     * transactional ids, a timeout): the report then falls back on the transaction's age.
     */
    private static Optional<CoordinatorView> coordinatorView(Admin admin, long producerId, TopicPartition partition,
                                                             Duration timeout) {
        try {
            Collection<TransactionListing> listings = admin.listTransactions(new ListTransactionsOptions()
                    .filterProducerIds(Set.of(producerId))).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Optional<String> id = listings.stream().filter(l -> l.producerId() == producerId)
                    .map(TransactionListing::transactionalId).findFirst();
            if (id.isEmpty()) {
                return Optional.of(new CoordinatorView(Optional.empty(), "none", -1, false));
            }
            TransactionDescription description = admin.describeTransactions(List.of(id.get())).description(id.get())
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return Optional.of(new CoordinatorView(id, description.state().toString(), description.producerEpoch(),
                    description.producerId() == producerId && description.topicPartitions().contains(partition)));
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** {@link HangingInput#read}, or empty when it could not be read (nothing is proved then). */
    private static Optional<HangingInput> proof(Consumer<byte[], byte[]> uncommitted, Admin admin,
                                                HangingInput.Training training, TopicPartition partition, long start,
                                                long end, Duration timeout) throws InterruptedException {
        try {
            return HangingInput.read(uncommitted, admin, training, partition, start, end, timeout);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static long offset(Admin admin, TopicPartition partition, IsolationLevel isolation, Duration timeout)
            throws ExecutionException, InterruptedException, TimeoutException {
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                .partitionResult(partition).get(timeout.toMillis(), TimeUnit.MILLISECONDS).offset();
    }

    /** Reads from {@code position} until a record comes or the reader reaches {@code stable}. */
    private static OptionalLong firstReadable(Consumer<byte[], byte[]> reader, TopicPartition partition,
                                              long position, long stable, Duration timeout) throws TimeoutException {
        if (position >= stable) {
            return OptionalLong.empty();
        }
        reader.assign(List.of(partition));
        reader.seek(partition, position);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            ConsumerRecords<byte[], byte[]> records = reader.poll(Duration.ofMillis(100));
            if (!records.isEmpty()) {
                return OptionalLong.of(records.records(partition).get(0).offset());
            }
            if (reader.position(partition) >= stable) {
                return OptionalLong.empty();
            }
        }
        throw new TimeoutException("read " + partition + " from offset " + position + " for " + timeout
                + " without reaching its last stable offset " + stable);
    }
}
