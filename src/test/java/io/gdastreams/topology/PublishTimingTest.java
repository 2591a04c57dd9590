package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.encode;
import static io.gdastreams.topology.CombinerFixtures.snapshot;
import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.SerdeFactory;
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
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model freshness on the mock clock: partitions snapshot on the shared ticks of the publish interval (not an
 * interval after their task started), and the combiner publishes a round of snapshots once all of it arrived
 * rather than on its first snapshot, waiting at most half an interval for a partition that went quiet.
 */
class PublishTimingTest {

    private static final String APP_ID = "publish-timing-test";
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    /** The combiner's check period at this interval (SnapshotTicks.checkPeriod): 10 ms. */
    private static final Duration CHECK = SnapshotTicks.checkPeriod(INTERVAL);
    private static final Topics TOPICS = Topics.defaults();
    private static final List<String> FEATURES = List.of("a", "b");
    private static final double HAND_TOLERANCE = 1e-12;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestOutputTopic<String, ModelParameters> models;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(Instant start, String guarantee) {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId(CombinerFixtures.MODEL_ID)
                .withPublishInterval(INTERVAL).withFeatures(FEATURES);
        driver = TrainingFixtures.trainingDriver(settings, stateDir, APP_ID, start, guarantee);
        models = DriverTopics.output(driver, TOPICS.model());
    }

    @Test
    void shouldSnapshotOnTheSharedTickOfTheIntervalNotAnIntervalAfterTheTaskStarted() {
        Instant start = Instant.parse("2026-01-01T00:00:00.300Z");
        start(start, StreamsConfig.EXACTLY_ONCE_V2);
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestOutputTopic<String, byte[]> partials = DriverTopics.output(driver, TrainingTopology.partials(APP_ID));
        double[][] points = {{1, 2}, {3, 6}, {5, 4}};
        for (int i = 0; i < points.length; i++) {
            labelled.pipeInput(("e" + i).getBytes(StandardCharsets.UTF_8), labelledJson(FEATURES, points[i], "x"));
        }
        driver.advanceWallClockTime(Duration.ofMillis(600));
        assertTrue(partials.isEmpty(), "no snapshot before the tick at 00:00:01");
        assertTrue(models.isEmpty());

        driver.advanceWallClockTime(Duration.ofMillis(100));
        TestRecord<String, byte[]> snapshot = partials.readRecord();
        assertEquals(Instant.parse("2026-01-01T00:00:01Z"), snapshot.getRecordTime(),
                "on the tick, 0.7 s after the start, not 1 s after it");
        PartialSnapshot decoded = SerdeFactory.partialSnapshot().deserializer().deserialize(null, snapshot.value());
        assertEquals(3, decoded.progress().nextOffset());
        ModelParameters model = models.readValue();
        assertEquals("2026-01-01T00:00:01Z", model.updatedAt());
        assertEquals(Map.of("0", 3L), model.sources());
        // (1,2), (3,6), (5,4): mean (3,4), S = [[8, 4], [4, 8]], MLE S/3 (hand-computed).
        assertArrayEquals(new double[] {3, 4}, model.classes().get(0).mean(), HAND_TOLERANCE);
        assertArrayEquals(new double[] {8.0 / 3, 4.0 / 3}, model.classes().get(0).covariance()[0], HAND_TOLERANCE);

        driver.advanceWallClockTime(INTERVAL);
        TestRecord<String, byte[]> again = partials.readRecord();
        assertArrayEquals(snapshot.value(), again.value(), "nothing new at this tick: the same snapshot, once more");
        assertEquals(Instant.parse("2026-01-01T00:00:02Z"), again.getRecordTime());
        assertTrue(models.isEmpty(), "a snapshot the combiner already keeps publishes nothing");
        driver.advanceWallClockTime(INTERVAL);
        assertTrue(partials.isEmpty(), "said once: nothing at the tick after");
        labelled.pipeInput("e3".getBytes(StandardCharsets.UTF_8), labelledJson(FEATURES, new double[] {7, 8}, "x"));
        driver.advanceWallClockTime(INTERVAL);
        assertEquals(4, SerdeFactory.partialSnapshot().deserializer()
                .deserialize(null, partials.readRecord().value()).progress().nextOffset(), "news again: a snapshot");
        assertEquals(Map.of("0", 4L), models.readValue().sources());
    }

    @Test
    void shouldPublishARoundAtOnceWhenItsMissingPartitionResendsTheSnapshotTheCombinerKeeps() {
        TestInputTopic<String, byte[]> partials = startWithRoundZero();
        assertEquals(Map.of("0", 1L, "1", 1L), models.readValue().sources());
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(2))));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(2))));
        driver.advanceWallClockTime(INTERVAL.dividedBy(2));
        assertEquals(Map.of("0", 2L, "1", 2L), models.readValue().sources(), "round of tick 00:00:01, both in");

        // Tick 00:00:02: partition 0 has news, partition 1 none and says so by re-sending what the combiner keeps.
        driver.advanceWallClockTime(INTERVAL.dividedBy(2));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(3))));
        assertTrue(models.isEmpty(), "partition 1 was in the previous round: wait for it");
        driver.advanceWallClockTime(Duration.ofMillis(20));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(2))));
        ModelParameters round = models.readValue();
        assertEquals("2026-01-01T00:00:02.020Z", round.updatedAt(), "on its word, not half an interval later");
        assertEquals(Map.of("0", 3L, "1", 2L), round.sources());
        assertEquals(5, round.totalCount(), "the re-sent snapshot counted once");

        // Tick 00:00:03: partition 1 had nothing new in the last round, so partition 0 is not held for it; the
        // round goes out at the next check, 10 ms on (partition 1 might still be in the same poll), not later.
        driver.advanceWallClockTime(INTERVAL.minusMillis(20));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(4))));
        assertTrue(models.isEmpty(), "not every kept partition has reported: judged at the next check");
        driver.advanceWallClockTime(CHECK);
        assertEquals("2026-01-01T00:00:03.010Z", models.readValue().updatedAt());
    }

    @Test
    void shouldLetTheNewsOfAPartitionQuietInThePreviousRoundJoinTheRoundWhenItComesInTheSamePoll() {
        TestInputTopic<String, byte[]> partials = startWithPartitionOneGoneQuiet();

        // Tick 00:00:03: 0's news completes the round (1 was quiet in the previous one), but 1's news comes in the
        // same poll: judged at the next check, not at 0's record, the round holds both, in one version.
        driver.advanceWallClockTime(INTERVAL);
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(3))));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(2))));
        driver.advanceWallClockTime(CHECK);
        List<ModelParameters> round = models.readValuesToList();
        assertEquals(1, round.size(), "one version for the round");
        assertEquals(Map.of("0", 3L, "1", 2L), round.get(0).sources());
        assertEquals("2026-01-01T00:00:03Z", round.get(0).updatedAt(), "at 1's record: every partition was in");

        // Tick 00:00:04: an older snapshot of 1 (a replay) is no quiet word: the round waits for 1 (half an interval).
        driver.advanceWallClockTime(INTERVAL.minus(CHECK));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(4))));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(1))));
        driver.advanceWallClockTime(INTERVAL.dividedBy(2).minus(CHECK));
        assertTrue(models.isEmpty(), "still waiting for partition 1 at 00:00:04.490");
        driver.advanceWallClockTime(CHECK);
        ModelParameters late = models.readValue();
        assertEquals("2026-01-01T00:00:04.500Z", late.updatedAt());
        assertEquals(Map.of("0", 4L, "1", 2L), late.sources());
    }

    @Test
    void shouldPublishTheNewsOfAPartitionThatMissedItsPublishedRoundHalfAnIntervalLaterNotAnIntervalLater() {
        TestInputTopic<String, byte[]> partials = startWithPartitionOneGoneQuiet();

        // Tick 00:00:03: 0's news completes the round (1 was quiet); 1's news comes 30 ms later, in another poll,
        // after the round went out at the next check.
        driver.advanceWallClockTime(INTERVAL);
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(3))));
        driver.advanceWallClockTime(CHECK);
        ModelParameters round = models.readValue();
        assertEquals("2026-01-01T00:00:03.010Z", round.updatedAt());
        assertEquals(Map.of("0", 3L, "1", 1L), round.sources());
        driver.advanceWallClockTime(Duration.ofMillis(20));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(2))));
        driver.advanceWallClockTime(INTERVAL.dividedBy(2).minus(Duration.ofMillis(30)));
        assertTrue(models.isEmpty(), "half an interval between two publishes, at 00:00:03.500");
        driver.advanceWallClockTime(CHECK);
        ModelParameters late = models.readValue();
        assertEquals("2026-01-01T00:00:03.510Z", late.updatedAt(), "half an interval after its round, not a whole one");
        assertEquals(Map.of("0", 3L, "1", 2L), late.sources());

        // Tick 00:00:04: a complete round, published 10 ms after its tick as the late one's round was.
        driver.advanceWallClockTime(INTERVAL.dividedBy(2).minus(CHECK));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(4))));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(3))));
        assertTrue(models.isEmpty(), "half an interval after the late one's publish is 00:00:04.010");
        driver.advanceWallClockTime(CHECK);
        ModelParameters next = models.readValue();
        assertEquals("2026-01-01T00:00:04.010Z", next.updatedAt());
        assertEquals(Map.of("0", 4L, "1", 3L), next.sources());
    }

    @Test
    void shouldPublishARoundOfSnapshotsWhenItsLastPartitionArrivesAndWaitAtMostHalfAnIntervalForAQuietOne() {
        TestInputTopic<String, byte[]> partials = startWithRoundZero();
        ModelParameters second = models.readValue();
        assertEquals(Map.of("0", 1L, "1", 1L), second.sources());
        assertEquals("2026-01-01T00:00:01Z", second.updatedAt());

        // Round 1 (tick 00:00:01): complete on arrival, but half an interval must separate two publishes.
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(2))));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(2))));
        assertTrue(models.isEmpty(), "just published");
        driver.advanceWallClockTime(INTERVAL.dividedBy(2));
        ModelParameters third = models.readValue();
        assertEquals(Map.of("0", 2L, "1", 2L), third.sources());
        assertEquals("2026-01-01T00:00:01.500Z", third.updatedAt());

        // Round 2 (tick 00:00:02): partition 1 was in the previous round, so partition 0's snapshot waits for it,
        // and the two go out together the moment partition 1's arrives, 30 ms later (not an interval later).
        driver.advanceWallClockTime(INTERVAL.dividedBy(2));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(3))));
        assertTrue(models.isEmpty(), "waiting for the rest of the round");
        driver.advanceWallClockTime(Duration.ofMillis(30));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(3))));
        ModelParameters fourth = models.readValue();
        assertEquals(Map.of("0", 3L, "1", 3L), fourth.sources(), "one model with the whole round");
        assertEquals("2026-01-01T00:00:02.030Z", fourth.updatedAt());
        assertTrue(models.isEmpty());

        // Round 3 (tick 00:00:03): partition 1 has gone quiet; partition 0's snapshot waits half an interval.
        driver.advanceWallClockTime(INTERVAL.minusMillis(30));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(4))));
        driver.advanceWallClockTime(INTERVAL.dividedBy(2).minusMillis(100));
        assertTrue(models.isEmpty(), "still waiting at 00:00:03.400");
        driver.advanceWallClockTime(Duration.ofMillis(100));
        ModelParameters fifth = models.readValue();
        assertEquals("2026-01-01T00:00:03.500Z", fifth.updatedAt(), "half an interval after it arrived");
        assertEquals(Map.of("0", 4L, "1", 3L), fifth.sources());

        // Round 4: the previous round was partition 0 alone, so its next snapshot publishes at the next check.
        driver.advanceWallClockTime(INTERVAL.dividedBy(2));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(5))));
        driver.advanceWallClockTime(CHECK);
        assertEquals("2026-01-01T00:00:04.010Z", models.readValue().updatedAt());
    }

    /**
     * Starts at 00:00:00 with injected partials (the lineage then does not come from the partition tasks, see
     * TrainingTopologyTest) and sends round 0, partitions 0 and 1: the first snapshot publishes at once, the second,
     * a late member of the same round, waits half an interval; the clock jumps to 00:00:01, where it goes out (its
     * model not read yet).
     */
    private TestInputTopic<String, byte[]> startWithRoundZero() {
        start(Instant.parse("2026-01-01T00:00:00Z"), StreamsConfig.AT_LEAST_ONCE);
        TestInputTopic<String, byte[]> partials = DriverTopics.input(driver, TrainingTopology.partials(APP_ID));
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(1))));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(1))));
        assertEquals(Map.of("0", 1L), models.readValue().sources());
        driver.advanceWallClockTime(INTERVAL);
        return partials;
    }

    /**
     * {@link #startWithRoundZero()}, then the tick 00:00:02: news from partition 0, a quiet word from 1 — every kept
     * partition has reported, so the round is published at once; partition 1 is quiet in it.
     */
    private TestInputTopic<String, byte[]> startWithPartitionOneGoneQuiet() {
        TestInputTopic<String, byte[]> partials = startWithRoundZero();
        assertEquals(Map.of("0", 1L, "1", 1L), models.readValue().sources());
        driver.advanceWallClockTime(INTERVAL);
        partials.pipeInput("m", encode(snapshot(0, FEATURES, points(2))));
        partials.pipeInput("m", encode(snapshot(1, FEATURES, points(1))));
        ModelParameters round = models.readValue();
        assertEquals(Map.of("0", 2L, "1", 1L), round.sources());
        assertEquals("2026-01-01T00:00:02Z", round.updatedAt());
        return partials;
    }

    /** n distinct points of class "x" (the snapshot's next offset is n). */
    private static double[][] points(int n) {
        double[][] points = new double[n][];
        for (int i = 0; i < n; i++) {
            points[i] = new double[] {i, 2.0 * i + 1};
        }
        return points;
    }
}
