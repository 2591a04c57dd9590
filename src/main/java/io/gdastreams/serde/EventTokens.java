package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/** The token-level helpers of {@link EventReader}'s Jackson path: its parser, values read as the decoder reads them. */
final class EventTokens {

    private EventTokens() {
    }

    /** The decimal text of an integer token, as the tree's {@code asText()} gives it (no sign of -0, no exponent). */
    static String integerText(JsonParser p) throws IOException {
        return switch (p.getNumberType()) {
            case INT -> Integer.toString(p.getIntValue());
            case LONG -> Long.toString(p.getLongValue());
            default -> p.getBigIntegerValue().toString();
        };
    }

    /**
     * The parser of one event: the project mapper's without its duplicate detector (a hash set per object, 8 % of
     * the scorer's stream-thread time in JFR). This reader finds duplicates itself (root fields by flag, features by
     * slot, skipped names by list) and leaves to the decoder what it cannot check: a container in a skipped field.
     */
    static JsonParser parser(byte[] bytes) throws IOException {
        JsonParser p = Json.mapper().createParser(bytes);
        p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return p;
    }

    /**
     * Whether a root field this reader does not read can be passed over: a scalar, under a name not seen before. Its
     * value is still decoded, as the tree decodes it: a string's bytes must be valid UTF-8 (a surrogate spelt in raw
     * bytes is malformed) and within the parser's length bound, a number within its digit bound.
     */
    static boolean skippable(String field, JsonToken value, EventFields out, JsonParser p)
            throws IOException {
        if (value.isStructStart() || out.skipped.contains(field)) {
            return false;
        }
        if (value == JsonToken.VALUE_STRING) {
            p.getText();
        } else if (value == JsonToken.VALUE_NUMBER_INT) {
            p.getNumberValue();
        } else if (value == JsonToken.VALUE_NUMBER_FLOAT) {
            p.getDoubleValue();
        }
        out.skipped.add(field);
        return true;
    }

    /** A categorical value as {@link EventDecoder} reads it, or null when it would refuse it. */
    static String category(JsonParser p, JsonToken value) throws IOException {
        return switch (value) {
            case VALUE_TRUE -> "true";
            case VALUE_FALSE -> "false";
            case VALUE_STRING -> {
                String text = p.getText();
                yield EventDecoder.categoryTextProblem(text) == null ? text : null;
            }
            default -> null;
        };
    }
}
