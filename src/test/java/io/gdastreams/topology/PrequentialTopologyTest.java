package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.MetricsRecord.DriftAlarm;
import io.gdastreams.model.MetricsRecord.Window;
import io.gdastreams.model.ModelParameters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Test-then-train windows of the training topology (TopologyTestDriver), against hand computations. The model
 * scored with is published on the model topic by hand: classes a ~ N(0, 1) and b ~ N(2, 1), equal priors, so that
 * p(b | x) = 1 / (1 + e^−(2x − 2)) (the log-likelihood ratio of b to a is (x² − (x − 2)²)/2 = 2x − 2).
 */
class PrequentialTopologyTest {

    /** Sums of a few doubles: the formulas are the same, only the order of operations differs. */
    private static final double CLOSE = 1e-12;
    private static final Duration WINDOW = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestInputTopic<String, ModelParameters> models;
    private TestOutputTopic<String, MetricsRecord> metrics;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m")
                .withPrequential(PrequentialSettings.defaults(WINDOW));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "prequential-test", TrainingFixtures.DRIVER_START);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        models = DriverTopics.input(driver, TOPICS.model());
        metrics = DriverTopics.output(driver, TOPICS.metrics());
    }

    /** Events per class of the hand model: together at least the drift test's default warm-up (200). */
    private static final long HAND_CLASS_COUNT = 500;

    private static ModelParameters handModel(long version) {
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", HAND_CLASS_COUNT, 0.5, new double[] {0}, new double[][] {{1}}),
                new ClassParameters("b", HAND_CLASS_COUNT, 0.5, new double[] {2}, new double[][] {{1}}));
        return new ModelParameters("m", version, List.of("x"), 2 * HAND_CLASS_COUNT, classes,
                Map.of("0", 2 * HAND_CLASS_COUNT), "2026-01-01T00:00:00Z", "someone-else");
    }

    private void send(double x, String label, long timestamp) {
        String json = "{\"features\":{\"x\":" + x + "},\"label\":\"" + label + "\"}";
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8),
                Instant.ofEpochMilli(timestamp));
    }

    private static double pB(double x) {
        return 1 / (1 + Math.exp(-(2 * x - 2)));
    }

    @Test
    void windowsCarryHandComputedAccuracyLogLossBrierAndRecall() {
        start();
        send(0, "a", 50); // no model yet: counted apart
        models.pipeInput("m", handModel(7), Instant.ofEpochMilli(60));
        send(0, "a", 100);   // p_a = 1 − σ(−2): right
        send(2, "b", 200);   // p_b = σ(2): right
        send(1.5, "a", 300); // p_b = σ(1) > ½: wrong
        send(1, "c", 400);   // a class the model does not have: wrong, p_c = 0
        assertTrue(metrics.isEmpty(), "the window [0, 1000) is still open");
        send(0, "a", 1500);  // closes [0, 1000)
        send(2, "b", 900);   // older than the open window [1000, 2000): late
        send(0, "a", 2100);  // closes [1000, 2000)

        List<MetricsRecord> records = metrics.readValuesToList();
        assertEquals(2, records.size(), records.toString());
        Window first = (Window) records.get(0);
        assertEquals("m", first.modelId());
        assertEquals(0, first.windowStart());
        assertEquals(1000, first.windowEnd());
        assertEquals(4, first.count());
        assertEquals(1, first.noModel());
        assertEquals(0, first.late());
        assertEquals(0.5, first.accuracy(), CLOSE);
        double pa0 = 1 - pB(0);
        double pb2 = pB(2);
        double pb15 = pB(1.5);
        double logLoss = (-Math.log(pa0) - Math.log(pb2) - Math.log(1 - pb15) - Math.log(1e-15)) / 4;
        assertEquals(logLoss, first.logLoss(), CLOSE);
        // Brier: Σ_k (p_k − [k = y])², with an absent true class adding its (0 − 1)².
        double brier = (2 * Math.pow(1 - pa0, 2) + 2 * Math.pow(1 - pb2, 2) + 2 * Math.pow(pb15, 2)
                + (0.25 + 0.25 + 1)) / 4;
        assertEquals(brier, first.brier(), CLOSE);
        assertEquals(0.5, first.recall().get("a"), CLOSE);
        assertEquals(1.0, first.recall().get("b"), CLOSE);
        assertEquals(0.0, first.recall().get("c"), CLOSE);
        assertEquals(2, first.support().get("a"));
        assertEquals(new MetricsRecord.Versions(7, 7), first.modelVersions());

        Window second = (Window) records.get(1);
        assertEquals(1000, second.windowStart());
        assertEquals(1, second.count());
        assertEquals(1, second.late());
        assertEquals(0, second.noModel());
        assertEquals(1.0, second.accuracy(), CLOSE);
        assertEquals(-Math.log(pa0), second.logLoss(), CLOSE);
        assertEquals(2 * Math.pow(1 - pa0, 2), second.brier(), CLOSE);
    }

    @Test
    void scoresWithTheNewestPublishedVersionNotThePartitionsOwnState() {
        start();
        models.pipeInput("m", handModel(3), Instant.ofEpochMilli(0));
        // Many b events at x = 0 would make the partition's own model say b at 0; the published model says a.
        for (int i = 0; i < 5; i++) {
            send(0, "b", 10 + i);
        }
        models.pipeInput("m", handModel(4), Instant.ofEpochMilli(20));
        send(0, "b", 30);
        send(0, "a", 1000); // closes [0, 1000)
        Window window = (Window) metrics.readValue();
        assertEquals(6, window.count());
        assertEquals(0.0, window.accuracy(), CLOSE);
        assertEquals(-Math.log(pB(0)), window.logLoss(), CLOSE);
        assertEquals(new MetricsRecord.Versions(3, 4), window.modelVersions());
    }

    @Test
    void pageHinkleyFiresSoonAfterTheLabelsSwapAndNotBefore() {
        start();
        models.pipeInput("m", handModel(1), Instant.ofEpochMilli(0));
        java.util.Random random = new java.util.Random(5);
        int swapAt = 3_000;
        for (int i = 0; i < 4_000; i++) {
            boolean b = random.nextBoolean();
            double x = random.nextGaussian() + (b ? 2 : 0);
            // From event swapAt on the labels are swapped: the published model is then mostly wrong.
            String label = (b ^ i >= swapAt) ? "b" : "a";
            send(x, label, 1_000L * i); // one event per window: event time = 1000·i
        }
        List<DriftAlarm> drifts = DriverTopics.driftAlarms(metrics);
        assertEquals(1, drifts.size(), drifts.toString());
        DriftAlarm drift = drifts.get(0);
        long firedAt = drift.eventTime() / 1_000;
        // Expected delay ≈ λ/(2.3 − 0.32 − δ) ≈ 27 events (PageHinkleyTest); 100 leaves room for the noise.
        assertTrue(firedAt >= swapAt && firedAt - swapAt <= 100, "fired at event " + firedAt);
        assertEquals("page-hinkley", drift.detector());
        assertEquals(50.0, drift.threshold());
        assertTrue(drift.statistic() > 50.0);
    }

    /**
     * A task whose stores the previous release wrote (the counters alone under progress, the open window in the
     * prequential store, layout 2) carries its window over: the first event closes it as it was, the window moves
     * into the progress entry at the first record (even a dead-lettered one), and the old store's key goes in the
     * same transaction.
     */
    @Test
    void theOpenWindowOfThePreviousReleasesStoreCarriesOver() throws IOException {
        start();
        double[] drift = {60, 0.75, 3.5, -0.5};
        KeyValueStore<String, byte[]> classStats = driver.getKeyValueStore(TrainingTopology.CLASS_STATS_STORE);
        KeyValueStore<String, byte[]> old = driver.getKeyValueStore(TrainingTopology.PREQUENTIAL_STORE);
        classStats.put(PartitionState.SCHEMA_KEY, "[\"x\"]".getBytes(StandardCharsets.UTF_8));
        classStats.put(PartitionState.PROGRESS_KEY, ByteBuffer.allocate(29).put((byte) 1).putInt(0).putLong(0)
                .putLong(0).putLong(0).array());
        old.put("window:m", PrequentialRestartTest.layoutTwo(drift));

        // A dead-lettered record first: not tested, but its progress write moves the state out of the old store.
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), "not json".getBytes(StandardCharsets.UTF_8),
                Instant.ofEpochMilli(60_500));
        assertNull(old.get("window:m"), "the old store's key is removed");
        byte[] moved = classStats.get(PartitionState.PROGRESS_KEY);
        assertArrayEquals(PrequentialStateBytes.encode("m", PrequentialRestartTest.window(), drift),
                Arrays.copyOfRange(moved, 29, moved.length), "the stored window, unchanged, after the counters");
        assertTrue(metrics.isEmpty());

        send(0, "a", 61_500); // no model yet; past the stored window [60 000, 61 000)
        assertEquals(List.of(PrequentialRestartTest.window().toRecord("m", 0, 1000)), metrics.readValuesToList());
        byte[] progress = classStats.get(PartitionState.PROGRESS_KEY);
        assertEquals(2, progress[0], "format 2: the counters with the prequential state");
        PrequentialStateBytes.Decoded stored =
                PrequentialStateBytes.decode(Arrays.copyOfRange(progress, 29, progress.length));
        assertEquals("m", stored.modelId());
        assertEquals(61_000, stored.window().start);
        assertEquals(1, stored.window().noModel);
        assertArrayEquals(drift, stored.drift(), 0.0, "the drift state carried over (no event was scored)");
    }
}
