package io.gdastreams.topology;

import static io.gdastreams.topology.TrainingFixtures.assertModelEquals;
import static io.gdastreams.topology.TrainingFixtures.goldenIrisMle;
import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static io.gdastreams.topology.TrainingFixtures.twoPassMle;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The training topology end to end in a TopologyTestDriver (one partition per topic). */
class TrainingTopologyTest {

    private static final String APP_ID = "training-test";
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Topics TOPICS = Topics.defaults();
    /** Hand-computed means and covariances of a few small integers. */
    private static final double HAND_TOLERANCE = 1e-12;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestInputTopic<String, byte[]> partialsIn;
    private TestOutputTopic<String, byte[]> partialsOut;
    private TestOutputTopic<String, ModelParameters> models;
    private TestOutputTopic<byte[], DeadLetter> deadLetters;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(TrainingSettings settings) {
        start(settings, StreamsConfig.EXACTLY_ONCE_V2);
    }

    /**
     * For tests that pipe partial snapshots straight into the combiner: the published lineage then does not come
     * from the partition tasks' state, which the exactly-once lineage check (PartialStatsProcessor) would rightly
     * call lost; that check has tests of its own.
     */
    private void startWithInjectedPartials(TrainingSettings settings) {
        start(settings, StreamsConfig.AT_LEAST_ONCE);
    }

    private void start(TrainingSettings settings, String guarantee) {
        driver = TrainingFixtures.trainingDriver(settings, stateDir, APP_ID, START, guarantee);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        partialsIn = DriverTopics.input(driver, TrainingTopology.partials(APP_ID));
        partialsOut = DriverTopics.output(driver, TrainingTopology.partials(APP_ID));
        models = DriverTopics.output(driver, TOPICS.model());
        deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
    }

    private static TrainingSettings settings() {
        return TrainingSettings.defaults(TOPICS).withModelId("iris").withPublishInterval(INTERVAL);
    }

    private void pipeIris(List<String> names) {
        int i = 0;
        for (LabelledRow row : Iris.rows()) {
            labelled.pipeInput(("row-" + i++).getBytes(StandardCharsets.UTF_8), labelledJson(names, row.x(), row.label()));
        }
    }

    private void publish() {
        driver.advanceWallClockTime(INTERVAL);
    }

    private ModelParameters lastModel() {
        List<ModelParameters> all = models.readValuesToList();
        assertTrue(!all.isEmpty(), "a model was published");
        return all.get(all.size() - 1);
    }

    private static PartialSnapshot decode(byte[] bytes) {
        return SerdeFactory.partialSnapshot().deserializer().deserialize(null, bytes);
    }

    @Test
    void shouldPublishBatchMleOfIrisWithConfiguredFeatures() {
        start(settings().withFeatures(Iris.FEATURES));
        pipeIris(Iris.FEATURES);
        publish();

        ModelParameters model = lastModel();
        assertEquals("iris", model.modelId());
        assertEquals(Iris.FEATURES, model.features());
        assertEquals(1, model.version());
        assertEquals(Map.of("0", 150L), model.sources());
        assertEquals(START.plus(INTERVAL).toString(), model.updatedAt());
        assertModelEquals(goldenIrisMle(), model);
        assertModelEquals(twoPassMle(Iris.FEATURES, Iris.rows()), model);
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void shouldFixSchemaFromFirstEventAsSortedFeatureNames() {
        start(settings());
        pipeIris(Iris.FEATURES);
        publish();

        ModelParameters model = lastModel();
        assertEquals(List.of("petal_length", "petal_width", "sepal_length", "sepal_width"), model.features());
        assertModelEquals(goldenIrisMle(), model);
    }

    @Test
    void shouldDeadLetterBadEventsWithReasonAndSourceAndAccountForEveryRecord() {
        start(settings());
        List<byte[]> values = List.of(
                labelledJson(List.of("a", "b"), new double[] {1, 2}, "x"),          // 0 fixes schema [a, b]
                "{\"features\": {\"a\": 1, \"b\":".getBytes(StandardCharsets.UTF_8),  // 1 unparseable
                "{\"features\": {\"a\": 1, \"b\": 2}}".getBytes(StandardCharsets.UTF_8), // 2 no label
                "{\"features\": {\"a\": \"one\", \"b\": 2}, \"label\": \"x\"}".getBytes(StandardCharsets.UTF_8),
                "{\"features\": {\"a\": 1e999, \"b\": 2}, \"label\": \"x\"}".getBytes(StandardCharsets.UTF_8),
                labelledJson(List.of("a", "c"), new double[] {1, 2}, "x"),          // 5 other feature set
                labelledJson(List.of("a", "b", "c"), new double[] {1, 2, 3}, "x"),  // 6 extra feature
                labelledJson(List.of("b", "a"), new double[] {5, 4}, "y"));         // 7 valid, other order
        for (int i = 0; i < values.size(); i++) {
            labelled.pipeInput(("k" + i).getBytes(StandardCharsets.UTF_8), values.get(i));
        }
        publish();

        List<TestRecord<byte[], DeadLetter>> letters = deadLetters.readRecordsToList();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), letters.stream().map(r -> r.value().offset()).toList());
        List<String> expectedReasons = List.of("malformed JSON", "missing label", "not a number", "not finite",
                "feature set differs", "feature set differs");
        for (int i = 0; i < letters.size(); i++) {
            DeadLetter letter = letters.get(i).value();
            int offset = (int) letter.offset();
            assertTrue(letter.reason().contains(expectedReasons.get(i)), letter.reason());
            assertEquals(TOPICS.labelled().name(), letter.topic());
            assertEquals(0, letter.partition());
            assertArrayEquals(values.get(offset), Base64.getDecoder().decode(letter.valueBase64()));
            assertArrayEquals(("k" + offset).getBytes(StandardCharsets.UTF_8),
                    Base64.getDecoder().decode(letter.keyBase64()));
            assertArrayEquals(("k" + offset).getBytes(StandardCharsets.UTF_8), letters.get(i).key());
        }

        PartitionProgress progress = decode(partialsOut.readValuesToList().get(0)).progress();
        assertEquals(2, progress.applied());
        assertEquals(6, progress.deadLettered());
        assertEquals(values.size(), progress.recordsRead());
        assertEquals(values.size(), progress.nextOffset());
        ModelParameters model = lastModel();
        assertEquals(List.of("a", "b"), model.features());
        assertEquals(2, model.totalCount());
        assertArrayEquals(new double[] {4, 5}, model.classes().get(1).mean());
        assertEquals(Map.of("0", (long) values.size()), model.sources());
    }

    /**
     * With the schema taken from the data, a first event of 10,000 features used to fix a 10,000-feature schema
     * (400 MB of state per class) and every later, normal event was dead-lettered as a schema mismatch.
     */
    @Test
    void shouldDeadLetterAFirstEventOverTheFeatureBoundAndFixTheSchemaFromTheNextGoodOne() {
        start(settings());
        int limit = TrainingSettings.DEFAULT_MAX_FEATURES;
        List<String> tooMany = new ArrayList<>();
        double[] ones = new double[limit + 1];
        for (int i = 0; i <= limit; i++) {
            tooMany.add(String.format("f%04d", i));
            ones[i] = 1.0;
        }
        List<String> four = List.of("d", "c", "b", "a");
        List<byte[]> values = List.of(
                labelledJson(tooMany, ones, "x"),                                  // 0 over the bound
                labelledJson(four, new double[] {4, 3, 2, 1}, "x"),                 // 1 fixes the schema [a..d]
                labelledJson(four, new double[] {8, 7, 6, 5}, "x"),
                labelledJson(four, new double[] {1, 1, 1, 1}, "y"));
        for (int i = 0; i < values.size(); i++) {
            labelled.pipeInput(("k" + i).getBytes(StandardCharsets.UTF_8), values.get(i));
        }
        publish();

        List<DeadLetter> letters = deadLetters.readValuesToList();
        assertEquals(1, letters.size());
        assertEquals("too many features: 1025 > 1024 (gda.max.features)", letters.get(0).reason());
        assertEquals(0L, letters.get(0).offset());
        assertArrayEquals(values.get(0), Base64.getDecoder().decode(letters.get(0).valueBase64()));
        PartitionProgress progress = decode(partialsOut.readValuesToList().get(0)).progress();
        assertEquals(List.of("a", "b", "c", "d"), progress.features());
        assertEquals(3, progress.applied());
        assertEquals(1, progress.deadLettered());
        ModelParameters model = lastModel();
        assertEquals(List.of("a", "b", "c", "d"), model.features());
        assertEquals(3, model.totalCount());
        assertEquals("x", model.classes().get(0).label());
        assertEquals(2, model.classes().get(0).count());
        assertArrayEquals(new double[] {3, 4, 5, 6}, model.classes().get(0).mean(), HAND_TOLERANCE);
        assertEquals(4.0, model.classes().get(0).covariance()[0][3], HAND_TOLERANCE); // (±2)(±2), MLE
        // Event 0 saved the schema [] and event 1 changed it: what the task reloads from its store must be [a..d].
        PartitionState reloaded = PartitionStates.load(driver.getKeyValueStore(TrainingTopology.CLASS_STATS_STORE), 0,
                List.of());
        assertEquals(List.of("a", "b", "c", "d"), reloaded.progress().features());
        assertEquals(2, reloaded.classes().get("x").count());
        assertArrayEquals(new double[] {3, 4, 5, 6}, reloaded.classes().get("x").mean(), HAND_TOLERANCE);
    }

    @Test
    void shouldDeadLetterEventsOverAConfiguredFeatureBoundOfThree() {
        start(settings().withMaxFeatures(3));
        labelled.pipeInput("k0".getBytes(StandardCharsets.UTF_8),
                labelledJson(List.of("a", "b", "c", "d"), new double[] {1, 2, 3, 4}, "x"));
        labelled.pipeInput("k1".getBytes(StandardCharsets.UTF_8),
                labelledJson(List.of("a", "b", "c"), new double[] {1, 2, 3}, "x"));
        publish();

        List<DeadLetter> letters = deadLetters.readValuesToList();
        assertEquals(List.of("too many features: 4 > 3 (gda.max.features)"),
                letters.stream().map(DeadLetter::reason).toList());
        ModelParameters model = lastModel();
        assertEquals(List.of("a", "b", "c"), model.features());
        assertEquals(1, model.totalCount());
    }

    @Test
    void shouldNotChangeModelWhenPartialSnapshotIsReplayed() {
        start(settings());
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 100; i++) {
            labelled.pipeInput(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
        publish();
        for (int i = 100; i < 150; i++) {
            labelled.pipeInput(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
        publish();
        List<byte[]> partials = partialsOut.readValuesToList();
        assertEquals(2, partials.size());
        ModelParameters before = lastModel();
        assertEquals(2, before.version());

        partialsIn.pipeInput("iris", partials.get(1)); // the newest again
        partialsIn.pipeInput("iris", partials.get(0)); // an older one
        publish(); // nothing changed upstream: the partition says so once, with the snapshot it sent last

        assertTrue(models.isEmpty(), "a replayed, re-sent or older snapshot publishes nothing");
        List<byte[]> resent = partialsOut.readValuesToList();
        assertEquals(1, resent.size(), "an unchanged partition re-sends its snapshot once");
        assertArrayEquals(partials.get(1), resent.get(0));
        publish();
        assertTrue(partialsOut.isEmpty(), "and then sends nothing while nothing changes");
        assertTrue(models.isEmpty());
        assertModelEquals(goldenIrisMle(), before);

        labelled.pipeInput(labelledJson(Iris.FEATURES, rows.get(0).x(), rows.get(0).label()));
        publish();
        ModelParameters after = lastModel();
        assertEquals(3, after.version(), "versions keep growing after ignored snapshots");
        assertEquals(151, after.totalCount());
    }

    @Test
    void shouldMergePartialsOfFourSourcePartitionsIntoTheBatchMle() {
        startWithInjectedPartials(settings());
        List<String> sorted = Iris.FEATURES.stream().sorted().toList();
        int[] order = sorted.stream().mapToInt(Iris.FEATURES::indexOf).toArray();
        List<LabelledRow> rows = Iris.rows();
        List<SortedMap<String, RunningGaussian>> stats = new ArrayList<>();
        long[] counts = new long[4];
        for (int p = 0; p < 4; p++) {
            stats.add(new TreeMap<>());
        }
        List<byte[]> halfway = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            int p = i % 4;
            double[] x = new double[4];
            for (int j = 0; j < 4; j++) {
                x[j] = rows.get(i).x()[order[j]];
            }
            stats.get(p).computeIfAbsent(rows.get(i).label(), l -> new RunningGaussian(4)).update(x);
            counts[p]++;
            if (i == 75) {
                for (int q = 0; q < 4; q++) {
                    halfway.add(encode(q, counts[q], stats.get(q), sorted));
                }
            }
        }
        // The four halfway snapshots (19 events each) within one interval: the first publishes at once (nothing
        // was published for an interval), the other three wait until an interval has passed, then publish together.
        halfway.forEach(bytes -> partialsIn.pipeInput("iris", bytes));
        ModelParameters early = models.readValue();
        assertEquals(1, early.version());
        assertEquals(Map.of("0", 1900L), early.sources());
        assertTrue(models.isEmpty(), "the other three snapshots wait for the interval");
        publish();
        ModelParameters halfwayModel = models.readValue();
        assertEquals(2, halfwayModel.version());
        assertEquals(Map.of("0", 1900L, "1", 1900L, "2", 1900L, "3", 1900L), halfwayModel.sources());
        assertEquals(76, halfwayModel.totalCount());

        // Final snapshots of all four, then the halfway ones again (late duplicates must not count), all within
        // one interval: exactly one new model, merged from the four final snapshots.
        for (int p = 0; p < 4; p++) {
            partialsIn.pipeInput("iris", encode(p, counts[p], stats.get(p), sorted));
        }
        halfway.forEach(bytes -> partialsIn.pipeInput("iris", bytes));
        assertTrue(models.isEmpty(), "less than an interval since the last publish");
        publish();
        List<ModelParameters> published = models.readValuesToList();
        assertEquals(1, published.size(), "one model per interval, not one per snapshot");
        ModelParameters model = published.get(0);
        assertEquals(3, model.version());
        assertEquals(Map.of("0", counts[0] * 100, "1", counts[1] * 100, "2", counts[2] * 100, "3", counts[3] * 100),
                model.sources());
        assertModelEquals(goldenIrisMle(), model);

        publish();
        assertTrue(models.isEmpty(), "nothing accepted since: nothing published");
    }

    @Test
    void shouldPublishTheFirstSnapshotAfterAQuietPeriodAtOnceAndLaterOnesOncePerInterval() {
        startWithInjectedPartials(settings());
        partialsIn.pipeInput("iris", handSnapshot(0, new double[][] {{1, 2}, {3, 6}}));
        ModelParameters first = models.readValue();
        assertEquals(1, first.version());
        assertEquals(START.toString(), first.updatedAt(), "published without waiting for the punctuator");

        driver.advanceWallClockTime(INTERVAL.dividedBy(2));
        partialsIn.pipeInput("iris", handSnapshot(1, new double[][] {{5, 4}}));
        driver.advanceWallClockTime(INTERVAL.dividedBy(2).minusMillis(100));
        assertTrue(models.isEmpty(), "less than an interval after the last publish");
        driver.advanceWallClockTime(Duration.ofMillis(100));
        ModelParameters second = models.readValue();
        assertEquals(2, second.version());
        assertEquals(START.plus(INTERVAL).toString(), second.updatedAt(), "published once the interval passed");
        assertEquals(Map.of("0", 2L, "1", 1L), second.sources());
        // (1,2), (3,6), (5,4): mean (3,4); deviations (-2,-2), (0,2), (2,0): S = [[8, 4], [4, 8]], MLE S/3.
        assertArrayEquals(new double[] {3, 4}, second.classes().get(0).mean(), HAND_TOLERANCE);
        assertArrayEquals(new double[] {8.0 / 3, 4.0 / 3}, second.classes().get(0).covariance()[0], HAND_TOLERANCE);
        assertArrayEquals(new double[] {4.0 / 3, 8.0 / 3}, second.classes().get(0).covariance()[1], HAND_TOLERANCE);

        driver.advanceWallClockTime(INTERVAL.multipliedBy(10));
        assertTrue(models.isEmpty(), "a quiet period publishes nothing");
        partialsIn.pipeInput("iris", handSnapshot(0, new double[][] {{1, 2}, {3, 6}, {3, 4}}));
        Duration check = SnapshotTicks.checkPeriod(INTERVAL);
        driver.advanceWallClockTime(check);
        ModelParameters third = models.readValue();
        assertEquals(3, third.version());
        assertEquals(START.plus(INTERVAL.multipliedBy(11)).plus(check).toString(), third.updatedAt(),
                "published at the next check (partition 1, kept, might still come in the same poll)");
        assertEquals(Map.of("0", 3L, "1", 1L), third.sources());
        // (1,2), (3,6), (3,4), (5,4): mean (3,4); deviations (-2,-2), (0,2), (0,0), (2,0): MLE S/4 = [[2, 1], [1, 2]].
        assertArrayEquals(new double[] {3, 4}, third.classes().get(0).mean(), HAND_TOLERANCE);
        assertArrayEquals(new double[] {2, 1}, third.classes().get(0).covariance()[0], HAND_TOLERANCE);
        assertArrayEquals(new double[] {1, 2}, third.classes().get(0).covariance()[1], HAND_TOLERANCE);
    }

    /** Partition {@code p}'s snapshot of class "x" over features [a, b]; next offset = number of points. */
    private static byte[] handSnapshot(int p, double[][] points) {
        RunningGaussian g = new RunningGaussian(2);
        for (double[] x : points) {
            g.update(x);
        }
        return SerdeFactory.partialSnapshot().serializer().serialize(null, new PartialSnapshot("iris",
                new PartitionProgress(p, points.length, points.length, 0, List.of("a", "b")),
                new TreeMap<>(Map.of("x", g))));
    }

    /** A partial as partition {@code p} would send it, with next offset 100·count (offsets need not be dense). */
    private static byte[] encode(int p, long count, SortedMap<String, RunningGaussian> classes, List<String> names) {
        SortedMap<String, RunningGaussian> copy = new TreeMap<>();
        classes.forEach((label, g) -> copy.put(label, g.copy()));
        return SerdeFactory.partialSnapshot().serializer().serialize(null, new PartialSnapshot("iris",
                new PartitionProgress(p, count * 100, count, 0, names), copy));
    }

    @Test
    void shouldRejectAndReportPartialWithConflictingSchema() {
        start(settings());
        pipeIris(Iris.FEATURES);
        publish();
        ModelParameters before = lastModel();

        RunningGaussian g = new RunningGaussian(2);
        g.update(new double[] {1, 2});
        byte[] conflicting = SerdeFactory.partialSnapshot().serializer().serialize(null, new PartialSnapshot("iris",
                new PartitionProgress(3, 1, 1, 0, List.of("height", "weight")), new TreeMap<>(Map.of("x", g))));
        partialsIn.pipeInput("iris", conflicting);

        assertTrue(models.isEmpty(), "the model is not republished");
        DeadLetter letter = deadLetters.readValue();
        assertTrue(letter.reason().contains("schema conflict"), letter.reason());
        assertTrue(letter.reason().contains("partition 3") && letter.reason().contains("[height, weight]"),
                letter.reason());
        assertEquals(TrainingTopology.partials(APP_ID).name(), letter.topic());
        assertArrayEquals(conflicting, Base64.getDecoder().decode(letter.valueBase64()));
        assertEquals(Map.of("0", 150L), before.sources());
    }

    @Test
    void shouldDeadLetterUnreadablePartialAndKeepRunning() {
        start(settings());
        partialsIn.pipeInput("iris", new byte[] {1, 2, 3});
        DeadLetter letter = deadLetters.readValue();
        assertTrue(letter.reason().startsWith("unreadable partial snapshot"), letter.reason());

        pipeIris(Iris.FEATURES);
        publish();
        assertModelEquals(goldenIrisMle(), lastModel());
    }

    @Test
    void shouldIncludeANewClassAsSoonAsItAppears() {
        start(settings().withFeatures(Iris.FEATURES));
        pipeIris(Iris.FEATURES);
        publish();
        models.readValuesToList();

        labelled.pipeInput(labelledJson(Iris.FEATURES, new double[] {1, 2, 3, 4}, "rare"));
        publish();
        ModelParameters model = lastModel();
        assertEquals(List.of("rare", "setosa", "versicolor", "virginica"),
                model.classes().stream().map(c -> c.label()).toList());
        assertEquals(1, model.classes().get(0).count());
        assertEquals(1.0 / 151, model.classes().get(0).prior());
        assertArrayEquals(new double[] {1, 2, 3, 4}, model.classes().get(0).mean());
        assertEquals(151, model.totalCount());
    }
}
