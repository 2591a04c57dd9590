package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.MetricsRecord.DriftAlarm;
import io.gdastreams.model.ModelParameters;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gda.drift.action=reset} through the training topology (TopologyTestDriver, the trainer publishing its own
 * models): a stream whose two classes swap their distributions at one event. The Page–Hinkley test fires soon
 * after; from the event it fired at, the statistics start afresh, the scorers keep the last model of the old regime
 * until every class has gda.min.count again, and the final model is the two-pass batch MLE of exactly the events
 * from the firing one on ({@link TrainingFixtures#twoPassMle}, computed here from the rows sent).
 */
class DriftResetTopologyTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final List<String> FEATURES = List.of("x0", "x1");
    /** Events between two publications (wall-clock advances). */
    private static final int EVENTS_PER_PUBLISH = 20;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }


    @Test
    void afterTheAlarmTheModelIsTheBatchFitOfThePostResetEventsAndVersionsKeepRising() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withPrequential(PrequentialSettings.defaults(Duration.ofHours(1)).withDriftReset(true));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "drift-reset-test",
                TrainingFixtures.DRIVER_START, StreamsConfig.EXACTLY_ONCE_V2);
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, TOPICS.model());
        TestOutputTopic<String, MetricsRecord> metrics = DriverTopics.output(driver, TOPICS.metrics());

        Random random = new Random(23);
        int swapAt = 1_500;
        int total = 3_000;
        List<LabelledRow> rows = new ArrayList<>();
        List<ModelParameters> published = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            boolean b = random.nextBoolean();
            // a ~ N((0, 0), I), b ~ N((2, 0), I); from swapAt on the two distributions swap.
            double shift = (b ^ i >= swapAt) ? 2 : 0;
            double[] x = {random.nextGaussian() + shift, random.nextGaussian()};
            String label = b ? "b" : "a";
            rows.add(new LabelledRow(x, label));
            labelled.pipeInput("k".getBytes(), TrainingFixtures.labelledJson(FEATURES, x, label),
                    Instant.ofEpochMilli(1_000L * i));
            if (i % EVENTS_PER_PUBLISH == EVENTS_PER_PUBLISH - 1) {
                driver.advanceWallClockTime(INTERVAL);
                published.addAll(models.readValuesToList());
            }
        }
        driver.advanceWallClockTime(INTERVAL);
        published.addAll(models.readValuesToList());

        List<DriftAlarm> drifts = DriverTopics.driftAlarms(metrics);
        assertEquals(1, drifts.size(), "one alarm, none while the reset model is awaited: " + drifts);
        DriftAlarm drift = drifts.get(0);
        assertTrue(drift.resets());
        assertEquals(1, drift.resetGeneration());
        int firedAt = (int) (drift.eventTime() / 1_000);
        assertTrue(firedAt >= swapAt && firedAt - swapAt <= 200, "fired at event " + firedAt);

        for (int v = 1; v < published.size(); v++) {
            assertTrue(published.get(v).version() > published.get(v - 1).version(), "versions strictly increase");
            assertTrue(published.get(v).resetGeneration() >= published.get(v - 1).resetGeneration(),
                    "generations never go back");
        }
        ModelParameters firstReset = published.stream().filter(m -> m.resetGeneration() == 1).findFirst()
                .orElseThrow(() -> new AssertionError("no model of generation 1"));
        for (ClassParameters c : firstReset.classes()) {
            assertTrue(c.count() >= 2, "every class has gda.min.count (2) again: " + c.label() + " " + c.count());
        }
        // The models before it are of the old regime, and they hold events up to (at least) the alarm.
        ModelParameters lastOld = published.get(published.indexOf(firstReset) - 1);
        assertEquals(0, lastOld.resetGeneration());
        assertTrue(lastOld.totalCount() >= firedAt - EVENTS_PER_PUBLISH, "the last old model: " + lastOld.totalCount());

        ModelParameters last = published.get(published.size() - 1);
        assertEquals(1, last.resetGeneration());
        assertEquals(Long.valueOf(total), last.sources().get("0"), "the lineage still reaches the last offset");
        assertEquals(firedAt, last.resetDropped(), "the events before the one it fired at are dropped");
        assertEquals(total, last.eventsAbsorbed());
        // The event it fired at is the first of the new statistics.
        TrainingFixtures.assertModelEquals(TrainingFixtures.twoPassMle(FEATURES, rows.subList(firedAt, total)), last);
    }
}
