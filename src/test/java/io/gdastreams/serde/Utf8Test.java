package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Utf8} on hand cases, and against the JDK's strict UTF-8 decoder (the independent reference; NUL bytes
 * aside, which JSON text never holds) at random.
 */
class Utf8Test {

    private static final long SEED = 20261128L;
    private static final int RANDOM_CASES = 200_000;

    @Test
    void wellFormedTextIsAccepted() {
        assertNull(Utf8.problem(new byte[0]));
        assertNull(Utf8.problem("plain ASCII {\"x\": 1}".getBytes(StandardCharsets.UTF_8)));
        // 2, 3 and 4 bytes, the edges of each range: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF
        assertNull(Utf8.problem("\u0080\u07ff\u0800\ud7ff\ue000\uffff\ud800\udc00\udbff\udfff é 日本 🙂"
                .getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void eachIllFormedSequenceIsNamedWithItsPlace() {
        assertEquals("Invalid UTF-8 at byte 1: 0xC0 0xAF, an overlong encoding", problem("61C0AF"));
        assertEquals("Invalid UTF-8 at byte 0: 0xC1 0xBF, an overlong encoding", problem("C1BF"));
        assertEquals("Invalid UTF-8 at byte 0: 0xE0 0x9F, an overlong encoding", problem("E09FBF"));
        assertEquals("Invalid UTF-8 at byte 0: 0xF0 0x8F, an overlong encoding", problem("F08FBFBF"));
        assertEquals("Invalid UTF-8 at byte 0: 0xED 0xA0, an encoded surrogate", problem("EDA080"));
        assertEquals("Invalid UTF-8 at byte 0: 0xF4 0x90, a code point beyond U+10FFFF", problem("F4908080"));
        assertEquals("Invalid UTF-8 at byte 0: 0xF5, not a UTF-8 byte", problem("F5808080"));
        assertEquals("Invalid UTF-8 at byte 0: 0xFF, not a UTF-8 byte", problem("FF"));
        assertEquals("Invalid UTF-8 at byte 2: 0x80, a continuation byte without a lead byte", problem("616280"));
        assertEquals("Invalid UTF-8 at byte 0: 0xC3 0x41, a sequence cut short", problem("C341"));
        assertEquals("Invalid UTF-8 at byte 0: 0xE6 0x97 0x41, a sequence cut short", problem("E69741"));
        assertEquals("Invalid UTF-8 at byte 0: 0xF0 0x9F 0x99, a sequence cut short by the end of the value",
                problem("F09F99"));
        // {"label":"AB"} in UTF-16BE without a byte order mark: every byte ASCII or zero; Jackson would read it.
        assertEquals("Invalid UTF-8 at byte 0: 0x00, a NUL byte, which JSON text never holds (UTF-16 or UTF-32?)",
                Utf8.problem("{\"label\":\"AB\"}".getBytes(StandardCharsets.UTF_16BE)));
    }

    @Test
    void agreesWithTheJdksStrictDecoderOnRandomBytes() {
        SplittableRandom random = new SplittableRandom(SEED);
        int refused = 0;
        for (int c = 0; c < RANDOM_CASES; c++) {
            byte[] bytes = new byte[1 + random.nextInt(6)];
            for (int i = 0; i < bytes.length; i++) {
                // Mostly bytes of the multi-byte ranges, where the edge cases are.
                bytes[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt(0x80) : 0x80 + random.nextInt(0x80));
            }
            boolean jdk = strictlyDecodes(bytes) && !containsNul(bytes);
            assertEquals(jdk, Utf8.problem(bytes) == null, () -> HexFormat.of().formatHex(bytes));
            refused += jdk ? 0 : 1;
        }
        assertTrue(refused > RANDOM_CASES / 2 && refused < RANDOM_CASES, "both outcomes are exercised: " + refused);
    }

    private static String problem(String hex) {
        return Utf8.problem(HexFormat.of().parseHex(hex));
    }

    private static boolean containsNul(byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean strictlyDecodes(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
