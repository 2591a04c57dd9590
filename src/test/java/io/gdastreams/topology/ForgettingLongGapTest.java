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
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under forgetting, a gap of more than about 1075 half-lives makes the decay factor 2^(−gap/h) round to exactly 0
 * (18 hours under a one-minute half-life): the weight before the gap is forgotten, and training goes on
 * (TopologyTestDriver). Both places a factor is applied are covered: a class's own next event (the trainer's
 * update) and a class that stays quiet while another moves the model's reference time on (the combiner's
 * alignment of every class to the newest). Before, a factor of 0 was refused as an argument: every later event of
 * the quiet class was dead-lettered as an internal error, and the combiner threw, so no model was published again.
 */
class ForgettingLongGapTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final double HALF_LIFE_MS = 60_000;
    /** 18 hours: 1080 half-lives, 2^(−1080) = 0 in doubles. */
    private static final long GAP_MS = Duration.ofHours(18).toMillis();
    /** A few floating-point operations on small numbers. */
    private static final double CLOSE = 1e-12;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestOutputTopic<String, ModelParameters> models;
    private TestOutputTopic<byte[], DeadLetter> deadLetters;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void theFactorUnderAnEighteenHourGapIsZero() {
        assertEquals(0.0, new Forgetting(HALF_LIFE_MS).factor(0, GAP_MS), 0.0);
    }

    @Test
    void aQuietClassIsForgottenAndTrainsAgainAfterTheGap() {
        start();
        send(1, "rare", 0);
        send(2, "rare", 1000);
        send(1, "common", 0);
        send(2, "common", 1000);
        publish();
        assertEquals(2, lastModel().classes().size(), "both classes before the gap");

        // Only the common class moves on: the combiner aligns the quiet one to the common one's time.
        send(5, "common", GAP_MS);
        send(6, "common", GAP_MS + 1000);
        publish();
        Map<String, ClassParameters> afterGap = byLabel(lastModel());
        ClassParameters common = afterGap.get("common");
        assertEquals(4, common.count());
        // Before the gap: forgotten (factor 0). After it: x = 5 at weight 2^(−1000/h), x = 6 at weight 1.
        double w5 = Math.pow(2, -1000 / HALF_LIFE_MS);
        double w = w5 + 1;
        double mean = (w5 * 5 + 6) / w;
        assertEquals(w, common.effectiveCount(), CLOSE);
        assertEquals(mean, common.mean()[0], CLOSE);
        assertEquals((w5 * Math.pow(5 - mean, 2) + Math.pow(6 - mean, 2)) / w, common.covariance()[0][0], CLOSE);
        assertEquals(1.0, common.prior(), CLOSE, "the forgotten class holds no weight");

        // The quiet class's own next event, a gap after its last: applied with weight 1, the old weight forgotten.
        send(7, "rare", GAP_MS + 2000);
        publish();
        ClassParameters rare = byLabel(lastModel()).get("rare");
        assertEquals(3, rare.count());
        assertEquals(1.0, rare.effectiveCount(), 0.0);
        assertEquals(7.0, rare.mean()[0], 0.0);
        assertEquals(List.of(), deadLetters.readValuesToList().stream().map(DeadLetter::reason).toList(),
                "every event is applied");
    }

    private void start() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withForgetting(new Forgetting(HALF_LIFE_MS));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "forgetting-gap-test",
                TrainingFixtures.DRIVER_START);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        models = DriverTopics.output(driver, TOPICS.model());
        deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
    }

    private void publish() {
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);
    }

    private ModelParameters lastModel() {
        List<ModelParameters> all = models.readValuesToList();
        return all.get(all.size() - 1);
    }

    private static Map<String, ClassParameters> byLabel(ModelParameters model) {
        return model.classes().stream().collect(Collectors.toMap(ClassParameters::label, Function.identity()));
    }

    private void send(double x, String label, long timestamp) {
        String json = "{\"features\":{\"x\":" + x + "},\"label\":\"" + label + "\"}";
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8),
                Instant.ofEpochMilli(timestamp));
    }
}
