package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.model.Prediction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The predictions topic's JSON, as {@link Prediction} documents it: {@code status} in lower case, and a field that
 * does not apply to a shape left out (never written as null). The record itself knows nothing of Jackson; the
 * serde package says how it is written.
 */
class PredictionJsonTest {

    private static final String TOPIC = "predictions";

    private static byte[] write(Prediction prediction) {
        return SerdeFactory.prediction().serializer().serialize(TOPIC, prediction);
    }

    private static JsonNode tree(byte[] json) throws IOException {
        return Json.mapper().readTree(json);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Prediction scored() {
        Map<String, Double> probabilities = new LinkedHashMap<>();
        probabilities.put("virginica", 0.97);
        probabilities.put("versicolor", 0.03);
        return Prediction.scored("row-17", "virginica", probabilities, -3.21, "iris", 42, false);
    }

    @Test
    void shouldWriteAScoredPredictionInLowerCaseWithoutTheUnscoredFields() throws IOException {
        JsonNode json = tree(write(scored()));
        assertEquals(List.of("status", "id", "label", "probabilities", "logDensity", "modelId", "modelVersion",
                "outlier"), fieldNames(json));
        assertEquals("scored", json.get("status").asText());
    }

    @Test
    void shouldWriteAnUnscoredPredictionInLowerCaseWithoutTheScoredFields() throws IOException {
        JsonNode json = tree(write(Prediction.unscored("row-18", "unknown feature(s): colour", "iris", 42L)));
        assertEquals(List.of("status", "id", "modelId", "modelVersion", "reason"), fieldNames(json));
        assertEquals("unscored", json.get("status").asText());
    }

    @Test
    void shouldLeaveOutEveryFieldThatIsNullIncludingTheModel() throws IOException {
        JsonNode json = tree(write(Prediction.unscored(null, "no model yet", null, null)));
        assertEquals(List.of("status", "reason"), fieldNames(json));
    }

    @Test
    void shouldWriteImputationAndExplanationAfterTheOtherFieldsAndReadThemBack() throws IOException {
        Map<String, Prediction.ClassTerms> classes = new LinkedHashMap<>();
        classes.put("versicolor", new Prediction.ClassTerms(-1.0986, -4.10, 1.2));
        classes.put("virginica", new Prediction.ClassTerms(-1.0986, -0.92, 0.4));
        Prediction original = scored().withImputed(Map.of("petal_width", 1.7), 3).withTailProbability(0.93)
                .withExplanation(new Prediction.Explanation(3, classes));
        JsonNode json = tree(write(original));
        assertEquals(List.of("status", "id", "label", "probabilities", "logDensity", "modelId", "modelVersion",
                "outlier", "imputed", "otherImputed", "tailProbability", "explanation"), fieldNames(json));
        assertEquals(List.of("observedFeatures", "classes"), fieldNames(json.get("explanation")));
        assertEquals(List.of("logPrior", "logLikelihood", "squaredMahalanobis"),
                fieldNames(json.get("explanation").get("classes").get("virginica")));
        assertEquals(original, SerdeFactory.prediction().deserializer().deserialize(TOPIC, write(original)));
    }

    /** Categorical imputation: text values in a map of their own, after the unseen values, read back equal. */
    @Test
    void shouldWriteTheImputedCategoriesAsTextAndReadThemBack() throws IOException {
        Prediction original = scored().withImputed(Map.of("income", 33516.9), null)
                .withUnseenValues(Map.of("student", "Maybe"))
                .withImputedCategories(Map.of("student", "No"), 2);
        JsonNode json = tree(write(original));
        assertEquals(List.of("status", "id", "label", "probabilities", "logDensity", "modelId", "modelVersion",
                "outlier", "imputed", "unseenValues", "imputedCategories", "otherImputedCategories"),
                fieldNames(json));
        assertEquals("{\"student\":\"No\"}", json.get("imputedCategories").toString());
        assertEquals(2, json.get("otherImputedCategories").asInt());
        assertEquals(original, SerdeFactory.prediction().deserializer().deserialize(TOPIC, write(original)));
    }

    @Test
    void shouldReadBackWhatItWrites() {
        Prediction original = scored();
        Prediction read = SerdeFactory.prediction().deserializer().deserialize(TOPIC, write(original));
        assertEquals(original, read);
        byte[] unscored = "{\"status\":\"unscored\",\"id\":\"a\",\"reason\":\"r\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(Prediction.unscored("a", "r", null, null),
                SerdeFactory.prediction().deserializer().deserialize(TOPIC, unscored));
    }
}
