package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.math.Forgetting;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import java.io.IOException;
import java.io.InputStream;
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
 * Sample weights, retractions and forgetting through the training topology (TopologyTestDriver): the published
 * model equals the batch weighted MLE of src/test/resources/fixtures/forgetting/make_forgetting_golden.py when the
 * events arrive with their timestamps, some labels wrong and then corrected by a retraction plus the right event;
 * what cannot be applied is dead-lettered with the reason.
 */
class TrainingWeightsTest {

    /** The done-criterion: ≤ 1e-9 relative (mean in σ, covariance in σ_iσ_j). */
    private static final double GOLDEN_RELATIVE = 1e-9;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();

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

    private void start(TrainingSettings settings) {
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "training-weights-test",
                TrainingFixtures.DRIVER_START);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        models = DriverTopics.output(driver, TOPICS.model());
        deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
    }

    private static TrainingSettings settings() {
        return TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL);
    }

    private void send(String json, long timestamp) {
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8),
                Instant.ofEpochMilli(timestamp));
    }

    private ModelParameters lastModel() {
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> all = models.readValuesToList();
        assertTrue(!all.isEmpty(), "a model was published");
        return all.get(all.size() - 1);
    }

    private static String event(JsonNode e, String label, boolean retract) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode features = root.putObject("features");
        for (int j = 0; j < e.get("x").size(); j++) {
            features.set("f" + j, e.get("x").get(j));
        }
        root.put("label", label);
        root.set("weight", e.get("w"));
        if (retract) {
            root.put("retract", true);
        }
        return root.toString();
    }

    @Test
    void theModelEqualsTheBatchWeightedMleWithForgettingAndCorrections() throws IOException {
        JsonNode golden;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/forgetting/forgetting_golden.json")) {
            golden = JSON.readTree(in);
        }
        start(settings().withForgetting(new Forgetting(golden.get("halfLifeMs").asDouble())));
        int sent = 0;
        for (JsonNode e : golden.get("events")) {
            send(event(e, e.get("observed").asText(), false), e.get("t").asLong());
            sent++;
        }
        for (JsonNode e : golden.get("events")) {
            if (!e.get("observed").equals(e.get("label"))) {
                // A correction: the retraction carries the original event's timestamp, then the right label.
                send(event(e, e.get("observed").asText(), true), e.get("t").asLong());
                send(event(e, e.get("label").asText(), false), e.get("t").asLong());
                sent += 2;
            }
        }
        ModelParameters model = lastModel();
        assertTrue(deadLetters.isEmpty(), "nothing dead-lettered");
        assertEquals(Long.valueOf(sent), model.sources().get("0"));
        JsonNode expected = golden.get("forgetting");
        double totalWeight = expected.get("a").get("W").asDouble() + expected.get("b").get("W").asDouble();
        assertEquals(2, model.classes().size());
        for (ClassParameters c : model.classes()) {
            JsonNode ref = expected.get(c.label());
            double w = ref.get("W").asDouble();
            double v = ref.get("V").asDouble();
            assertEquals(ref.get("count").asLong(), c.count());
            assertEquals(w, c.effectiveCount(), GOLDEN_RELATIVE * w);
            assertEquals(w * w / v, c.effectiveSampleSize(), GOLDEN_RELATIVE * w * w / v);
            assertEquals(w / totalWeight, c.prior(), GOLDEN_RELATIVE);
            for (int i = 0; i < 3; i++) {
                double sii = ref.get("scatter").get(i).get(i).asDouble();
                assertEquals(ref.get("mean").get(i).asDouble(), c.mean()[i], GOLDEN_RELATIVE * Math.sqrt(sii / w));
                for (int j = 0; j < 3; j++) {
                    double scale = Math.sqrt(sii * ref.get("scatter").get(j).get(j).asDouble()) / w;
                    assertEquals(ref.get("scatter").get(i).get(j).asDouble() / w, c.covariance()[i][j],
                            GOLDEN_RELATIVE * scale, c.label() + " covariance " + i + "," + j);
                }
            }
        }
    }

    @Test
    void weightZeroIsCountedButChangesNoStatistic() {
        start(settings());
        send("{\"features\":{\"x\":1.0},\"label\":\"a\",\"weight\":1}", 0);
        send("{\"features\":{\"x\":3.0},\"label\":\"a\",\"weight\":3}", 0);
        send("{\"features\":{\"x\":100.0},\"label\":\"a\",\"weight\":0}", 0);
        ModelParameters model = lastModel();
        ClassParameters a = model.classes().get(0);
        assertEquals(3, a.count(), "the weight-0 event is in the count and the lineage");
        assertEquals(Long.valueOf(3), model.sources().get("0"));
        assertEquals(4.0, a.effectiveCount());
        assertEquals(1.6, a.effectiveSampleSize(), 1e-15);
        assertEquals(2.5, a.mean()[0]);
        assertEquals(0.75, a.covariance()[0][0], 1e-15, "S/W = 3/4");
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void whatCannotBeAppliedIsDeadLetteredWithTheReason() {
        start(settings());
        send("{\"features\":{\"x\":1.0},\"label\":\"a\"}", 0);
        send("{\"features\":{\"x\":2.0},\"label\":\"a\"}", 0);
        send("{\"features\":{\"x\":1.0},\"label\":\"b\",\"retract\":true}", 0);
        send("{\"features\":{\"x\":1.0},\"label\":\"a\",\"retract\":true,\"weight\":5}", 0);
        send("{\"features\":{\"x\":1.0},\"label\":\"a\",\"weight\":-1}", 0);
        send("{\"features\":{\"x\":1.0},\"label\":\"a\",\"retract\":\"yes\"}", 0);
        send("{\"features\":{\"x\":2.0},\"label\":\"a\",\"retract\":true}", 0);
        // h: two unit observations and one of weight 1e10, which cannot be retracted to precision beside them.
        send("{\"features\":{\"x\":1.0},\"label\":\"h\"}", 0);
        send("{\"features\":{\"x\":3.0},\"label\":\"h\"}", 0);
        send("{\"features\":{\"x\":100.0},\"label\":\"h\",\"weight\":1e10}", 0);
        send("{\"features\":{\"x\":100.0},\"label\":\"h\",\"weight\":1e10,\"retract\":true}", 0);
        // g: a glitch of 1e9 beside 1 and 1.5, whose scatter (0.125) it rounded away when it came.
        send("{\"features\":{\"x\":1.0},\"label\":\"g\"}", 0);
        send("{\"features\":{\"x\":1.5},\"label\":\"g\"}", 0);
        send("{\"features\":{\"x\":1e9},\"label\":\"g\"}", 0);
        send("{\"features\":{\"x\":1e9},\"label\":\"g\",\"retract\":true}", 0);
        List<String> reasons = deadLetters.readValuesToList().stream().map(DeadLetter::reason).toList();
        assertEquals(6, reasons.size(), reasons.toString());
        assertTrue(reasons.get(5).startsWith("retraction refused for class 'g': the observation is so far from the"
                + " class's others in coordinate 0 that the downdate would multiply rounding errors by "),
                reasons.get(5));
        assertEquals(List.of(
                "retraction: class 'b' has no observation in partition 0 (its count would become negative)",
                "retraction refused for class 'a': the retracted weight 5.0 exceeds the class's weight 2.0",
                "weight is negative: -1",
                "retract must be true or false, got \"yes\"",
                "retraction refused for class 'h': it would leave the class's 2 other observations a weight of 2.0,"
                        + " 1.9999999996E-10 of its 1.0000000002E10: the downdate would multiply rounding errors by"
                        + " 5.0E9, so their mean and scatter could not be trusted"), reasons.subList(0, 5));
        ModelParameters model = lastModel();
        ClassParameters a = model.classes().get(0);
        assertEquals(1, a.count());
        assertEquals(1.0, a.mean()[0], "x = 2 retracted: only x = 1 is left");
        assertNull(a.effectiveCount(), "weights all 1: an unweighted class in the model record");
        ClassParameters g = model.classes().get(1);
        assertEquals(3, g.count(), "the refused retraction changed nothing");
        assertEquals((1 + 1.5 + 1e9) / 3, g.mean()[0], 1e-6);
        ClassParameters h = model.classes().get(2);
        assertEquals(3, h.count(), "the refused retraction changed nothing");
        assertEquals(1e10 + 2, h.effectiveCount(), 1e-6);
        assertEquals(Long.valueOf(15), model.sources().get("0"));
    }

    @Test
    void aRetractionAfterAPublishLowersTheCountWithoutTrippingTheRegressionGuard() {
        start(settings());
        send("{\"features\":{\"x\":1.0},\"label\":\"a\"}", 0);
        send("{\"features\":{\"x\":3.0},\"label\":\"a\"}", 0);
        ModelParameters first = lastModel();
        assertEquals(2, first.totalCount());
        assertEquals(0, first.retracted());
        send("{\"features\":{\"x\":3.0},\"label\":\"a\",\"retract\":true}", 0);
        ModelParameters second = lastModel();
        assertEquals(1, second.totalCount());
        assertEquals(1, second.retracted());
        assertEquals(3, second.eventsAbsorbed());
        assertEquals(1.0, second.classes().get(0).mean()[0]);
        send("{\"features\":{\"x\":1.0},\"label\":\"a\",\"retract\":true}", 0);
        ModelParameters empty = lastModel();
        assertEquals(0, empty.totalCount(), "every event retracted: a model of an empty class");
        assertEquals(0, empty.classes().get(0).count());
        assertEquals(0.0, empty.classes().get(0).covariance()[0][0]);
        assertTrue(deadLetters.isEmpty());
    }
}
