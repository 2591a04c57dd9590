package io.gdastreams.serde;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;

/** The one configured ObjectMapper of the project: strict on input, stable on output. */
public final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            // A duplicated key is ambiguous input ("which value did you mean?"): reject it.
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // Number text <-> double dominates event decoding (JFR, docs/BENCHMARKS.md): the JDK's
            // FloatingDecimal falls back to BigInteger arithmetic for 17-digit values. Both replacements are
            // exact (correctly rounded parse; shortest round-tripping print).
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .addMixIn(Prediction.class, PredictionJson.Record.class)
            .addMixIn(ModelParameters.class, ModelJson.Record.class)
            .addMixIn(ClassParameters.class, ModelJson.ClassRecord.class)
            .addMixIn(CategoricalTable.class, ModelJson.TableRecord.class)
            .addMixIn(Prediction.Status.class, PredictionJson.Status.class)
            .build();

    /**
     * {@link #MAPPER} that also refuses every value whose JSON type differs from the field's: no unknown, missing or
     * null fields, no string or boolean for a number, no float (not even 3.0) for an integer, no number for a
     * string. For records that others may write and that we must not misread (the model topic).
     */
    private static final JsonMapper STRICT = strict();

    static {
        MAPPER.getFactory().configure(JsonParser.Feature.INCLUDE_SOURCE_IN_LOCATION, false);
    }

    private static JsonMapper strict() {
        JsonMapper strict = MAPPER.rebuild()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                // ...but a model record's optional fields, absent, have a meaning: read them as that in one pass.
                .addModule(OptionalModelFields.module())
                .build();
        strict.getFactory().configure(JsonParser.Feature.INCLUDE_SOURCE_IN_LOCATION, false);
        // ALLOW_COERCION_OF_SCALARS covers text to number; these cover number and boolean to text ("label": 5).
        for (CoercionInputShape shape : new CoercionInputShape[] {CoercionInputShape.Integer,
                CoercionInputShape.Float, CoercionInputShape.Boolean}) {
            strict.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        return strict;
    }

    private Json() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** {@code value} as JSON bytes (store entries: schemas, lineage). */
    public static byte[] toBytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JSON array of strings, e.g. a schema: any JSON string is a valid feature name, line breaks included. */
    public static List<String> stringList(byte[] bytes) {
        try {
            return List.of(MAPPER.readValue(bytes, String[].class));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The strict variant of {@link #mapper()} (same output; input must match the target type exactly). */
    public static ObjectMapper strictMapper() {
        return STRICT;
    }
}
