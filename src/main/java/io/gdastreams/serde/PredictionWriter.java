package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.gdastreams.model.Prediction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes a {@link Prediction} as the bytes of the predictions topic, field by field on a {@link JsonGenerator}: no
 * reflection, no intermediate tree. The output is byte for byte what the project mapper writes with the
 * {@link PredictionJson} mix-ins (record component order, null fields left out, status in lower case, doubles by the
 * mapper's generator, so non-finite values as it writes them); {@code PredictionWriterTest} compares the two over
 * many random predictions with every optional field. The mix-ins still say how a prediction is read back.
 * A new field of {@link Prediction} goes here too, in component order (docs/ARCHITECTURE.md).
 */
public final class PredictionWriter {

    private PredictionWriter() {
    }

    /** {@code prediction} as UTF-8 JSON. */
    public static byte[] toBytes(Prediction prediction) {
        try (ByteArrayBuilder bytes = new ByteArrayBuilder(256)) {
            try (JsonGenerator g = Json.mapper().createGenerator(bytes, JsonEncoding.UTF8)) {
                write(prediction, g);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Prediction p, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("status", p.status() == Prediction.Status.SCORED ? "scored" : "unscored");
        string(g, "id", p.id());
        string(g, "label", p.label());
        numbers(g, "probabilities", p.probabilities());
        number(g, "otherProbability", p.otherProbability());
        integer(g, "otherClasses", p.otherClasses());
        number(g, "logDensity", p.logDensity());
        string(g, "modelId", p.modelId());
        if (p.modelVersion() != null) {
            g.writeNumberField("modelVersion", p.modelVersion().longValue());
        }
        if (p.outlier() != null) {
            g.writeBooleanField("outlier", p.outlier());
        }
        string(g, "reason", p.reason());
        strings(g, "excluded", p.excluded());
        integer(g, "otherExcluded", p.otherExcluded());
        numbers(g, "imputed", p.imputed());
        integer(g, "otherImputed", p.otherImputed());
        number(g, "tailProbability", p.tailProbability());
        if (p.explanation() != null) {
            explanation(g, p.explanation());
        }
        string(g, "decision", p.decision());
        number(g, "expectedCost", p.expectedCost());
        strings(g, "unseenValues", p.unseenValues());
        strings(g, "imputedCategories", p.imputedCategories());
        integer(g, "otherImputedCategories", p.otherImputedCategories());
        g.writeEndObject();
    }

    private static void explanation(JsonGenerator g, Prediction.Explanation explanation) throws IOException {
        g.writeObjectFieldStart("explanation");
        g.writeNumberField("observedFeatures", explanation.observedFeatures());
        g.writeObjectFieldStart("classes");
        for (Map.Entry<String, Prediction.ClassTerms> entry : explanation.classes().entrySet()) {
            g.writeFieldName(entry.getKey());
            Prediction.ClassTerms terms = entry.getValue();
            if (terms == null) {
                g.writeNull();
                continue;
            }
            g.writeStartObject();
            g.writeNumberField("logPrior", terms.logPrior());
            g.writeNumberField("logLikelihood", terms.logLikelihood());
            g.writeNumberField("squaredMahalanobis", terms.squaredMahalanobis());
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void string(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    private static void number(JsonGenerator g, String name, Double value) throws IOException {
        if (value != null) {
            g.writeNumberField(name, value.doubleValue());
        }
    }

    private static void integer(JsonGenerator g, String name, Integer value) throws IOException {
        if (value != null) {
            g.writeNumberField(name, value.intValue());
        }
    }

    /** A map of numbers (null values are written as null, as the mapper writes map contents). */
    private static void numbers(JsonGenerator g, String name, Map<String, Double> values) throws IOException {
        if (values == null) {
            return;
        }
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, Double> entry : values.entrySet()) {
            g.writeFieldName(entry.getKey());
            if (entry.getValue() == null) {
                g.writeNull();
            } else {
                g.writeNumber(entry.getValue().doubleValue());
            }
        }
        g.writeEndObject();
    }

    private static void strings(JsonGenerator g, String name, Map<String, String> values) throws IOException {
        if (values == null) {
            return;
        }
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, String> entry : values.entrySet()) {
            g.writeFieldName(entry.getKey());
            g.writeString(entry.getValue());
        }
        g.writeEndObject();
    }
}
