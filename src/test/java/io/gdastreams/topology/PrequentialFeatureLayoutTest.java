package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
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
 * Test-then-train (TopologyTestDriver) when the model in force does not take the event's point in the partition's
 * schema order: categorical features on the task's or the model's side, or the model's features in another order.
 * Such events must be scored by their feature names, as the scorer would score them; read as a point they would be
 * scored without their categorical factor, with swapped coordinates, or not at all. Hand models: a ~ N(0, 1) and
 * b ~ N(2, 1) in x, equal priors, so that the log-odds of b to a are 2x − 2, plus log θ_b(c) − log θ_a(c) for a
 * colour c.
 */
class PrequentialFeatureLayoutTest {

    /** Sums of a few doubles: the formulas are the same, only the order of operations differs. */
    private static final double CLOSE = 1e-12;
    private static final Duration WINDOW = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();
    private static final long CLASS_COUNT = 500;
    /** The colour counts of the hand model: a is mostly blue, b mostly red (of {@link #CLASS_COUNT} each). */
    private static final long MOSTLY = 400;
    private static final long SELDOM = CLASS_COUNT - MOSTLY;
    /**
     * log θ_b(red) − log θ_a(red) under the scorer's default smoothing α = 1 over V = 2 values:
     * ln((400 + 1)/(500 + 2)) − ln((100 + 1)/(500 + 2)); blue is its negative.
     */
    private static final double RED_LOG_ODDS = Math.log((MOSTLY + 1.0) / (SELDOM + 1.0));

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestInputTopic<String, ModelParameters> models;
    private TestOutputTopic<String, MetricsRecord> metrics;
    private TestOutputTopic<byte[], DeadLetter> deadLetters;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(CategoricalSettings categorical) {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withCategorical(categorical)
                .withPrequential(PrequentialSettings.defaults(WINDOW));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "prequential-layout-test",
                TrainingFixtures.DRIVER_START);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        models = DriverTopics.input(driver, TOPICS.model());
        metrics = DriverTopics.output(driver, TOPICS.metrics());
        deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
    }

    private static CategoricalSettings colour() {
        return CategoricalSettings.NONE.withFeatures(List.of("colour"));
    }

    /** The hand model over x alone. */
    private static ModelParameters gaussian() {
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", CLASS_COUNT, 0.5, new double[] {0}, new double[][] {{1}}),
                new ClassParameters("b", CLASS_COUNT, 0.5, new double[] {2}, new double[][] {{1}}));
        return new ModelParameters("m", 1, List.of("x"), 2 * CLASS_COUNT, classes, Map.of("0", 2 * CLASS_COUNT),
                "2026-01-01T00:00:00Z", "someone-else");
    }

    /** The hand model with the colour counts: a [blue 400, red 100], b [blue 100, red 400]. */
    private static ModelParameters withColour() {
        return gaussian().withCategorical(List.of(new CategoricalTable("colour", List.of("blue", "red"),
                List.of(new long[] {MOSTLY, SELDOM}, new long[] {SELDOM, MOSTLY}))));
    }

    private void send(String features, String label, long timestamp) {
        String json = "{\"features\":{" + features + "},\"label\":\"" + label + "\"}";
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8),
                Instant.ofEpochMilli(timestamp));
    }

    /** The window [0, 1000), closed by an event of the next one; every event was applied. */
    private Window firstWindow(String closing) {
        send(closing, "a", 1500);
        assertEquals(List.of(), deadLetters.readValuesToList().stream().map(DeadLetter::reason).toList(),
                "every event applied");
        List<MetricsRecord> records = metrics.readValuesToList();
        assertEquals(1, records.size(), records.toString());
        return (Window) records.get(0);
    }

    private static double sigmoid(double logOdds) {
        return 1 / (1 + Math.exp(-logOdds));
    }

    @Test
    void aCategoricalTaskIsTestedWithTheColourFactorOfTheModel() {
        start(colour());
        models.pipeInput("m", withColour(), Instant.ofEpochMilli(0));
        send("\"x\":0.8,\"colour\":\"red\"", "b", 100);  // x alone says a (log-odds −0.4); red turns it to b
        send("\"x\":1.2,\"colour\":\"blue\"", "a", 200); // x alone says b (0.4); blue turns it to a
        send("\"x\":0.0,\"colour\":\"red\"", "a", 300);  // a, less sure than x alone
        Window window = firstWindow("\"x\":0.0,\"colour\":\"red\"");
        assertEquals(3, window.count(), "every event scored: " + window);
        assertEquals(0, window.unscorable());
        assertEquals(1.0, window.accuracy(), CLOSE);
        double pB1 = sigmoid(2 * 0.8 - 2 + RED_LOG_ODDS);
        double pA2 = 1 - sigmoid(2 * 1.2 - 2 - RED_LOG_ODDS);
        double pA3 = 1 - sigmoid(-2 + RED_LOG_ODDS);
        assertEquals(-(Math.log(pB1) + Math.log(pA2) + Math.log(pA3)) / 3, window.logLoss(), CLOSE);
    }

    /**
     * A model without the task's categorical feature: the scorer would answer these events "unknown feature" and
     * score none of them, so the evaluation counts them unscorable rather than scoring their x alone.
     */
    @Test
    void aCategoricalTaskUnderAModelWithoutItsFeatureCountsTheEventsUnscorable() {
        start(colour());
        models.pipeInput("m", gaussian(), Instant.ofEpochMilli(0));
        send("\"x\":0.0,\"colour\":\"red\"", "a", 100);
        send("\"x\":2.0,\"colour\":\"red\"", "b", 200);
        Window window = firstWindow("\"x\":0.0,\"colour\":\"red\"");
        assertEquals(0, window.count(), window.toString());
        assertEquals(2, window.unscorable());
    }

    /** A model with a categorical feature the task does not have: the events lack it, so it is marginalised out. */
    @Test
    void aTaskWithoutCategoricalFeaturesIsTestedWithTheModelsColourMarginalised() {
        start(CategoricalSettings.NONE);
        models.pipeInput("m", withColour(), Instant.ofEpochMilli(0));
        send("\"x\":0.5", "a", 100);
        send("\"x\":0.5", "a", 200); // the schema is known from here: the points of the fast path, if it were taken
        send("\"x\":1.5", "b", 300);
        Window window = firstWindow("\"x\":0.0");
        assertEquals(3, window.count(), "every event scored: " + window);
        double pA = 1 - sigmoid(2 * 0.5 - 2);
        double pB = sigmoid(2 * 1.5 - 2);
        assertEquals(1.0, window.accuracy(), CLOSE);
        assertEquals(-(2 * Math.log(pA) + Math.log(pB)) / 3, window.logLoss(), CLOSE);
    }

    /**
     * The partition's schema is the sorted names [x, y]; the model's features are [y, x], with b's mean at x = 2:
     * read in schema order, y would be taken for x. Identity covariances, so the log-odds are still 2x − 2.
     */
    @Test
    void aModelOfAnotherFeatureOrderIsTestedByFeatureName() {
        start(CategoricalSettings.NONE);
        double[][] identity = {{1, 0}, {0, 1}};
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", CLASS_COUNT, 0.5, new double[] {0, 0}, identity),
                new ClassParameters("b", CLASS_COUNT, 0.5, new double[] {0, 2}, identity));
        models.pipeInput("m", new ModelParameters("m", 1, List.of("y", "x"), 2 * CLASS_COUNT, classes,
                Map.of("0", 2 * CLASS_COUNT), "2026-01-01T00:00:00Z", "someone-else"), Instant.ofEpochMilli(0));
        send("\"x\":0.0,\"y\":2.0", "a", 100); // swapped, this would be b at x = 2
        send("\"x\":0.0,\"y\":2.0", "a", 200);
        send("\"x\":2.0,\"y\":0.0", "b", 300);
        Window window = firstWindow("\"x\":0.0,\"y\":0.0");
        assertEquals(3, window.count(), "every event scored: " + window);
        assertEquals(1.0, window.accuracy(), CLOSE);
        double pA = 1 - sigmoid(-2);
        double pB = sigmoid(2);
        assertEquals(-(2 * Math.log(pA) + Math.log(pB)) / 3, window.logLoss(), CLOSE);
    }
}
