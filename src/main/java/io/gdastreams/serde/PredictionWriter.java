package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.BufferRecycler;
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

    private static final JsonFactory FACTORY = Json.mapper().getFactory();
    // The field names, encoded once (as the mapper's bean serializer keeps them).
    private static final SerializedString SCORED = new SerializedString("scored");
    private static final SerializedString UNSCORED = new SerializedString("unscored");
    private static final SerializedString STATUS = new SerializedString("status");
    private static final SerializedString ID = new SerializedString("id");
    private static final SerializedString LABEL = new SerializedString("label");
    private static final SerializedString PROBABILITIES = new SerializedString("probabilities");
    private static final SerializedString OTHER_PROBABILITY = new SerializedString("otherProbability");
    private static final SerializedString OTHER_CLASSES = new SerializedString("otherClasses");
    private static final SerializedString LOG_DENSITY = new SerializedString("logDensity");
    private static final SerializedString MODEL_ID = new SerializedString("modelId");
    private static final SerializedString MODEL_VERSION = new SerializedString("modelVersion");
    private static final SerializedString OUTLIER = new SerializedString("outlier");
    private static final SerializedString REASON = new SerializedString("reason");
    private static final SerializedString EXCLUDED = new SerializedString("excluded");
    private static final SerializedString OTHER_EXCLUDED = new SerializedString("otherExcluded");
    private static final SerializedString IMPUTED = new SerializedString("imputed");
    private static final SerializedString OTHER_IMPUTED = new SerializedString("otherImputed");
    private static final SerializedString TAIL_PROBABILITY = new SerializedString("tailProbability");
    private static final SerializedString EXPLANATION = new SerializedString("explanation");
    private static final SerializedString OBSERVED_FEATURES = new SerializedString("observedFeatures");
    private static final SerializedString CLASSES = new SerializedString("classes");
    private static final SerializedString LOG_PRIOR = new SerializedString("logPrior");
    private static final SerializedString LOG_LIKELIHOOD = new SerializedString("logLikelihood");
    private static final SerializedString SQUARED_MAHALANOBIS = new SerializedString("squaredMahalanobis");
    private static final SerializedString DECISION = new SerializedString("decision");
    private static final SerializedString EXPECTED_COST = new SerializedString("expectedCost");
    private static final SerializedString UNSEEN_VALUES = new SerializedString("unseenValues");
    private static final SerializedString IMPUTED_CATEGORIES = new SerializedString("imputedCategories");
    private static final SerializedString OTHER_IMPUTED_CATEGORIES = new SerializedString("otherImputedCategories");

    private PredictionWriter() {
    }

    /** {@code prediction} as UTF-8 JSON. */
    public static byte[] toBytes(Prediction prediction) {
        // As the mapper's writeValueAsBytes: the byte blocks come from (and go back to) the factory's recycler pool,
        // rather than being allocated per prediction.
        BufferRecycler recycler = FACTORY._getBufferRecycler();
        try (ByteArrayBuilder bytes = new ByteArrayBuilder(recycler)) {
            try (JsonGenerator g = Json.mapper().createGenerator(bytes, JsonEncoding.UTF8)) {
                write(prediction, g);
            }
            byte[] result = bytes.toByteArray();
            bytes.release();
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            recycler.releaseToPool();
        }
    }

    private static void write(Prediction p, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeFieldName(STATUS);
        g.writeString(p.status() == Prediction.Status.SCORED ? SCORED : UNSCORED);
        string(g, ID, p.id());
        string(g, LABEL, p.label());
        numbers(g, PROBABILITIES, p.probabilities());
        number(g, OTHER_PROBABILITY, p.otherProbability());
        integer(g, OTHER_CLASSES, p.otherClasses());
        number(g, LOG_DENSITY, p.logDensity());
        string(g, MODEL_ID, p.modelId());
        if (p.modelVersion() != null) {
            g.writeFieldName(MODEL_VERSION);
            g.writeNumber(p.modelVersion().longValue());
        }
        if (p.outlier() != null) {
            g.writeFieldName(OUTLIER);
            g.writeBoolean(p.outlier());
        }
        string(g, REASON, p.reason());
        strings(g, EXCLUDED, p.excluded());
        integer(g, OTHER_EXCLUDED, p.otherExcluded());
        numbers(g, IMPUTED, p.imputed());
        integer(g, OTHER_IMPUTED, p.otherImputed());
        number(g, TAIL_PROBABILITY, p.tailProbability());
        if (p.explanation() != null) {
            explanation(g, p.explanation());
        }
        string(g, DECISION, p.decision());
        number(g, EXPECTED_COST, p.expectedCost());
        strings(g, UNSEEN_VALUES, p.unseenValues());
        strings(g, IMPUTED_CATEGORIES, p.imputedCategories());
        integer(g, OTHER_IMPUTED_CATEGORIES, p.otherImputedCategories());
        g.writeEndObject();
    }

    private static void explanation(JsonGenerator g, Prediction.Explanation explanation) throws IOException {
        g.writeFieldName(EXPLANATION);
        g.writeStartObject();
        g.writeFieldName(OBSERVED_FEATURES);
        g.writeNumber(explanation.observedFeatures());
        g.writeFieldName(CLASSES);
        g.writeStartObject();
        for (Map.Entry<String, Prediction.ClassTerms> entry : explanation.classes().entrySet()) {
            g.writeFieldName(entry.getKey());
            Prediction.ClassTerms terms = entry.getValue();
            if (terms == null) {
                g.writeNull();
                continue;
            }
            g.writeStartObject();
            g.writeFieldName(LOG_PRIOR);
            g.writeNumber(terms.logPrior());
            g.writeFieldName(LOG_LIKELIHOOD);
            g.writeNumber(terms.logLikelihood());
            g.writeFieldName(SQUARED_MAHALANOBIS);
            g.writeNumber(terms.squaredMahalanobis());
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void string(JsonGenerator g, SerializedString name, String value) throws IOException {
        if (value != null) {
            g.writeFieldName(name);
            g.writeString(value);
        }
    }

    private static void number(JsonGenerator g, SerializedString name, Double value) throws IOException {
        if (value != null) {
            g.writeFieldName(name);
            g.writeNumber(value.doubleValue());
        }
    }

    private static void integer(JsonGenerator g, SerializedString name, Integer value) throws IOException {
        if (value != null) {
            g.writeFieldName(name);
            g.writeNumber(value.intValue());
        }
    }

    /** A map of numbers (null values are written as null, as the mapper writes map contents). */
    private static void numbers(JsonGenerator g, SerializedString name, Map<String, Double> values)
            throws IOException {
        if (values == null) {
            return;
        }
        g.writeFieldName(name);
        g.writeStartObject();
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

    private static void strings(JsonGenerator g, SerializedString name, Map<String, String> values)
            throws IOException {
        if (values == null) {
            return;
        }
        g.writeFieldName(name);
        g.writeStartObject();
        for (Map.Entry<String, String> entry : values.entrySet()) {
            g.writeFieldName(entry.getKey());
            g.writeString(entry.getValue());
        }
        g.writeEndObject();
    }
}
