package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.math.Forgetting;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under forgetting, an event of timestamp 0 (the epoch, a valid event time) is weighed like any other
 * (TopologyTestDriver): the processor's check for a record without an event time refuses negative timestamps
 * only (which Kafka Streams never hands to a processor: its record queue drops them, and a processor API record
 * cannot carry one).
 */
class ForgettingEpochStartTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    /** One half-life between the two events of class a: the first weighs ½ at the second's time. */
    private static final double HALF_LIFE_MS = 1000;
    /** A few floating-point operations on small numbers. */
    private static final double CLOSE = 1e-12;

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
    void anEventAtTimestampZeroIsAppliedWithItsDecayedWeight() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withForgetting(new Forgetting(HALF_LIFE_MS));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "forgetting-epoch-test",
                TrainingFixtures.DRIVER_START);
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, TOPICS.model());
        TestOutputTopic<byte[], DeadLetter> deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());

        send(labelled, 1, "a", 0);
        send(labelled, 3, "a", 1000);
        send(labelled, 10, "b", 1000);
        driver.advanceWallClockTime(INTERVAL);

        assertEquals(List.of(), deadLetters.readValuesToList().stream().map(DeadLetter::reason).toList(),
                "the event at timestamp 0 is applied");
        List<ModelParameters> all = models.readValuesToList();
        ModelParameters model = all.get(all.size() - 1);
        assertEquals(List.of("a", "b"), model.classes().stream().map(ClassParameters::label).toList());
        ClassParameters a = model.classes().get(0);
        assertEquals(2, a.count());
        // At the reference time 1000 the weights of class a are ½ (x = 1) and 1 (x = 3); b's is 1.
        double w = 0.5 + 1;
        double mean = (0.5 * 1 + 3) / w;
        assertEquals(w, a.effectiveCount(), CLOSE);
        assertEquals(w * w / (0.5 * 0.5 + 1), a.effectiveSampleSize(), CLOSE);
        assertEquals(w / (w + 1), a.prior(), CLOSE);
        assertEquals(mean, a.mean()[0], CLOSE);
        assertEquals((0.5 * Math.pow(1 - mean, 2) + Math.pow(3 - mean, 2)) / w, a.covariance()[0][0], CLOSE);
    }

    private static void send(TestInputTopic<byte[], byte[]> labelled, double x, String label, long timestamp) {
        String json = "{\"features\":{\"x\":" + x + "},\"label\":\"" + label + "\"}";
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8),
                Instant.ofEpochMilli(timestamp));
    }
}
