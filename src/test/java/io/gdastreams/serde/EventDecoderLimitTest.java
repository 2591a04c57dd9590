package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.RunningGaussian;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventDecoderLimitTest {

    private static final double RELATIVE = 1e-12;

    private static byte[] labelled(double value) {
        return ("{\"features\": {\"x\": " + value + "}, \"label\": \"a\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldAcceptTheLimitAndRefuseBeyondIt() {
        assertTrue(EventDecoder.decodeLabelled(labelled(EventDecoder.MAX_ABS_VALUE)).isOk());
        assertTrue(EventDecoder.decodeLabelled(labelled(-EventDecoder.MAX_ABS_VALUE)).isOk());
        Decoded<?> beyond = EventDecoder.decodeLabelled(labelled(Math.nextUp(EventDecoder.MAX_ABS_VALUE)));
        assertFalse(beyond.isOk());
        assertTrue(beyond.error().startsWith("feature 'x' magnitude exceeds"), beyond.error());
    }

    /** A record that cannot hold an event at all is dead-lettered with what it is, for either topic. */
    @Test
    void shouldNameWhatARecordThatHoldsNoEventIs() {
        String tombstone = "null value (tombstone) where an event was expected";
        assertEquals(tombstone, EventDecoder.decodeLabelled(null).error());
        assertEquals(tombstone, EventDecoder.decodeUnlabelled(null).error());
        assertEquals("empty value", EventDecoder.decodeLabelled(new byte[0]).error());
        byte[] overlong = "{\"label\": \"a##\", \"features\": {\"x\": 1}}".getBytes(StandardCharsets.UTF_8);
        overlong[12] = (byte) 0xC0; // C0 AF: '/' in an overlong form
        overlong[13] = (byte) 0xAF;
        String reason = "malformed JSON: Invalid UTF-8 at byte 12: 0xC0 0xAF, an overlong encoding";
        assertEquals(reason, EventDecoder.decodeLabelled(overlong).error());
        assertEquals(reason, EventDecoder.decodeUnlabelled(overlong).error());
    }

    @Test
    void shouldKeepStatisticsFiniteForHalfABillionEventsAtTheLimit() {
        // ±M alternating is the worst case for the scatter: it grows like n·M². Two events, then 28 merges of the
        // statistic with itself (δ = 0, so each merge doubles count and scatter exactly) stand for 2^29 ≈ 5.4e8
        // events; at M = 1e150 the scatter would overflow to +Inf.
        double m = EventDecoder.MAX_ABS_VALUE;
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {-m});
        g.update(new double[] {m});
        for (int i = 0; i < 28; i++) {
            g.merge(g.copy());
        }
        long n = 1L << 29;
        assertEquals(n, g.count());
        double expected = n * m * m;
        assertTrue(Double.isFinite(g.scatter()[0][0]), "scatter overflowed");
        assertEquals(0.0, g.mean()[0], m * RELATIVE);
        assertEquals(expected, g.scatter()[0][0], expected * RELATIVE);
    }
}
