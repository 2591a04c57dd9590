package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.LabelledEvent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The optional "weight" and "retract" of a labelled event: read strictly, anything else refused with a reason. */
class EventDecoderWeightTest {

    private static Decoded<LabelledEvent> decode(String extra) {
        return EventDecoder.decodeLabelled(("{\"features\": {\"x\": 1.5}, \"label\": \"a\"" + extra + "}")
                .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEventWithoutEitherIsAnAdditionOfWeightOne() {
        LabelledEvent event = decode("").value();
        assertEquals(1.0, event.weight());
        assertFalse(event.retract());
        assertFalse(event.isWeighted());
    }

    @Test
    void weightsAndRetractionsAreRead() {
        assertEquals(2.5, decode(", \"weight\": 2.5").value().weight());
        assertEquals(0.0, decode(", \"weight\": 0").value().weight());
        assertEquals(EventDecoder.MAX_WEIGHT, decode(", \"weight\": 1e12").value().weight());
        LabelledEvent retraction = decode(", \"retract\": true, \"weight\": 3").value();
        assertTrue(retraction.retract());
        assertEquals(3.0, retraction.weight());
        assertTrue(retraction.isWeighted());
        assertFalse(decode(", \"retract\": false").value().retract());
        assertFalse(decode(", \"weight\": 1.0").value().isWeighted());
    }

    @Test
    void badWeightsAreRefusedWithTheReason() {
        assertEquals("weight is negative: -1", decode(", \"weight\": -1").error());
        assertEquals("weight must be a number, got \"2\"", decode(", \"weight\": \"2\"").error());
        assertEquals("weight must be a number, got null", decode(", \"weight\": null").error());
        assertEquals("weight must be a number, got true", decode(", \"weight\": true").error());
        assertEquals("weight exceeds 1.0E12: 1.0000001E12", decode(", \"weight\": 1.0000001e12").error());
        // Its square would underflow (1e-200² = 0): V, and the effective sample size, would be lost.
        assertEquals("weight is below 1.0E-100 and not 0: 1.0E-200", decode(", \"weight\": 1e-200").error());
        assertEquals(1e-100, decode(", \"weight\": 1e-100").value().weight());
        // Written below the bound, read as 0 (the double underflows): refused as written, not applied as 0.
        assertEquals("weight is below 1.0E-100 and not 0: the number written underflows a double",
                decode(", \"weight\": 1e-400").error());
        assertEquals("weight is below 1.0E-100 and not 0: the number written underflows a double",
                decode(", \"weight\": -1e-400").error());
        for (String zero : new String[] {"0", "-0", "0.0", "0.000", "0e5", "0E-7", "-0.0e+3"}) {
            assertEquals(0.0, Math.abs(decode(", \"weight\": " + zero).value().weight()), zero);
        }
        assertEquals(0.0, decode(", \"weight\": 0").value().weight());
        assertEquals("weight is not finite: it overflows a double (magnitude above 1.8e308)",
                decode(", \"weight\": 1e999").error());
        assertEquals("retract must be true or false, got \"yes\"", decode(", \"retract\": \"yes\"").error());
        assertEquals("retract must be true or false, got 1", decode(", \"retract\": 1").error());
    }
}
