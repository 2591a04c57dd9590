package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.RESTORE_MODEL;
import static io.gdastreams.reliability.TrainingRuns.counts;
import static io.gdastreams.reliability.TrainingRuns.modelOf;
import static io.gdastreams.reliability.TrainingRuns.restoreTestConfig;
import static io.gdastreams.reliability.TrainingRuns.send;
import static io.gdastreams.reliability.TrainingRuns.startAndTrain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.ops.OpsHttp;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input the broker deletes while a service is stopped, before it has read it (retention does this to a service
 * stopped longer than the topic's retention.ms; deleting records by hand is the same on the broker, and immediate):
 * Kafka Streams goes on from the earliest offset left and says nothing. The service dead-letters each gap at start,
 * with its coordinates and size, warns, and counts it; what is left is used exactly.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DeletedInputIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Events read before the stop, sent while stopped, and deleted of those before they were read. */
    private static final int READ = 40;
    private static final int SENT_WHILE_STOPPED = 60;
    private static final int DELETED = 30;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldDeadLetterTrainingInputDeletedWhileTheTrainerWasStoppedAndTrainOnTheRest(KafkaBroker broker)
            throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        List<LabelledRow> rows = Iris.rows();
        Map<String, String> config = restoreTestConfig(broker, topics, KafkaBroker.uniqueName("deleted-input"),
                dir.resolve("state"));
        TopicPartition input = new TopicPartition(topics.labelled().name(), 0);
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            restartAfterDeletion(train, broker, producer, topics, rows, SENT_WHILE_STOPPED);
            // Rows READ … READ + DELETED − 1 are gone: the model holds the others, exactly.
            assertModelHoldsAllBut(broker, topics, rows, READ);

            String sentence = trainingSentence(input);
            assertTrue(train.log().contains("training: WARNING: " + sentence), train.tails(30));
            assertGapLetter(broker, topics, input, sentence);
            assertEquals(1.0, OpsHttp.fromLog(train.log()).value("gda_dead_letters_total",
                    Map.of("reason", "deleted_unread")), train.tails(10));
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    @Test
    void shouldReportAGapAtThePartitionsEndOnceAcrossRestarts(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        List<LabelledRow> rows = Iris.rows();
        Map<String, String> config = restoreTestConfig(broker, topics, KafkaBroker.uniqueName("trailing-gap"),
                dir.resolve("state"));
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            // Everything sent while it was stopped is deleted: no record after the gap to move its offset on.
            restartAfterDeletion(train, broker, producer, topics, rows, DELETED);
            Await.until("the gap is reported", TIMEOUT, () -> train.log().contains("training: WARNING: offsets "
                    + READ + " to " + (READ + DELETED - 1)), () -> train.tails(20));
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());

            // Started again, it reads on past the gap: one more event, and still one letter.
            train.start();
            train.awaitRunning(TIMEOUT);
            send(producer, topics, rows, READ + DELETED, 1);
            ModelParameters last = modelOf(broker, topics, READ + 1, TIMEOUT);
            assertEquals(Map.of("0", (long) READ + DELETED + 1), last.sources());
            assertEquals(1, broker.readAll(topics.deadLetters(), TIMEOUT).size(), train.tails(20));
            assertTrue(!train.log().contains("WARNING: offsets"), train.tails(20));
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    @Test
    void shouldDeadLetterTrainingInputDeletedWhileTheTrainerLaggedAndTrainOnTheRest(KafkaBroker broker)
            throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        List<LabelledRow> rows = Iris.rows();
        Map<String, String> config = restoreTestConfig(broker, topics, KafkaBroker.uniqueName("lagging-input"),
                dir.resolve("state"));
        TopicPartition input = new TopicPartition(topics.labelled().name(), 0);
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            startAndTrain(train, broker, producer, topics, rows, READ, TIMEOUT);
            // Frozen (still a member of its group, its position at READ), it falls behind; the broker deletes the
            // first events it has not read. Thawed, its next fetch is refused as out of range.
            signal(train, "STOP");
            try {
                send(producer, topics, rows, READ, SENT_WHILE_STOPPED);
                deleteBefore(broker, input, READ + DELETED);
            } finally {
                signal(train, "CONT");
            }
            // A fetch in flight when it froze may still bring the first events sent: the gap starts where its
            // reading stopped, and every event is either in the model or in the gap.
            DeadLetter letter = broker.readUntil(topics.deadLetters(), records -> !records.isEmpty(), TIMEOUT)
                    .get(0).value();
            int from = (int) letter.offset();
            assertTrue(from >= READ && from < READ + DELETED, letter.toString());
            int gap = READ + DELETED - from;
            assertModelHoldsAllBut(broker, topics, rows, from);
            assertTrue(train.log().contains("training: WARNING: offsets " + from + " to " + (READ + DELETED - 1)
                    + " of " + input + " (" + gap + " offsets: records, and any transaction markers or aborted records"
                    + " among them) were deleted by the broker"), train.tails(30));
            assertTrue(letter.reason().startsWith("deleted before it was read: offsets " + from + " to "
                    + (READ + DELETED - 1) + " of " + input), letter.reason());
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    @Test
    void shouldDeadLetterScoringInputDeletedWhileTheScorerWasStoppedAndScoreTheRest(KafkaBroker broker)
            throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        List<LabelledRow> rows = Iris.rows();
        Map<String, String> config = restoreTestConfig(broker, topics, KafkaBroker.uniqueName("deleted-scoring"),
                dir.resolve("state"));
        Map<String, String> scoreConfig = new LinkedHashMap<>(config);
        scoreConfig.put("state.dir", dir.resolve("score-state").toString());
        TopicPartition input = new TopicPartition(topics.unlabelled().name(), 0);
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             ProductProcess score = new ProductProcess(Command.SCORE, scoreConfig, dir, "score");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            startAndTrain(train, broker, producer, topics, rows, rows.size(), TIMEOUT);
            score.start();
            score.awaitRunning(TIMEOUT);
            sendUnlabelled(producer, topics, rows, 0, READ);
            awaitPredictionKeys(broker, topics, READ);
            assertEquals(ProductProcess.SIGTERM_EXIT, score.sigterm().status(), score.log());

            sendUnlabelled(producer, topics, rows, READ, SENT_WHILE_STOPPED);
            deleteBefore(broker, input, READ + DELETED);

            score.start();
            score.awaitRunning(TIMEOUT);
            List<String> keys = awaitPredictionKeys(broker, topics, READ + SENT_WHILE_STOPPED - DELETED);
            List<String> expected = IntStream.range(0, READ + SENT_WHILE_STOPPED)
                    .filter(i -> i < READ || i >= READ + DELETED).mapToObj(i -> "u-" + i).toList();
            assertEquals(expected, keys);

            String sentence = "offsets " + READ + " to " + (READ + DELETED - 1) + " of " + input + " (" + DELETED
                    + " offsets: records, and any transaction markers or aborted records among them) were deleted by"
                    + " the broker (retention, or a deletion of records) before the scoring application read them; at"
                    + " most " + DELETED + " events are not in the predictions.";
            assertTrue(score.log().contains("scoring: WARNING: " + sentence), score.tails(30));
            assertGapLetter(broker, topics, input, sentence);
            assertEquals(ProductProcess.SIGTERM_EXIT, score.sigterm().status(), score.log());
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    /**
     * The model of exactly rows 0 … {@code firstDeleted} − 1 and READ + DELETED … READ + SENT_WHILE_STOPPED − 1 (the
     * rows between deleted unread), with its lineage past them all.
     */
    private static void assertModelHoldsAllBut(KafkaBroker broker, Topics topics, List<LabelledRow> rows,
                                               int firstDeleted) {
        ModelParameters last = modelOf(broker, topics, firstDeleted + SENT_WHILE_STOPPED - DELETED, TIMEOUT);
        List<LabelledRow> kept = new ArrayList<>(rows.subList(0, firstDeleted));
        kept.addAll(rows.subList(READ + DELETED, READ + SENT_WHILE_STOPPED));
        assertEquals(counts(Iris.model(RESTORE_MODEL, last.version(), kept, last.features())), counts(last));
        assertEquals(Map.of("0", (long) READ + SENT_WHILE_STOPPED), last.sources());
    }

    private static String trainingSentence(TopicPartition input) {
        return "offsets " + READ + " to " + (READ + DELETED - 1) + " of " + input + " (" + DELETED + " offsets:"
                + " records, and any transaction markers or aborted records among them) were deleted by the broker"
                + " (retention, or a deletion of records) before the training application read them; at most " + DELETED
                + " events are not in the model.";
    }

    /** Sends {@code SIGSTOP} or {@code SIGCONT} to {@code process}. */
    private static void signal(ProductProcess process, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal);
    }

    /**
     * Trains {@code train} on rows 0 … READ − 1, stops it, sends the next {@code sent} rows, deletes the first
     * DELETED of those (as retention would) and starts it again.
     */
    private static void restartAfterDeletion(ProductProcess train, KafkaBroker broker,
                                             KafkaProducer<byte[], byte[]> producer, Topics topics,
                                             List<LabelledRow> rows, int sent) throws Exception {
        startAndTrain(train, broker, producer, topics, rows, READ, TIMEOUT);
        assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        send(producer, topics, rows, READ, sent);
        deleteBefore(broker, new TopicPartition(topics.labelled().name(), 0), READ + DELETED);
        train.start();
        train.awaitRunning(TIMEOUT);
    }

    /** Deletes the records of {@code partition} below {@code offset}, as retention would. */
    private static void deleteBefore(KafkaBroker broker, TopicPartition partition, long offset) throws Exception {
        broker.admin().deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(offset))).all()
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The one dead letter on the topic: the gap's first offset, its sentence, no key or value kept. */
    private static void assertGapLetter(KafkaBroker broker, Topics topics, TopicPartition input, String sentence) {
        List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readUntil(topics.deadLetters(),
                records -> !records.isEmpty(), TIMEOUT);
        assertEquals(1, letters.size(), letters.toString());
        DeadLetter letter = letters.get(0).value();
        assertEquals(input.topic(), letter.topic());
        assertEquals(0, letter.partition());
        assertEquals(READ, letter.offset());
        assertTrue(letter.reason().startsWith("deleted before it was read: " + sentence.substring(0,
                sentence.length() - 1)), letter.reason());
        assertNull(letter.keyBase64());
        assertNull(letter.valueBase64());
        assertEquals(input + "@" + READ, new String(letters.get(0).key(), StandardCharsets.UTF_8));
    }

    private static void sendUnlabelled(KafkaProducer<byte[], byte[]> producer, Topics topics, List<LabelledRow> rows,
                                       int first, int count) throws Exception {
        for (int i = first; i < first + count; i++) {
            producer.send(new ProducerRecord<>(topics.unlabelled().name(), ("u-" + i).getBytes(StandardCharsets.UTF_8),
                    HostileRecords.validEvent(rows.get(i).x(), "?"))).get();
        }
    }

    /** The keys of the first {@code count} predictions, in order, once there are that many (and no more). */
    private static List<String> awaitPredictionKeys(KafkaBroker broker, Topics topics, int count) {
        List<ConsumerRecord<byte[], Prediction>> predictions = broker.readUntil(topics.predictions(),
                records -> records.size() >= count, TIMEOUT);
        assertEquals(count, predictions.size());
        predictions.forEach(p -> assertEquals(Prediction.Status.SCORED, p.value().status(), p.value().toString()));
        return predictions.stream().map(p -> new String(p.key(), StandardCharsets.UTF_8)).toList();
    }
}
