package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.UnlabelledEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Labels and feature names at the edge: valid Unicode (no unpaired surrogate, which has no UTF-8 form), and the
 * label rules that keep a label small and printable. JSON escapes ({@code \\ud800}) are how such strings arrive:
 * raw bytes of a lone surrogate are already refused by the parser as invalid UTF-8.
 */
class EventDecoderTextTest {

    /** A grinning face, U+1F600: one code point, a valid surrogate pair in UTF-16, 4 bytes of UTF-8. */
    private static final String PAIR_ESCAPED = "\\ud83d\\ude00";
    private static final String PAIR = "\ud83d\ude00";

    private static byte[] labelled(String labelJson) {
        return ("{\"features\": {\"x\": 1.5}, \"label\": \"" + labelJson + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] featureNamed(String nameJson, boolean withLabel) {
        return ("{\"features\": {\"x\": 1.5, \"" + nameJson + "\": 2.5}" + (withLabel ? ", \"label\": \"a\"" : "")
                + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static String labelError(String labelJson) {
        Decoded<LabelledEvent> decoded = EventDecoder.decodeLabelled(labelled(labelJson));
        assertTrue(!decoded.isOk(), labelJson + " was accepted");
        return decoded.error();
    }

    @Test
    void shouldRefuseLabelsWithAnUnpairedSurrogateNamingTheCodeUnitAndIndex() {
        assertEquals("label is not valid Unicode: unpaired surrogate U+D800 at index 1", labelError("a\\ud800"));
        assertEquals("label is not valid Unicode: unpaired surrogate U+DC00 at index 1", labelError("a\\udc00"));
        // Low before high is not a pair either; the first unpaired unit is named.
        assertEquals("label is not valid Unicode: unpaired surrogate U+DC00 at index 0", labelError("\\udc00\\ud800"));
        // A high surrogate followed by anything but a low one.
        assertEquals("label is not valid Unicode: unpaired surrogate U+DBFF at index 2",
                labelError("ab\\udbffc" + PAIR_ESCAPED));
    }

    @Test
    void shouldAcceptLabelsWithValidSurrogatePairsEscapedOrRaw() {
        Decoded<LabelledEvent> escaped = EventDecoder.decodeLabelled(labelled("a" + PAIR_ESCAPED));
        Decoded<LabelledEvent> raw = EventDecoder.decodeLabelled(labelled("a" + PAIR));
        assertEquals("a" + PAIR, escaped.value().label());
        assertEquals("a" + PAIR, raw.value().label());
    }

    @Test
    void shouldRefuseFeatureNamesWithAnUnpairedSurrogateOnBothTopics() {
        // Jackson's byte parser already refuses these in field names (the decoder's own check is the second line).
        String low = "malformed JSON: Unexpected low surrogate in field name: 0xdfff";
        assertEquals(low, EventDecoder.decodeLabelled(featureNamed("name\\udfff", true)).error());
        assertEquals(low, EventDecoder.decodeUnlabelled(featureNamed("name\\udfff", false)).error());
        byte[] nullValued = "{\"features\": {\"x\": 1.5, \"y\\ud800\": null}}".getBytes(StandardCharsets.UTF_8);
        assertTrue(EventDecoder.decodeUnlabelled(nullValued).error()
                .startsWith("malformed JSON: Broken surrogate pair in field name"));
        Decoded<LabelledEvent> valid = EventDecoder.decodeLabelled(featureNamed("name" + PAIR_ESCAPED, true));
        assertEquals(List.of("x", "name" + PAIR), List.copyOf(valid.value().features().keySet()));
    }

    @Test
    void shouldKeepTheExistingLabelRulesCountingUtf16Units() {
        String longest = "L".repeat(EventDecoder.MAX_LABEL_CHARS);
        assertEquals(longest, EventDecoder.decodeLabelled(labelled(longest)).value().label());
        assertTrue(labelError(longest + "L").startsWith("label too long: 257 characters > 256: "));
        // 128 pairs are 256 UTF-16 units: the limit, accepted; one more unit is over it.
        String pairs = PAIR.repeat(EventDecoder.MAX_LABEL_CHARS / 2);
        assertEquals(pairs, EventDecoder.decodeLabelled(labelled(pairs)).value().label());
        assertTrue(labelError(pairs + "x").startsWith("label too long: 257 characters > 256: "));
        assertEquals("label contains a control character (U+0007)", labelError("set\\u0007osa"));
        assertEquals("label contains a control character (U+0085)", labelError("set\\u0085osa"));
        assertEquals("label is blank", labelError(" \\t "));
    }

    @Test
    void shouldNotSplitASurrogatePairWhenAbbreviatingALongLabelInTheReason() {
        // The reason quotes the first 61 units; here unit 60 starts a pair, which must stay whole or go.
        String label = "L".repeat(60) + PAIR + "L".repeat(EventDecoder.MAX_LABEL_CHARS);
        String error = labelError(label);
        assertTrue(error.startsWith("label too long: 318 characters > 256: "), error);
        assertNull(UnicodeText.problem(error), error);
        assertTrue(error.endsWith("L".repeat(60) + "..."), error);
    }

    @Test
    void shouldReportTheFirstUnpairedSurrogateOfAString() {
        assertNull(UnicodeText.problem(""));
        assertNull(UnicodeText.problem("plain " + PAIR + " text"));
        assertEquals("unpaired surrogate U+D800 at index 0", UnicodeText.problem("\ud800"));
        assertEquals("unpaired surrogate U+D83D at index 3", UnicodeText.problem("abc\ud83d"));
        assertEquals("unpaired surrogate U+DE00 at index 0", UnicodeText.problem("\ude00\ud83d"));
    }

    /** Shortened texts keep a pair whole or drop it whole, wherever the cut falls (every name length around it). */
    @Test
    void shouldCutTextsShortWithoutSplittingAPair() {
        assertEquals("abc", UnicodeText.cut("abc", 5));
        assertEquals("abcdefgh", UnicodeText.cut("abcdefgh", 8));
        assertEquals("abcde...", UnicodeText.cut("abcdefghi", 8));
        for (int before = 0; before < 12; before++) {
            String text = "a".repeat(before) + PAIR + "tail" + PAIR;
            for (int max = 4; max <= text.length(); max++) {
                String cut = UnicodeText.cut(text, max);
                assertNull(UnicodeText.problem(cut), before + " / " + max + ": " + cut);
                assertTrue(cut.length() <= max && cut.length() >= max - 1 || cut.equals(text), cut);
            }
        }
    }

    @Test
    void shouldRefuseAnIdWithAnUnpairedSurrogateAndEchoNoneOfIt() {
        // The answer echoes the id, as UTF-8: the lone surrogate would be lost there, as in a label.
        Decoded<UnlabelledEvent> lone = EventDecoder.decodeUnlabelled(
                "{\"id\": \"r\\ud800\", \"features\": {\"x\": 1}}".getBytes(StandardCharsets.UTF_8));
        assertEquals("id is not valid Unicode: unpaired surrogate U+D800 at index 1", lone.error());
        assertEquals("r\ud83d\ude00", EventDecoder.decodeUnlabelled(
                "{\"id\": \"r\\ud83d\\ude00\", \"features\": {\"x\": 1}}".getBytes(StandardCharsets.UTF_8))
                .value().id());
    }
}
