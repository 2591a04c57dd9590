package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.gdastreams.serde.EventFields;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bounds the scorer puts on a record before scoring it: the key must fit an output key and the id (the event's
 * own, else the key) must fit {@link ScoringProcessor#MAX_ID_BYTES} bytes of UTF-8, counted without encoding it.
 */
class EventIntakeBoundsTest {

    /** Loops over a string's characters finish at once; a miscounted index would not. */
    private static final Duration LOOP_TIMEOUT = Duration.ofSeconds(5);
    private static final ScoringOutcome.ModelStamp STAMP = new ScoringOutcome.ModelStamp("m", 3L, Map.of(), 0);

    private static int encoded(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void shouldCountUtf8BytesAsTheEncoderDoesForWellFormedText() {
        // Each width's first and last character, and a supplementary character (a surrogate pair) after others.
        List<String> texts = List.of("", "a", "\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\ud83d\ude00",
                "x\ud83d\ude00y", "\u00e9t\u00e9 \u2028 \ud834\udd1e!");
        for (String text : texts) {
            int expected = encoded(text);
            assertEquals(expected, assertTimeoutPreemptively(LOOP_TIMEOUT, () -> EventIntake.utf8Length(text)),
                    () -> "UTF-8 length of " + text.codePoints().mapToObj(Integer::toHexString).toList());
        }
    }

    @Test
    void shouldCountAnUnpairedSurrogateAsThreeBytes() {
        // The encoder writes '?' (1 byte) for it; the bound counts the 3 bytes of a surrogate's code unit instead.
        assertEquals(1 + 3, EventIntake.utf8Length("a\ud800"));
        assertEquals(3 + 1, EventIntake.utf8Length("\ud800a"));
        assertEquals(3, EventIntake.utf8Length("\udc00"));
    }

    @Test
    void shouldKeepAnIdOfExactlyTheBoundAndDropALongerOne() {
        String atBound = "\u00e9".repeat(ScoringProcessor.MAX_ID_BYTES / 2); // 2 bytes each
        assertEquals(ScoringProcessor.MAX_ID_BYTES, encoded(atBound));
        assertEquals(atBound, EventIntake.idOrNull(atBound));
        assertNull(EventIntake.idOrNull(atBound + "a"));
        assertNull(EventIntake.idOrNull(null));
    }

    private static byte[] event(String id) {
        String own = id == null ? "" : "\"id\":\"" + id + "\",";
        return ("{" + own + "\"features\":{\"x\":1.5}}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldRefuseAKeyBeyondTheOutputKeyBound() {
        EventIntake intake = new EventIntake(ScoringSettings.defaults("m"));
        byte[] key = new byte[OutputKey.MAX_BYTES + 1];
        Arrays.fill(key, (byte) 'k');
        EventIntake.Checked decoded = intake.check(key, event("e1"), STAMP);
        assertEquals(new UnscoredReason.KeyTooLong(key.length), decoded.refused().reason());
        assertNull(decoded.refused().id());
        assertSame(STAMP, decoded.refused().model());
        // The reader's path checks the key before it looks at the event, so none is needed here.
        EventIntake.Checked read = intake.check(key, (EventFields) null, STAMP);
        assertEquals(new UnscoredReason.KeyTooLong(key.length), read.refused().reason());
    }

    @Test
    void shouldRefuseAnIdBeyondItsBoundWhetherItsOwnOrTheKey() {
        EventIntake intake = new EventIntake(ScoringSettings.defaults("m"));
        String tooLong = "i".repeat(ScoringProcessor.MAX_ID_BYTES + 1);
        EventIntake.Checked own = intake.check(null, event(tooLong), STAMP);
        assertEquals(new UnscoredReason.IdTooLong(tooLong.length(), false), own.refused().reason());
        EventIntake.Checked fromKey = intake.check(tooLong.getBytes(StandardCharsets.UTF_8), event(null), STAMP);
        assertEquals(new UnscoredReason.IdTooLong(tooLong.length(), true), fromKey.refused().reason());
        // No id and no key: scored without an id.
        EventIntake.Checked anonymous = intake.check(null, event(null), STAMP);
        assertNull(anonymous.refused());
        assertNull(anonymous.id());
        assertEquals(1.5, anonymous.event().features().get("x"));
    }
}
