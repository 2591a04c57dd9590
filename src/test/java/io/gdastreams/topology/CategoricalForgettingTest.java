package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.math.CategoricalLikelihood;
import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.Forgetting;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forgetting, sample weights and retractions with a categorical feature: the category counts are weighted by the
 * same decayed weights as the Gaussian statistics, so the model's category table carries W_kc = Σ v_i [colour_i = c]
 * beside the raw counts. Against the batch computation of
 * src/test/resources/fixtures/forgetting-categorical/make_categorical_forgetting_golden.py: through the training
 * topology (TopologyTestDriver, with label corrections by retraction), and across 4 partitions with interleaved
 * timestamps and late events merged as the combiner merges them.
 */
class CategoricalForgettingTest {

    /** The done-criterion for forgetting: ≤ 1e-9 relative. */
    private static final double GOLDEN_RELATIVE = 1e-9;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private static JsonNode golden() throws IOException {
        try (InputStream in = CategoricalForgettingTest.class.getResourceAsStream(
                "/fixtures/forgetting-categorical/categorical_forgetting_golden.json")) {
            return JSON.readTree(in);
        }
    }

    private static byte[] event(JsonNode e, String label, boolean retract) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode features = root.putObject("features");
        features.set("x", e.get("x"));
        features.set("colour", e.get("colour"));
        root.put("label", label);
        root.set("weight", e.get("w"));
        if (retract) {
            root.put("retract", true);
        }
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void assertRelative(double expected, double actual, String what) {
        assertEquals(expected, actual, GOLDEN_RELATIVE * Math.abs(expected), what);
    }

    @Test
    void theModelsCategoryTableCarriesTheBatchDecayedWeights() throws IOException {
        JsonNode golden = golden();
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withCategorical(CategoricalSettings.NONE.withFeatures(List.of("colour")))
                .withForgetting(new Forgetting(golden.get("halfLifeMs").asDouble()));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "categorical-forgetting-test",
                TrainingFixtures.DRIVER_START);
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, TOPICS.model());
        TestOutputTopic<byte[], DeadLetter> deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
        for (JsonNode e : golden.get("events")) {
            labelled.pipeInput("k".getBytes(), event(e, e.get("observed").asText(), false),
                    Instant.ofEpochMilli(e.get("t").asLong()));
        }
        for (JsonNode e : golden.get("events")) {
            if (!e.get("observed").equals(e.get("label"))) {
                // A correction: the retraction carries the original timestamp, then the event under its true label.
                labelled.pipeInput("k".getBytes(), event(e, e.get("observed").asText(), true),
                        Instant.ofEpochMilli(e.get("t").asLong()));
                labelled.pipeInput("k".getBytes(), event(e, e.get("label").asText(), false),
                        Instant.ofEpochMilli(e.get("t").asLong()));
            }
        }
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> all = models.readValuesToList();
        assertTrue(deadLetters.isEmpty(), "nothing dead-lettered");
        ModelParameters model = all.get(all.size() - 1);
        JsonNode expected = golden.get("forgetting");
        CategoricalTable table = model.categorical().get(0);
        assertEquals("colour", table.feature());
        assertTrue(table.weights() != null, "a weighted table");
        for (int k = 0; k < model.classes().size(); k++) {
            ClassParameters c = model.classes().get(k);
            JsonNode ref = expected.get(c.label());
            assertEquals(ref.get("count").asLong(), c.count());
            assertRelative(ref.get("W").asDouble(), c.effectiveCount(), c.label() + " W");
            double rowSum = 0;
            for (int v = 0; v < table.values().size(); v++) {
                JsonNode colour = ref.get("colours").get(table.values().get(v));
                long n = colour == null ? 0 : colour.get("count").asLong();
                double w = colour == null ? 0 : colour.get("W").asDouble();
                assertEquals(n, table.counts().get(k)[v], c.label() + " " + table.values().get(v) + " count");
                assertRelative(w, table.weights().get(k)[v], c.label() + " " + table.values().get(v) + " W");
                rowSum += table.weights().get(k)[v];
            }
            assertRelative(ref.get("W").asDouble(), rowSum, c.label() + ": Σ_c W_kc = W_k");
        }
        // The scorer smooths the weights: θ_kc = (W_kc + α) / (W_k + α·V), α = 1, V = 3.
        CategoricalLikelihood theta = ModelConversion.categoricalLikelihood(model, List.of("a", "b"), 1.0);
        for (int k = 0; k < 2; k++) {
            JsonNode ref = expected.get(k == 0 ? "a" : "b");
            for (int v = 0; v < 3; v++) {
                JsonNode colour = ref.get("colours").get(table.values().get(v));
                double w = colour == null ? 0 : colour.get("W").asDouble();
                assertEquals(Math.log((w + 1) / (ref.get("W").asDouble() + 3)), theta.logTheta(k, 0, v),
                        GOLDEN_RELATIVE, "log θ");
            }
        }
    }

    @Test
    void fourPartitionsWithInterleavedAndLateEventsMergeToTheBatchWeights() throws IOException {
        JsonNode golden = golden();
        Forgetting forgetting = new Forgetting(golden.get("halfLifeMs").asDouble());
        List<Map<String, CategoryCounts>> partitions = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            partitions.add(new HashMap<>());
        }
        for (JsonNode e : golden.get("events")) {
            int p = e.get("partition").asInt();
            String label = e.get("label").asText();
            CategoryCounts counts = partitions.get(p).computeIfAbsent(label, l -> new CategoryCounts(List.of("colour")));
            forgetting.update(counts, new String[] {e.get("colour").asText()}, e.get("w").asDouble(),
                    e.get("t").asLong());
            // Through the binary form, as a snapshot carries them.
            partitions.get(p).put(label, CategoryCounts.fromBytes(counts.toBytes()));
        }
        SortedMap<String, CategoryCounts> pooled = CategoryCounts.pooled(partitions, label -> true, forgetting);
        JsonNode expected = golden.get("forgetting");
        for (String label : List.of("a", "b")) {
            CategoryCounts c = pooled.get(label);
            JsonNode ref = expected.get(label);
            assertEquals(ref.get("count").asLong(), c.count());
            assertRelative(ref.get("W").asDouble(), c.weight(), label + " W");
            for (var colour : new TreeMap<>(c.weights(0)).entrySet()) {
                JsonNode r = ref.get("colours").get(colour.getKey());
                assertEquals(r.get("count").asLong(), c.counts(0).get(colour.getKey()));
                assertRelative(r.get("W").asDouble(), colour.getValue(), label + " " + colour.getKey());
            }
        }
    }
}
