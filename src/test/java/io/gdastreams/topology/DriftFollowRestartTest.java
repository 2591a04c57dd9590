package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.MetricsRecord.Window;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition that takes up a reset generation another partition's alarm started (a model this application
 * published, of a newer generation) restarts its own drift test (TopologyTestDriver, {@code gda.drift.action=reset}):
 * the losses it followed were those of the old model. Hand models: a ~ N(0, 1) and b ~ N(2, 1), equal priors, so
 * that an event at x = 0 costs ln(1 + e^−2) when labelled a and ln(1 + e^2) when labelled b.
 */
class DriftFollowRestartTest {

    private static final String APP_ID = "drift-follow-test";
    private static final Topics TOPICS = Topics.defaults();
    /** One window for the whole test: it is closed once, at the end. */
    private static final Duration WINDOW = Duration.ofHours(1);
    /** Sums of a few hundred equal doubles. */
    private static final double CLOSE = 1e-12;
    private static final long CLASS_COUNT = 500;
    /** Events before the reset: past the drift test's minimum of 30 values, all of low loss. */
    private static final int BEFORE = 40;
    /** Events after it, all of high loss: enough for the old test to fire (about 40 would do), and more. */
    private static final int AFTER = 300;
    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    /** A model this application published, of reset generation {@code generation}. */
    private static ModelParameters published(long version, long generation) {
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", CLASS_COUNT, 0.5, new double[] {0}, new double[][] {{1}}),
                new ClassParameters("b", CLASS_COUNT, 0.5, new double[] {2}, new double[][] {{1}}));
        return new ModelParameters("m", version, List.of("x"), 2 * CLASS_COUNT, classes,
                Map.of("0", 2 * CLASS_COUNT), "2026-01-01T00:00:00Z", APP_ID).withReset(generation, 0);
    }

    /**
     * With the test restarted at the reset, the losses after it are all ln(1 + e^2): each Page–Hinkley increment
     * x_t − x̄_t − δ is then −δ, so PH_T = m_T − M_T stays 0 and nothing fires. The test the old model's losses had
     * brought to a mean of ln(1 + e^−2) would see a rise of 2 per event and fire within about 40 of them.
     */
    @Test
    void theDriftTestRestartsWhenThePartitionTakesUpAPublishedResetGeneration() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m")
                .withPrequential(PrequentialSettings.defaults(WINDOW).withDriftReset(true));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, APP_ID, TrainingFixtures.DRIVER_START);
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestInputTopic<String, ModelParameters> models = DriverTopics.input(driver, TOPICS.model());
        TestOutputTopic<String, MetricsRecord> metrics = DriverTopics.output(driver, TOPICS.metrics());
        byte[] right = "{\"features\":{\"x\":0.0},\"label\":\"a\"}".getBytes(StandardCharsets.UTF_8);
        byte[] wrong = "{\"features\":{\"x\":0.0},\"label\":\"b\"}".getBytes(StandardCharsets.UTF_8);

        models.pipeInput("m", published(1, 0), Instant.ofEpochMilli(0));
        long t = 0;
        for (int i = 0; i < BEFORE; i++) {
            labelled.pipeInput(KEY, right, Instant.ofEpochMilli(++t));
        }
        // Another partition's alarm: its generation's model reaches this partition, which takes it up.
        models.pipeInput("m", published(2, 1), Instant.ofEpochMilli(t));
        for (int i = 0; i < AFTER; i++) {
            labelled.pipeInput(KEY, wrong, Instant.ofEpochMilli(++t));
        }
        assertEquals(List.of(), DriverTopics.driftAlarms(metrics), "no alarm: the restarted test saw no change");

        labelled.pipeInput(KEY, right, Instant.ofEpochMilli(WINDOW.toMillis())); // closes the window
        Window window = (Window) metrics.readValue();
        assertEquals(BEFORE + AFTER, window.count());
        double low = Math.log(1 + Math.exp(-2));
        double high = Math.log(1 + Math.exp(2));
        assertEquals((BEFORE * low + AFTER * high) / (BEFORE + AFTER), window.logLoss(), CLOSE,
                "the events after the reset were tested, with the new model");
        assertEquals(new MetricsRecord.Versions(1, 2), window.modelVersions());
    }
}
