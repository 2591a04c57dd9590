package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.reliability.HostileRecords.Hostile;
import java.util.Arrays;
import java.util.Base64;

/** What a dead letter for a hostile record must say, in the driver tests and on a real broker alike. */
final class DeadLetterChecks {

    private DeadLetterChecks() {
    }

    /**
     * The reason names the defect, the source is where the record was read, and the original bytes are kept:
     * whole, or (for records too large to carry twice within the broker's limit) a prefix that the reason
     * declares as truncated.
     */
    static void assertDeadLetterOf(Hostile hostile, String reasonFragment, DeadLetter letter, String topic,
                                   int partition, long offset) {
        assertNotNull(letter, hostile.kind() + ": no dead letter");
        assertTrue(letter.reason().contains(reasonFragment),
                hostile.kind() + ": reason '" + abbreviate(letter.reason()) + "' lacks '" + reasonFragment + "'");
        assertEquals(topic, letter.topic(), hostile.kind());
        assertEquals(partition, letter.partition(), hostile.kind());
        assertEquals(offset, letter.offset(), hostile.kind());
        assertBytesKept(hostile.kind() + " key", hostile.key(), letter.keyBase64(), letter.reason());
        assertBytesKept(hostile.kind() + " value", hostile.value(), letter.valueBase64(), letter.reason());
    }

    private static void assertBytesKept(String what, byte[] original, String base64, String reason) {
        if (original == null) {
            assertNull(base64, what + " was null");
            return;
        }
        assertNotNull(base64, what);
        byte[] kept = Base64.getDecoder().decode(base64);
        if (kept.length == original.length) {
            assertArrayEquals(original, kept, what);
        } else {
            assertTrue(kept.length < original.length, what + ": more bytes kept than sent");
            assertArrayEquals(Arrays.copyOf(original, kept.length), kept, what + ": kept bytes are not a prefix");
            assertTrue(reason.contains("truncated"), what + ": shortened but the reason does not say so");
        }
    }

    static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 297) + "...";
    }
}
