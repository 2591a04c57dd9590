package io.gdastreams.topology;

import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the trainer does with what is already on the model topic: versions continue above it, a state behind the
 * lineage this application published stops training, and a lost or damaged model record is re-sent byte for byte.
 */
class TrainingIntegrityTest {

    private static final String APP_ID = "integrity-test";
    private static final String MODEL_ID = "iris";
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Topics TOPICS = Topics.defaults();

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestInputTopic<String, byte[]> modelIn;
    private TestOutputTopic<String, byte[]> models;
    private TestOutputTopic<byte[], DeadLetter> deadLetters;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start() {
        driver = TrainingFixtures.trainingDriver(TrainingSettings.defaults(TOPICS).withModelId(MODEL_ID)
                .withPublishInterval(INTERVAL), stateDir, APP_ID, START, StreamsConfig.EXACTLY_ONCE_V2);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        modelIn = DriverTopics.input(driver, TOPICS.modelRecords());
        models = DriverTopics.output(driver, TOPICS.modelRecords());
        deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
    }

    private void pipeIris(int from, int to) {
        List<LabelledRow> rows = Iris.rows();
        for (int i = from; i < to; i++) {
            labelled.pipeInput(("row-" + i).getBytes(StandardCharsets.UTF_8),
                    labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
    }

    private static byte[] encode(ModelParameters model) {
        return TOPICS.model().valueBytes(model);
    }

    private static ModelParameters decode(byte[] bytes) {
        return TOPICS.model().value(bytes);
    }

    /** A model on the topic as some earlier trainer left it: version, lineage, count, and the trainer's id. */
    private static ModelParameters earlier(long version, Map<String, Long> sources, long total, String trainer) {
        return new ModelParameters(MODEL_ID, version, Iris.FEATURES, total, List.of(), sources, "2025-12-31T00:00:00Z",
                trainer);
    }

    @Test
    void shouldContinueAboveTheHighestVersionOnTheModelTopic() {
        start();
        // Left by an application reset or another application id: (model id, version 41) is taken.
        modelIn.pipeInput(MODEL_ID, encode(earlier(41, Map.of("0", 999L), 999, "another-application")));

        pipeIris(0, 150);
        driver.advanceWallClockTime(INTERVAL);

        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        assertEquals(42, published.get(0).version(), "the first version above the one on the topic");
        assertEquals(150, published.get(published.size() - 1).totalCount());
        assertEquals(APP_ID, published.get(0).trainer());
    }

    @Test
    void shouldPublishNothingAboveARecordOfTheLastVersionAndSayWhyUntilTheRecordIsGone() {
        start();
        // No trainer gets there: a record written by hand or forged. Before, the next version wrapped to Long.MIN_VALUE.
        modelIn.pipeInput(MODEL_ID, encode(earlier(Long.MAX_VALUE, Map.of(), 0, "someone")));
        pipeIris(0, 150);
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);
        assertTrue(models.isEmpty(), "no model above version Long.MAX_VALUE");

        // Deleted (a tombstone): the trainer publishes from where its own numbering stands.
        modelIn.pipeInput(MODEL_ID, (byte[]) null);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        assertEquals(1, published.get(0).version());
        assertEquals(150, published.get(0).totalCount());
    }

    @Test
    void shouldStopWhenItsStateIsBehindTheLineageThisApplicationPublished() {
        start();
        // This application published that partition 0 was absorbed up to offset 100, yet its state is empty:
        // the state was lost (the failure this guards against: stores that came back empty after an outage).
        modelIn.pipeInput(MODEL_ID, encode(earlier(26, Map.of("0", 100L), 100, APP_ID)));

        StreamsException e = assertThrows(StreamsException.class, () -> pipeIris(0, 1));

        TrainingStateException cause = assertInstanceOf(TrainingStateException.class, rootOf(e));
        assertTrue(cause.getMessage().contains("partition 0 reaches offset 0 but version 26 of model 'iris', published"
                + " by this application, absorbed it up to offset 100"), cause.getMessage());
        assertTrue(models.isEmpty(), "nothing published");
    }

    /**
     * A partition without a schema takes the one of the model this application published: a mistyped first event
     * (sepal_wdith) is dead-lettered instead of fixing a schema that would refuse every later event of the partition
     * and leave it out of the model (whose other partitions have the model's schema).
     */
    @Test
    void shouldGiveAPartitionWithoutSchemaTheSchemaOfTheModelThisApplicationPublished() {
        start();
        modelIn.pipeInput(MODEL_ID, encode(earlier(5, Map.of(), 0, APP_ID)));
        List<String> typo = List.of("sepal_length", "sepal_wdith", "petal_length", "petal_width");
        labelled.pipeInput("typo".getBytes(StandardCharsets.UTF_8), labelledJson(typo, Iris.rows().get(0).x(),
                "setosa"));
        pipeIris(0, 150);
        driver.advanceWallClockTime(INTERVAL);

        List<DeadLetter> letters = deadLetters.readValuesToList();
        assertEquals(1, letters.size());
        assertEquals("feature set differs from the schema " + Iris.FEATURES + ": missing [sepal_width], unexpected"
                + " [sepal_wdith]", letters.get(0).reason());
        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode)
                .toList();
        ModelParameters last = published.get(published.size() - 1);
        assertEquals(Iris.FEATURES, last.features());
        assertEquals(150, last.totalCount());
    }

    /**
     * A model handed over by reset (empty trainer) or another application's is not this trainer's: a partition's
     * first valid event fixes its schema, so that events with another feature set can be trained after a reset.
     */
    @ParameterizedTest(name = "trainer \"{0}\"")
    @ValueSource(strings = {"", "another-application"})
    void shouldLetTheFirstEventFixTheSchemaWhenTheModelOnTheTopicIsNotThisApplications(String trainer) {
        start();
        modelIn.pipeInput(MODEL_ID, encode(earlier(5, Map.of(), 0, trainer)));
        List<String> renamed = List.of("a", "b", "c", "d");
        for (int i = 0; i < 150; i++) {
            labelled.pipeInput(("row-" + i).getBytes(StandardCharsets.UTF_8), labelledJson(renamed,
                    Iris.rows().get(i).x(), Iris.rows().get(i).label()));
        }
        driver.advanceWallClockTime(INTERVAL);

        assertTrue(deadLetters.isEmpty());
        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode)
                .toList();
        assertEquals(renamed, published.get(published.size() - 1).features());
        assertEquals(150, published.get(published.size() - 1).totalCount());
    }

    @Test
    void shouldNotCompareItsStateWithTheLineageOfAnotherApplication() {
        start();
        modelIn.pipeInput(MODEL_ID, encode(earlier(26, Map.of("0", 100L), 100, "another-application")));

        pipeIris(0, 150);
        driver.advanceWallClockTime(INTERVAL);

        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        assertEquals(150, published.get(published.size() - 1).totalCount());
        assertTrue(published.get(0).version() > 26);
    }

    @Test
    void shouldPublishItsModelAgainAsANewVersionWhenTheTopicHoldsGarbageOrATombstone() {
        start();
        pipeIris(0, 150);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        ModelParameters last = published.get(published.size() - 1);

        for (byte[] damage : new byte[][] {"{\"modelId\":\"iris\",\"version\":\"3\"}".getBytes(StandardCharsets.UTF_8),
                                           null}) {
            modelIn.pipeInput(MODEL_ID, damage);
            driver.advanceWallClockTime(INTERVAL);

            List<ModelParameters> again = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
            assertEquals(1, again.size(), "one new version per publish interval");
            assertEquals(last.version() + 1, again.get(0).version(), "a version above the last valid one");
            assertEquals(last.sources(), again.get(0).sources());
            assertEquals(last.classes().size(), again.get(0).classes().size());
            for (int k = 0; k < last.classes().size(); k++) {
                assertArrayEquals(last.classes().get(k).mean(), again.get(0).classes().get(k).mean(), 0.0,
                        "the same statistics");
            }
            driver.advanceWallClockTime(INTERVAL.multipliedBy(3));
            assertTrue(models.isEmpty(), "the topic holds the model again: nothing more to send");
            last = again.get(0);
        }
    }

    @Test
    void shouldPublishANewVersionAboveARecordOfItsOwnVersionWithOtherContent() {
        start();
        pipeIris(0, 150);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        ModelParameters last = published.get(published.size() - 1);

        // Someone wrote other content under this trainer's own (model id, version).
        modelIn.pipeInput(MODEL_ID, encode(new ModelParameters(MODEL_ID, last.version(), last.features(),
                last.totalCount() + 1, last.classes(), last.sources(), last.updatedAt(), APP_ID)));
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);

        List<ModelParameters> after = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        assertEquals(1, after.size(), after.toString());
        assertEquals(last.version() + 1, after.get(0).version(), "a new identity, never the same version again");
        assertEquals(150, after.get(0).totalCount());
    }

    /**
     * A lower version written after the trainer's last model (an old record replayed, with its signature if signed):
     * compaction would leave only it, and a scorer that starts would go back to it. The trainer publishes its model
     * again above its last version once it has seen its own record read back.
     */
    @Test
    void shouldPublishANewVersionWhenALowerOneIsWrittenAfterItsLastModel() {
        start();
        pipeIris(0, 75);
        driver.advanceWallClockTime(INTERVAL);
        pipeIris(75, 150);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> published = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        ModelParameters first = published.get(0);
        ModelParameters last = published.get(published.size() - 1);
        assertTrue(first.version() < last.version(), published.toString());
        driver.advanceWallClockTime(INTERVAL);
        assertTrue(models.isEmpty(), "its last model is the topic's newest record: nothing to send");

        modelIn.pipeInput(MODEL_ID, encode(first));
        driver.advanceWallClockTime(INTERVAL);

        List<ModelParameters> again = models.readValuesToList().stream().map(TrainingIntegrityTest::decode).toList();
        assertEquals(1, again.size(), again.toString());
        assertEquals(last.version() + 1, again.get(0).version(), "above the last version, not the replayed one");
        assertEquals(last.sources(), again.get(0).sources());
        assertEquals(150, again.get(0).totalCount());
        driver.advanceWallClockTime(INTERVAL.multipliedBy(3));
        assertTrue(models.isEmpty(), "the topic holds its model again");
    }

    private static Throwable rootOf(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && !(t instanceof TrainingStateException)) {
            t = t.getCause();
        }
        return t;
    }
}
