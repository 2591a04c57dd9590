package io.gdastreams.serde;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The one configured ObjectMapper of the project: strict on input, stable on output. */
public final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
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
            .build();

    static {
        MAPPER.getFactory().configure(JsonParser.Feature.INCLUDE_SOURCE_IN_LOCATION, false);
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
}
