package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The text of an event's {@code weight}: a weight of 0 must be written as 0. A literal such as {@code 1e-400} reads
 * as the double 0 (it underflows), but the event asked for a weight below {@link EventDecoder#MIN_POSITIVE_WEIGHT},
 * which is refused; taken as 0 it would be applied without a trace of its weight.
 */
final class WeightLiteral {

    /** JSON's zero: an integer part 0, any zero fraction, any exponent. */
    private static final Pattern ZERO = Pattern.compile("-?0(\\.0+)?([eE][+-]?[0-9]+)?");

    private WeightLiteral() {
    }

    /** Whether the number text {@code text} is a zero. */
    static boolean isZero(String text) {
        return ZERO.matcher(text).matches();
    }

    /** Whether {@code w}, read from the number text {@code bytes[from, to)}, is a sample weight as written. */
    static boolean accepts(double w, byte[] bytes, int from, int to) {
        return EventDecoder.isWeight(w) && (w != 0.0 || isZero(new String(bytes, from, to - from,
                StandardCharsets.US_ASCII)));
    }

    /** As {@link #accepts(double, byte[], int, int)} for the number {@code p} is at; its text read only for a 0. */
    static boolean accepts(double w, JsonParser p) throws IOException {
        return EventDecoder.isWeight(w) && (w != 0.0 || isZero(p.getText()));
    }

    /**
     * Whether the top-level {@code weight} of the JSON object {@code event} is written as a zero; only asked of an
     * event already parsed whose weight reads as 0, so the second parse is off the common path.
     */
    static boolean writtenAsZero(byte[] event) {
        try (JsonParser p = Json.mapper().getFactory().createParser(event)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                boolean weight = "weight".equals(p.currentName());
                p.nextToken();
                if (weight) {
                    return p.currentToken().isNumeric() && isZero(p.getText());
                }
                p.skipChildren();
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }
}
