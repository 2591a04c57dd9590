package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Bernoulli feature end to end through both topologies (TopologyTestDriver): events whose {@code flag} is a JSON
 * boolean are trained, then scored with a boolean, with the string "true", and without the flag. The hand
 * reference: class a has x = 0, 1, −1, 0 (mean 0, MLE variance ½) and flags true, true, true, false; class b has
 * x = 2, 3, 1, 2 (mean 2, variance ½) and flags true, false, false, false. With α = 1 the smoothed Bernoulli is
 * θ_k(true) = p_k = (n_k,true + 1)/(n_k + 2): p_a = 4/6, p_b = 2/6, and θ_k(false) = 1 − p_k.
 */
class BernoulliFeatureTest {

    private static final double CLOSE = 1e-12;
    private static final String[] EVENTS = {
            "{\"features\":{\"x\":0,\"flag\":true},\"label\":\"a\"}",
            "{\"features\":{\"x\":1,\"flag\":true},\"label\":\"a\"}",
            "{\"features\":{\"x\":-1,\"flag\":true},\"label\":\"a\"}",
            "{\"features\":{\"x\":0,\"flag\":false},\"label\":\"a\"}",
            "{\"features\":{\"x\":2,\"flag\":true},\"label\":\"b\"}",
            "{\"features\":{\"x\":3,\"flag\":false},\"label\":\"b\"}",
            "{\"features\":{\"x\":1,\"flag\":false},\"label\":\"b\"}",
            "{\"features\":{\"x\":2,\"flag\":false},\"label\":\"b\"}"};

    @TempDir
    Path stateDir;

    private static final CategoricalSettings FLAG = CategoricalSettings.NONE.withFeatures(List.of("flag"));

    private ModelParameters train() {
        Topics topics = Topics.defaults();
        TrainingSettings settings = TrainingSettings.defaults(topics).withModelId("m").withFeatures(List.of("x"))
                .withPublishInterval(Duration.ofSeconds(1)).withCategorical(FLAG);
        try (TopologyTestDriver driver = TrainingFixtures.trainingDriver(settings, stateDir.resolve("training"),
                "bernoulli", null)) {
            TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, topics.labelled());
            TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, topics.model());
            for (String event : EVENTS) {
                labelled.pipeInput(null, event.getBytes(StandardCharsets.UTF_8));
            }
            driver.advanceWallClockTime(Duration.ofSeconds(1));
            List<ModelParameters> published = models.readValuesToList();
            return published.get(published.size() - 1);
        }
    }

    private static double logNormal(double x, double mean) {
        return -0.5 * Math.log(Math.PI) - (x - mean) * (x - mean); // N(x; mean, ½)
    }

    @Test
    void shouldTrainAndScoreBooleansAsTheSmoothedBernoulli() {
        ModelParameters model = train();
        assertEquals(List.of("false", "true"), model.categorical().get(0).values());
        assertEquals(List.of(1L, 3L), List.of(model.categorical().get(0).counts().get(0)[0],
                model.categorical().get(0).counts().get(0)[1]));
        try (ScoringHarness harness = new ScoringHarness(ScoringSettings.defaults("m").withCategorical(FLAG),
                stateDir.resolve("scoring"))) {
            harness.publish(model);
            harness.send("1", "{\"features\":{\"x\":1,\"flag\":true}}".getBytes(StandardCharsets.UTF_8));
            harness.send("2", "{\"features\":{\"x\":1,\"flag\":\"true\"}}".getBytes(StandardCharsets.UTF_8));
            harness.send("3", "{\"features\":{\"x\":0.5,\"flag\":false}}".getBytes(StandardCharsets.UTF_8));
            harness.send("4", "{\"features\":{\"x\":0}}".getBytes(StandardCharsets.UTF_8));
            harness.send("5", "{\"features\":{\"x\":2}}".getBytes(StandardCharsets.UTF_8));
            List<Prediction> p = harness.predictions().stream().map(kv -> kv.value).toList();
            assertEquals(5, p.size());
            // x = 1 is as far from both means: p(a | x, true) = p_a / (p_a + p_b) = 2/3.
            assertEquals(2.0 / 3.0, p.get(0).probabilities().get("a"), CLOSE);
            assertEquals(Math.log(0.5) + logNormal(1, 0) + Math.log(4.0 / 6 + 2.0 / 6), p.get(0).logDensity(), CLOSE);
            assertEquals(p.get(0).probabilities(), p.get(1).probabilities(), "the string \"true\" is the boolean");
            // x = 0.5, false: a ∝ N(0.5; 0, ½)·2/6, b ∝ N(0.5; 2, ½)·4/6.
            double a = logNormal(0.5, 0) + Math.log(2.0 / 6);
            double b = logNormal(0.5, 2) + Math.log(4.0 / 6);
            assertEquals(1 / (1 + Math.exp(b - a)), p.get(2).probabilities().get("a"), CLOSE);
            assertNull(p.get(2).imputedCategories());
            // Flag missing: at x = 0, p(a) = 1/(1 + e^−4) and true has mass p(a)·4/6 + p(b)·2/6 > ½; at x = 2, false.
            assertEquals(1 / (1 + Math.exp(-4)), p.get(3).probabilities().get("a"), CLOSE);
            assertEquals(Map.of("flag", "true"), p.get(3).imputedCategories());
            assertEquals(Map.of("flag", "false"), p.get(4).imputedCategories());
        }
    }
}
