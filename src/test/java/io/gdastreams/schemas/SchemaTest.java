package io.gdastreams.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The schemas of docs/schemas/ are valid 2020-12 schemas; the event schemas accept exactly what serde.EventDecoder
 * accepts, case by case, wherever the answer does not depend on configuration (which features are categorical, the
 * model's features); the output schemas reject an output of our own serialisation with a required field missing, a
 * field of the wrong type, or a field of the other shape. The real outputs of the topologies are checked in SchemaIT.
 */
class SchemaTest {

    private static final Set<String> CATEGORICAL = Set.of("student");
    private static final String LABEL_256 = "x".repeat(256);

    @Test
    void everySchemaIsAValid2020_12SchemaAndTheDirectoryHoldsNoOther() throws Exception {
        for (String name : JsonSchemas.ALL) {
            JsonNode document = JsonSchemas.document(name);
            assertEquals(List.of(), JsonSchemas.problems(JsonSchemas.metaSchema(), document), name);
            assertEquals("https://json-schema.org/draft/2020-12/schema", document.get("$schema").asText(), name);
        }
        try (var files = java.nio.file.Files.list(JsonSchemas.DIR)) {
            assertEquals(JsonSchemas.ALL.stream().map(n -> n + ".schema.json").sorted().toList(),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    /** Labelled events; the decoder runs with "student" categorical and the default feature bound. */
    static final List<String> LABELLED = List.of(
            "{\"features\": {\"a\": 1.5, \"b\": -2}, \"label\": \"yes\"}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": 0.25}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": 0}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": 1e12, \"retract\": true}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": -1}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": 2e12}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": 1e-100}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": 1e-200}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"weight\": \"2\"}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retract\": \"yes\"}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retract\": true, \"retractsOffset\": 42}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retract\": true, \"retractsOffset\": 0}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retract\": true, \"retractsOffset\": -1}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retract\": true, \"retractsOffset\": 2.5}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retract\": true, \"retractsOffset\": \"7\"}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retractsOffset\": 3}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"yes\", \"retract\": false, \"retractsOffset\": 3}",
            "{\"features\": {\"a\": 1e100, \"student\": \"No\"}, \"label\": \"yes\", \"extra\": [1]}",
            "{\"features\": {\"a\": -1e100, \"student\": true}, \"label\": \"" + LABEL_256 + "\"}",
            "{\"features\": {\"a\": 1, \"student\": \"\"}, \"label\": \"é ü\"}",
            "{\"features\": {\"a\": 1.5}}",
            "{\"features\": {\"a\": 1.5}, \"label\": null}",
            "{\"features\": {\"a\": 1.5}, \"label\": 3}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"   \"}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"" + LABEL_256 + "y\"}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"tab\\there\"}",
            "{\"features\": {\"a\": 1.5}, \"label\": \"nbsp\\u0085\"}",
            "{\"features\": {}, \"label\": \"yes\"}",
            "{\"features\": [1, 2], \"label\": \"yes\"}",
            "{\"label\": \"yes\"}",
            "{\"features\": {\" \": 1.5}, \"label\": \"yes\"}",
            "{\"features\": {\"a\": 1.1e100}, \"label\": \"yes\"}",
            "{\"features\": {\"a\": null}, \"label\": \"yes\"}",
            "{\"features\": {\"a\": [1]}, \"label\": \"yes\"}",
            "{\"features\": {\"a\": 1, \"student\": \"bell\\u0007\"}, \"label\": \"yes\"}",
            "{\"features\": {\"a\": 1, \"student\": \"" + LABEL_256 + "z\"}, \"label\": \"yes\"}",
            "{\"features\": {\"a\": 1, \"student\": {\"v\": 1}}, \"label\": \"yes\"}",
            "[{\"features\": {\"a\": 1}, \"label\": \"yes\"}]",
            "\"text\"");

    @ParameterizedTest
    @FieldSource("LABELLED")
    void theLabelledEventSchemaAcceptsExactlyWhatTheDecoderAccepts(String json) {
        Decoded<?> decoded = EventDecoder.decodeLabelled(json.getBytes(StandardCharsets.UTF_8),
                EventDecoder.DEFAULT_MAX_FEATURES, CATEGORICAL);
        List<String> problems = JsonSchemas.problems(JsonSchemas.LABELLED_EVENT, JsonSchemas.parse(json));
        assertEquals(decoded.isOk(), problems.isEmpty(), json + "\n decoder: " + (decoded.isOk() ? "ok"
                : decoded.error()) + "\n schema: " + problems);
    }

    /** Unlabelled events, decoded as above. */
    static final List<String> UNLABELLED = List.of(
            "{\"id\": \"e1\", \"features\": {\"a\": 1.5, \"b\": null}}",
            "{\"id\": 17, \"features\": {\"a\": 1.5}}",
            "{\"id\": null, \"features\": {\"a\": null, \"student\": \"Yes\"}}",
            "{\"features\": {\"student\": false}}",
            "{\"id\": 1.5, \"features\": {\"a\": 1.5}}",
            "{\"id\": {\"x\": 1}, \"features\": {\"a\": 1.5}}",
            "{\"id\": \"e2\", \"features\": {\"a\": null, \"b\": null}}",
            "{\"id\": \"e3\", \"features\": {}}",
            "{\"id\": \"e4\"}",
            "{\"id\": \"e5\", \"features\": {\"a\": -2e100}}",
            "{\"id\": \"e6\", \"features\": {\"\": 1.0}}",
            "{\"id\": \"e7\", \"features\": {\"a\": 1, \"student\": \"x\\u001f\"}}",
            "{\"id\": \"e8\", \"features\": {\"a\": true}}".replace("true", "[true]"));

    @ParameterizedTest
    @FieldSource("UNLABELLED")
    void theUnlabelledEventSchemaAcceptsExactlyWhatTheDecoderAccepts(String json) {
        Decoded<?> decoded = EventDecoder.decodeUnlabelled(json.getBytes(StandardCharsets.UTF_8),
                EventDecoder.DEFAULT_MAX_FEATURES, CATEGORICAL);
        List<String> problems = JsonSchemas.problems(JsonSchemas.UNLABELLED_EVENT, JsonSchemas.parse(json));
        assertEquals(decoded.isOk(), problems.isEmpty(), json + "\n decoder: " + (decoded.isOk() ? "ok"
                : decoded.error()) + "\n schema: " + problems);
    }

    private static ObjectNode tree(Object value) {
        return Json.mapper().valueToTree(value);
    }

    private static void assertRejected(String schema, ObjectNode valid, Consumer<ObjectNode> damage, String what) {
        assertEquals(List.of(), JsonSchemas.problems(schema, valid), "the undamaged record must pass: " + valid);
        ObjectNode damaged = valid.deepCopy();
        damage.accept(damaged);
        assertFalse(JsonSchemas.problems(schema, damaged).isEmpty(), schema + " must reject " + what + ": " + damaged);
    }

    private static Prediction scored() {
        return Prediction.scored("row-1", "b", Map.of("a", 0.25, "b", 0.75), -1.5, "m", 3L, false, null)
                .withTailProbability(0.4)
                .withExplanation(new Prediction.Explanation(2, Map.of("a", new Prediction.ClassTerms(-0.69, -2.1, 3.0),
                        "b", new Prediction.ClassTerms(-0.69, -1.0, 0.5))));
    }

    @Test
    void thePredictionSchemaRejectsMissingRequiredFieldsWrongTypesAndMixedShapes() {
        ObjectNode scored = tree(scored());
        ObjectNode unscored = tree(Prediction.unscored("row-2", "no model yet", null, null));
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.remove("label"), "a scored prediction without label");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.remove("probabilities"), "no probabilities");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.remove("status"), "no status");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.put("logDensity", "-1.5"), "a string logDensity");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.with("probabilities").put("a", 1.25),
                "a probability above 1");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.put("otherProbability", 0.1),
                "otherProbability without otherClasses");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.put("reason", "x"), "a scored prediction with a reason");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.put("colour", "red"), "an unknown field");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.with("explanation").with("classes").with("a")
                .remove("logLikelihood"), "a class term missing");
        assertRejected(JsonSchemas.PREDICTION, scored, p -> p.putNull("outlier"), "a null field");
        assertRejected(JsonSchemas.PREDICTION, unscored, p -> p.remove("reason"), "an unscored one without reason");
        assertRejected(JsonSchemas.PREDICTION, unscored, p -> p.put("label", "a"), "an unscored one with a label");
        assertRejected(JsonSchemas.PREDICTION, unscored, p -> p.put("status", "maybe"), "an unknown status");
    }

    @Test
    void theModelSchemaRejectsMissingRequiredFieldsAndWrongTypes() {
        ModelParameters model = new ModelParameters("m", 3, List.of("x"), 5,
                List.of(new ClassParameters("a", 2, 0.4, new double[] {1.0}, new double[][] {{0.25}}),
                        new ClassParameters("b", 3, 0.6, new double[] {2.0}, new double[][] {{0.5}})),
                Map.of("0", 5L), "2026-11-25T12:00:00.123Z", "trainer-app")
                .withCategorical(List.of(new CategoricalTable("student", List.of("No", "Yes"),
                        List.of(new long[] {2, 0}, new long[] {1, 2}))));
        ObjectNode valid = tree(model);
        assertRejected(JsonSchemas.MODEL, valid, m -> m.remove("classes"), "a model without classes");
        assertRejected(JsonSchemas.MODEL, valid, m -> m.put("version", "3"), "a string version");
        assertRejected(JsonSchemas.MODEL, valid, m -> ((ObjectNode) m.withArray("classes").get(0)).remove("covariance"),
                "a class without covariance");
        assertRejected(JsonSchemas.MODEL, valid, m -> ((ObjectNode) m.withArray("categorical").get(0))
                .withArray("counts").addArray().add(-1), "a negative category count");
        assertRejected(JsonSchemas.MODEL, valid, m -> m.with("sources").put("p0", 5), "a non-numeric partition");
        ObjectNode gaussian = tree(new ModelParameters("m", 1, List.of("x"), 2,
                List.of(new ClassParameters("a", 2, 1.0, new double[] {1.0}, new double[][] {{0.25}})),
                Map.of("0", 2L), "2026-11-25T12:00:00Z"));
        assertFalse(gaussian.has("categorical"), "a Gaussian model has no categorical field");
        assertTrue(JsonSchemas.problems(JsonSchemas.MODEL, gaussian).isEmpty());
        // Weights and retractions: a weighted class carries its effective count and sample size, both or neither;
        // a class whose every event was retracted has count 0; the model counts its retractions.
        ObjectNode weighted = tree(new ModelParameters("m", 2, List.of("x"), 3,
                List.of(new ClassParameters("a", 3, 1.0, new double[] {1.0}, new double[][] {{0.25}}, 1.75, 1.4),
                        new ClassParameters("b", 0, 0.0, new double[] {0.0}, new double[][] {{0.0}})),
                Map.of("0", 5L), "2026-11-25T12:00:00Z", "trainer-app", null, 2));
        assertTrue(weighted.has("retracted"), weighted.toString());
        assertEquals(List.of(), JsonSchemas.problems(JsonSchemas.MODEL, weighted));
        assertRejected(JsonSchemas.MODEL, weighted, m -> ((ObjectNode) m.withArray("classes").get(0))
                .remove("effectiveSampleSize"), "an effective count without its sample size");
        assertRejected(JsonSchemas.MODEL, weighted, m -> m.put("retracted", -1), "a negative retraction count");
    }

    @Test
    void theDeadLetterSchemaRejectsMissingRequiredFieldsAndWrongTypes() {
        ObjectNode letter = tree(new DeadLetter("missing label", "labelled-events", 2, 17, "a2V5", null));
        assertTrue(letter.get("valueBase64").isNull(), "a tombstone's value is written as null");
        assertRejected(JsonSchemas.DEAD_LETTER, letter, d -> d.remove("reason"), "no reason");
        assertRejected(JsonSchemas.DEAD_LETTER, letter, d -> d.put("offset", "17"), "a string offset");
        assertRejected(JsonSchemas.DEAD_LETTER, letter, d -> d.put("keyBase64", "not base64!"), "a non-base64 key");
    }

    /**
     * The model-metrics records as docs/TRAINING.md shows them ("Prequential evaluation", "Drift detection"); the
     * records the trainer really writes are checked in SchemaIT.
     */
    @Test
    void theModelMetricsSchemaTakesTheDocumentedRecordsAndRejectsDamagedOnes() {
        ObjectNode window = (ObjectNode) JsonSchemas.parse("{\"type\":\"window\",\"modelId\":\"gda\",\"partition\":2,"
                + "\"windowStart\":1700000040000,\"windowEnd\":1700000100000,\"count\":1480,\"accuracy\":0.93,"
                + "\"logLoss\":0.21,\"brier\":0.11,\"recall\":{\"a\":0.95,\"b\":0.9},\"support\":{\"a\":800,\"b\":680},"
                + "\"modelVersions\":[41,44],\"noModel\":0,\"unscorable\":0,\"late\":0}");
        ObjectNode empty = (ObjectNode) JsonSchemas.parse("{\"type\":\"window\",\"modelId\":\"gda\",\"partition\":0,"
                + "\"windowStart\":0,\"windowEnd\":60000,\"count\":0,\"accuracy\":null,\"logLoss\":null,"
                + "\"brier\":null,\"recall\":{},\"support\":{},\"modelVersions\":null,\"noModel\":12,"
                + "\"unscorable\":0,\"late\":0}");
        ObjectNode alert = (ObjectNode) JsonSchemas.parse("{\"type\":\"drift\",\"modelId\":\"gda\",\"partition\":1,"
                + "\"eventTime\":1700000123456,\"detector\":\"page-hinkley\",\"statistic\":50.7,\"threshold\":50.0,"
                + "\"delta\":0.1,\"action\":\"alert\"}");
        ObjectNode reset = alert.deepCopy().put("action", "reset").put("resetGeneration", 1);
        for (ObjectNode valid : List.of(window, empty, alert, reset)) {
            assertEquals(List.of(), JsonSchemas.problems(JsonSchemas.MODEL_METRICS, valid), valid.toString());
        }
        String schema = JsonSchemas.MODEL_METRICS;
        assertRejected(schema, window, w -> w.remove("count"), "a window without its count");
        assertRejected(schema, window, w -> w.put("accuracy", 1.5), "an accuracy above 1");
        assertRejected(schema, window, w -> w.put("accuracy", "0.9"), "a string accuracy");
        assertRejected(schema, window, w -> w.putArray("modelVersions").add(41), "one model version");
        assertRejected(schema, window, w -> w.put("type", "drift"), "a window's fields under type drift");
        assertRejected(schema, window, w -> w.put("eventTime", 5), "a drift field in a window");
        assertRejected(schema, alert, d -> d.put("resetGeneration", 1), "a generation with action alert");
        assertRejected(schema, reset, d -> d.remove("resetGeneration"), "a reset without its generation");
        assertRejected(schema, alert, d -> d.put("action", "restart"), "an unknown action");
        assertRejected(schema, alert, d -> d.put("detector", "adwin"), "another detector");
        assertRejected(schema, alert, d -> d.remove("eventTime"), "an alarm without its event time");
    }
}
