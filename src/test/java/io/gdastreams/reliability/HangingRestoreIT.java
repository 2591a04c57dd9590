package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.RESTORE_MODEL;
import static io.gdastreams.reliability.TrainingRuns.assertTrainsOnExactly;
import static io.gdastreams.reliability.TrainingRuns.restoreTestConfig;
import static io.gdastreams.reliability.TrainingRuns.trainStopAndWipe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.HangingTransaction;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trainer's {@code class-stats} restore held by a <em>hanging</em> transaction (one whose coordinator never
 * learnt of the changelog partition, so no marker will ever end it; what Kafka 4.3.1 left after broker crashes in
 * fault runs), made deterministically ({@link HangingTransaction}). The trainer reads the training progress in the
 * transaction's records and the consumer group's committed offset:
 * <ul>
 *   <li>progress past the committed offset: the transaction never committed, so the trainer aborts it by itself,
 *       restores and trains on to a model of exactly every event;</li>
 *   <li>progress at the committed offset: the transaction may have committed without its marker here, so the
 *       trainer leaves it and says why; ended by hand, training goes on exactly.</li>
 * </ul>
 */
@ExtendWith(KafkaBrokerExtension.class)
class HangingRestoreIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Iris rows are ordered by class: the two phases end inside different classes. */
    private static final int N = 70;
    private static final int L = 40;
    /** The events the hanging transaction claims to have trained on beyond the committed offset. */
    private static final int UNCOMMITTED = 3;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldAbortAHangingTransactionWhoseInputWasNeverCommittedAndTrainExactly(KafkaBroker broker)
            throws Exception {
        Run run = new Run(broker, "hang-abort");
        try (ProductProcess train = new ProductProcess(Command.TRAIN, run.config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            trainStopAndWipe(train, broker, producer, run.topics, run.rows, N, run.appState(), TIMEOUT);
            // The group committed offset N; the transaction's progress says N + 3 events were read.
            HangingTransaction.Left left = HangingTransaction.leave(broker, run.changelog,
                    List.<byte[][]>of(progress(N + UNCOMMITTED)));

            train.start();
            String aborted = "aborted the hanging transaction on " + run.changelog + " from offset "
                    + left.startOffset() + " (producer " + left.producerId() + ", epoch " + left.producerEpoch()
                    + "): its training input was never committed";
            Await.until("the trainer aborts the hanging transaction", TIMEOUT, () -> train.log().contains(aborted),
                    () -> train.tails(40));
            String log = train.log();
            assertTrue(log.contains("A transaction open since offset " + left.startOffset() + " holds it (producer "
                    + left.producerId() + ", epoch " + left.producerEpoch() + ","), train.tails(40));
            assertTrue(log.contains("It is hanging: its coordinator has moved on (transactional id "
                    + left.transactionalId() + " is Empty at epoch " + left.producerEpoch()
                    + ", without this partition)"), train.tails(40));
            assertTrue(log.contains("Its training input was never committed (the training progress in its records"
                    + " reaches from offset " + (N + UNCOMMITTED) + " of " + run.topics.labelled().name() + "-0; the"
                    + " consumer group committed offset " + N + "), so an abort loses nothing: aborting it"),
                    train.tails(40));
            assertTrue(openTransactions(broker, run.changelog).isEmpty(), "the transaction is ended");
            // Nothing of the transaction counted: rows N … N + L − 1 (the first three are the ones it claimed).
            assertTrainsOnExactly(train, broker, producer, run.topics, run.rows, N, L, RESTORE_MODEL, TIMEOUT);
            assertFalse(train.log().contains("starting Kafka Streams again"), train.tails(40));
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    @Test
    void shouldLeaveAHangingTransactionWhoseInputWasCommitted(KafkaBroker broker) throws Exception {
        Run run = new Run(broker, "hang-keep");
        try (ProductProcess train = new ProductProcess(Command.TRAIN, run.config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            trainStopAndWipe(train, broker, producer, run.topics, run.rows, N, run.appState(), TIMEOUT);
            // The transaction's progress is the committed offset itself: it may be a committed one's records.
            HangingTransaction.Left left = HangingTransaction.leave(broker, run.changelog, List.<byte[][]>of(progress(N)));

            train.start();
            String kept = "But its training input was committed (the training progress in its records reaches from"
                    + " offset " + N + " of " + run.topics.labelled().name() + "-0; the consumer group committed"
                    + " offset " + N + "): its coordinator may have committed it without writing the marker here";
            Await.until("the trainer says why it leaves the transaction", TIMEOUT, () -> train.log().contains(kept),
                    () -> train.tails(40));
            // Judged again after the next patience (5 s): still there, still not aborted by the trainer.
            Await.until("a second judgement", TIMEOUT, () -> occurrences(train.log(), kept) >= 2,
                    () -> train.tails(40));
            assertFalse(train.log().contains("aborted the hanging transaction"), train.tails(40));
            List<ProducerState> open = openTransactions(broker, run.changelog);
            assertEquals(1, open.size(), open.toString());
            assertEquals(left.startOffset(), open.get(0).currentTransactionStartOffset().orElseThrow());

            // An operator who knows better ends it; training goes on exactly.
            broker.admin().abortTransaction(new AbortTransactionSpec(run.changelog, left.producerId(),
                    left.producerEpoch(), open.get(0).coordinatorEpoch().orElse(0)))
                    .all().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertTrainsOnExactly(train, broker, producer, run.topics, run.rows, N, L, RESTORE_MODEL, TIMEOUT);
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    /** One test's topics, configuration and changelog partition. */
    private final class Run {
        final Topics topics = KafkaBroker.uniqueTopics();
        final String streamsAppId;
        final List<LabelledRow> rows = Iris.rows();
        final Map<String, String> config;
        final TopicPartition changelog;

        Run(KafkaBroker broker, String prefix) {
            String appId = KafkaBroker.uniqueName(prefix);
            streamsAppId = appId + "-" + Command.TRAIN.role();
            config = restoreTestConfig(broker, topics, appId, dir.resolve("state"));
            changelog = new TopicPartition(streamsAppId + "-" + TrainingTopology.CLASS_STATS_STORE + "-changelog", 0);
        }

        Path appState() {
            return dir.resolve("state").resolve(streamsAppId);
        }
    }

    /**
     * A progress entry of input partition 0 as the trainer writes it, by hand: key {@code progress}; value byte 1,
     * int partition, long next offset, long applied, long dead-lettered, big-endian.
     */
    private static byte[][] progress(long nextOffset) {
        byte[] value = ByteBuffer.allocate(29).put((byte) 1).putInt(0).putLong(nextOffset).putLong(nextOffset)
                .putLong(0).array();
        return new byte[][] {"progress".getBytes(StandardCharsets.UTF_8), value};
    }

    private static List<ProducerState> openTransactions(KafkaBroker broker, TopicPartition partition)
            throws Exception {
        return broker.admin().describeProducers(List.of(partition)).partitionResult(partition)
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).activeProducers().stream()
                .filter(p -> p.currentTransactionStartOffset().isPresent()).toList();
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
