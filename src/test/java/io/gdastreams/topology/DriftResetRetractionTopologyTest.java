package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.MetricsRecord.DriftAlarm;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ResetGeneration;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retractions across a drift reset ({@code gda.drift.action=reset}; docs/TRAINING.md, "Reset on drift"): the reset
 * drops the statistics of the old regime, so a retraction of an event from before it must not take an observation
 * out of the new statistics, which never held it. The stream is {@link DriftResetTopologyTest}'s (two classes that
 * swap their distributions at event 1,500, seed 23; one partition, so event i is at input offset i). The reference
 * is the two-pass batch MLE of the post-reset adds, computed here from the rows sent
 * ({@link TrainingFixtures#twoPassMle}), not by the product's code.
 */
class DriftResetRetractionTopologyTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final String APP_ID = "drift-reset-retraction-test";
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final List<String> FEATURES = List.of("x0", "x1");
    private static final int EVENTS_PER_PUBLISH = 20;
    private static final long SEED = 23;
    private static final int SWAP_AT = 1_500;
    private static final int TOTAL = 3_000;
    /** An event long before the swap: the reset drops it. */
    private static final int OLD_EVENT = 10;
    /** How far after the alarm the retracted post-reset event is. */
    private static final int AFTER_ALARM = 100;
    /**
     * Agreement of the streamed statistics after one exact downdate with the batch fit without that observation,
     * relative to the scale of each quantity: the downdate multiplies rounding by about W/W' (≈ 1 here), so this is
     * {@link TrainingFixtures#RELATIVE_TOLERANCE} with room for the few roundings of one retraction.
     */
    private static final double DOWNDATE_TOLERANCE = 1e-11;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestOutputTopic<String, ModelParameters> models;
    private TestOutputTopic<String, MetricsRecord> metrics;
    private TestOutputTopic<byte[], DeadLetter> letters;
    private final List<LabelledRow> rows = new ArrayList<>();
    private final Random random = new Random(SEED);

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(boolean driftReset) {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL);
        if (driftReset) {
            settings = settings.withPrequential(PrequentialSettings.defaults(Duration.ofHours(1)).withDriftReset(true));
        }
        driver = TrainingFixtures.trainingDriver(settings, stateDir, APP_ID,
                TrainingFixtures.DRIVER_START, StreamsConfig.EXACTLY_ONCE_V2);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        models = DriverTopics.output(driver, TOPICS.model());
        metrics = DriverTopics.output(driver, TOPICS.metrics());
        letters = DriverTopics.output(driver, TOPICS.deadLetters());
    }

    /** Sends the next {@code count} events of the stream (event i at offset i, time i s), publishing every 20. */
    private void sendSwappingStream(int count) {
        for (int n = 0; n < count; n++) {
            int i = rows.size();
            boolean b = random.nextBoolean();
            // a ~ N((0, 0), I), b ~ N((2, 0), I); from SWAP_AT on the two distributions swap.
            double shift = (b ^ i >= SWAP_AT) ? 2 : 0;
            double[] x = {random.nextGaussian() + shift, random.nextGaussian()};
            String label = b ? "b" : "a";
            rows.add(new LabelledRow(x, label));
            labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8),
                    TrainingFixtures.labelledJson(FEATURES, x, label), Instant.ofEpochMilli(1_000L * i));
            if (i % EVENTS_PER_PUBLISH == EVENTS_PER_PUBLISH - 1) {
                driver.advanceWallClockTime(INTERVAL);
            }
        }
    }

    /** The event the single drift alarm fired at (the first of generation 1, at its own offset). */
    private int alarmEvent() {
        List<DriftAlarm> drifts = DriverTopics.driftAlarms(metrics);
        assertEquals(1, drifts.size(), "one alarm: " + drifts);
        assertEquals(1, drifts.get(0).resetGeneration());
        int firedAt = (int) (drifts.get(0).eventTime() / 1_000);
        assertTrue(firedAt >= SWAP_AT && firedAt < TOTAL - AFTER_ALARM, "fired at event " + firedAt);
        return firedAt;
    }

    /** A retraction of event {@code i} (its features, label and timestamp), naming offset {@code offset} or none. */
    private void retract(int i, Long offset) {
        LabelledRow row = rows.get(i);
        String json = "{\"features\":{\"x0\":" + row.x()[0] + ",\"x1\":" + row.x()[1] + "},\"label\":\""
                + row.label() + "\",\"retract\":true" + (offset == null ? "" : ",\"retractsOffset\":" + offset) + "}";
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8),
                Instant.ofEpochMilli(1_000L * i));
    }

    private ModelParameters lastModel() {
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> published = models.readValuesToList();
        assertTrue(!published.isEmpty(), "a model was published");
        return published.get(published.size() - 1);
    }

    @Test
    void retractionsOfDroppedEventsOrWithoutTheirOffsetAreDeadLetteredAndLeaveThePostResetFitAlone() {
        start(true);
        sendSwappingStream(TOTAL);
        int firedAt = alarmEvent();
        letters.readValuesToList();

        retract(OLD_EVENT, (long) OLD_EVENT); // offset 3000: an event the reset dropped
        retract(OLD_EVENT, null); // offset 3001: which event, cannot be told
        retract(firedAt + AFTER_ALARM, (long) TOTAL + 2); // offset 3002: names itself
        retract(firedAt + AFTER_ALARM, (long) TOTAL + 5); // offset 3003: names a later offset

        List<DeadLetter> dead = letters.readValuesToList();
        assertEquals(List.of((long) TOTAL, TOTAL + 1L, TOTAL + 2L, TOTAL + 3L),
                dead.stream().map(DeadLetter::offset).toList(), "every refused retraction is dead-lettered");
        assertEquals("retraction: its event (offset " + OLD_EVENT + ") was dropped by the drift reset to generation 1,"
                + " which began at offset " + firedAt + " (partition 0)", dead.get(0).reason());
        assertEquals("retraction without retractsOffset after a drift reset (partition 0 is in generation 1, which"
                + " began at offset " + firedAt + "): whether its event was dropped cannot be told; give the"
                + " original's offset", dead.get(1).reason());
        assertEquals("retraction: retractsOffset " + (TOTAL + 2) + " is not before the retraction's own offset "
                + (TOTAL + 2) + " (a retraction can only take back an earlier event of its partition)",
                dead.get(2).reason());
        assertTrue(dead.get(3).reason().startsWith("retraction: retractsOffset " + (TOTAL + 5) + " is not before"),
                dead.get(3).reason());

        ModelParameters last = lastModel();
        assertEquals(1, last.resetGeneration());
        assertEquals(0, last.retracted(), "no retraction was applied");
        assertEquals(firedAt, last.resetDropped());
        assertEquals(TOTAL, last.eventsAbsorbed(), "the refused retractions are dead letters, not absorbed events");
        assertEquals(Long.valueOf(TOTAL + 4), last.sources().get("0"), "the lineage reaches past them");
        TrainingFixtures.assertModelEquals(TrainingFixtures.twoPassMle(FEATURES, rows.subList(firedAt, TOTAL)), last);
    }

    @Test
    void aRetractionOfAPostResetEventNamingItsOffsetIsApplied() {
        start(true);
        sendSwappingStream(TOTAL);
        int firedAt = alarmEvent();
        letters.readValuesToList();
        int retracted = firedAt + AFTER_ALARM;

        retract(retracted, (long) retracted);
        // The alarm's own event is the first of the new statistics: naming it is naming a held event.
        retract(firedAt, (long) firedAt);

        assertEquals(List.of(), letters.readValuesToList(), "both retractions are applied");
        ModelParameters last = lastModel();
        assertEquals(2, last.retracted());
        assertEquals(TOTAL + 2, last.eventsAbsorbed(), "a retraction is an applied event");
        List<LabelledRow> expected = new ArrayList<>(rows.subList(firedAt + 1, TOTAL));
        expected.remove(retracted - firedAt - 1);
        TrainingFixtures.assertModelEquals(TrainingFixtures.twoPassMle(FEATURES, expected), last, DOWNDATE_TOLERANCE);
    }

    @Test
    void withoutADriftResetARetractionIsAppliedWithOrWithoutItsOffset() {
        start(false);
        sendSwappingStream(200);
        retract(3, 3L); // offset 200
        retract(4, null); // offset 201
        retract(5, 202L); // offset 202: names itself, refused in every generation

        List<DeadLetter> dead = letters.readValuesToList();
        assertEquals(List.of(202L), dead.stream().map(DeadLetter::offset).toList());
        ModelParameters last = lastModel();
        assertEquals(0, last.resetGeneration());
        assertEquals(2, last.retracted());
        List<LabelledRow> expected = new ArrayList<>(rows);
        expected.remove(4);
        expected.remove(3);
        TrainingFixtures.assertModelEquals(TrainingFixtures.twoPassMle(FEATURES, expected), last, DOWNDATE_TOLERANCE);
    }

    /** Partition 1's events of generation 1 (hand values). */
    private static final List<LabelledRow> PARTITION_1_ROWS = List.of(new LabelledRow(new double[] {0, 0}, "a"),
            new LabelledRow(new double[] {1, 0}, "a"), new LabelledRow(new double[] {0, 1}, "a"),
            new LabelledRow(new double[] {2, 0}, "b"), new LabelledRow(new double[] {3, 0}, "b"),
            new LabelledRow(new double[] {2, 1}, "b"));

    /**
     * Partition 1's snapshot of generation 1 (its first 5 events dropped), holding {@link #PARTITION_1_ROWS}: the
     * combiner publishes a model of generation 1 from it, which partition 0 follows.
     */
    private static byte[] generationOneSnapshotOfPartition1() {
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        for (LabelledRow row : PARTITION_1_ROWS) {
            classes.computeIfAbsent(row.label(), l -> new RunningGaussian(FEATURES.size())).update(row.x());
        }
        PartialSnapshot snapshot = new PartialSnapshot("m", new PartitionProgress(1, 11, 11, 0, FEATURES), classes,
                new TreeMap<>(), new ResetGeneration(1, 5));
        return SerdeFactory.partialSnapshot().serializer().serialize(null, snapshot);
    }

    /** Pipes in the snapshot of partition 1 in generation 1 and publishes: a model of generation 1 comes out. */
    private void publishGenerationOneOfPartition1() {
        DriverTopics.input(driver, TrainingTopology.partials(APP_ID))
                .pipeInput("m", generationOneSnapshotOfPartition1());
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);
        assertTrue(models.readValuesToList().stream().anyMatch(m -> m.resetGeneration() == 1),
                "a model of generation 1 was published");
    }

    @Test
    void aPartitionThatFollowsAResetFromTheModelTopicBeginsItsGenerationAtTheRecordItFollowsAt() {
        start(true);
        int before = 60;
        sendSwappingStream(before);
        publishGenerationOneOfPartition1();
        letters.readValuesToList();

        sendSwappingStream(3); // offsets 60 to 62: partition 0 takes up generation 1 at offset 60
        retract(10, 10L); // offset 63: dropped
        retract(before + 1, (long) before + 1); // offset 64: held, applied
        retract(30, null); // offset 65: no offset after a reset

        List<DeadLetter> dead = letters.readValuesToList();
        assertEquals(List.of(63L, 65L), dead.stream().map(DeadLetter::offset).toList());
        assertEquals("retraction: its event (offset 10) was dropped by the drift reset to generation 1, which began"
                + " at offset " + before + " (partition 0)", dead.get(0).reason());
        assertTrue(dead.get(1).reason().startsWith("retraction without retractsOffset after a drift reset"));
        assertEquals(List.of(), DriverTopics.driftAlarms(metrics), "partition 0's own test never fired");

        ModelParameters last = lastModel();
        assertEquals(1, last.resetGeneration());
        assertEquals(1, last.retracted());
        List<LabelledRow> expected = new ArrayList<>(PARTITION_1_ROWS);
        expected.add(rows.get(before));
        expected.add(rows.get(before + 2));
        TrainingFixtures.assertModelEquals(TrainingFixtures.twoPassMle(FEATURES, expected), last, DOWNDATE_TOLERANCE);
    }

    @Test
    void aPartitionWhoseFirstEventFollowsAPublishedResetBeginsItsGenerationAtOffsetZero() {
        start(true);
        publishGenerationOneOfPartition1();

        // Partition 0 has read nothing yet: it takes up generation 1 at its first record, offset 0, dropping nothing.
        sendSwappingStream(3); // offsets 0 to 2
        retract(0, 0L); // offset 3: the first event of the generation is held, applied
        retract(1, null); // offset 4: no offset after a reset

        List<DeadLetter> dead = letters.readValuesToList();
        assertEquals(List.of(4L), dead.stream().map(DeadLetter::offset).toList());
        assertEquals("retraction without retractsOffset after a drift reset (partition 0 is in generation 1, which"
                + " began at offset 0): whether its event was dropped cannot be told; give the original's offset",
                dead.get(0).reason());
        ModelParameters last = lastModel();
        assertEquals(1, last.resetGeneration());
        assertEquals(1, last.retracted());
        assertEquals(5, last.resetDropped(), "partition 1's 5 dropped events, none of partition 0");
        assertEquals(Long.valueOf(5), last.sources().get("0"));
        List<LabelledRow> expected = new ArrayList<>(PARTITION_1_ROWS);
        expected.add(rows.get(1));
        expected.add(rows.get(2));
        TrainingFixtures.assertModelEquals(TrainingFixtures.twoPassMle(FEATURES, expected), last, DOWNDATE_TOLERANCE);
    }
}
