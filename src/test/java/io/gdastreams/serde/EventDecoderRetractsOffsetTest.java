package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.LabelledEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The optional "retractsOffset" of a labelled event (docs/TRAINING.md, "Reset on drift"): a non-negative JSON
 * integer, only on a retraction; anything else is refused with a reason. The fast reader never accepts it, so the
 * decoder reads and checks every event that carries it.
 */
class EventDecoderRetractsOffsetTest {

    private static final String EVENT = "{\"features\": {\"x\": 1.5}, \"label\": \"a\"";

    private static byte[] bytes(String extra) {
        return (EVENT + extra + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static Decoded<LabelledEvent> decode(String extra) {
        return EventDecoder.decodeLabelled(bytes(extra));
    }

    @Test
    void aRetractionNamesTheOffsetOfItsEvent() {
        assertEquals(42, decode(", \"retract\": true, \"retractsOffset\": 42").value().retractsOffset());
        assertEquals(0, decode(", \"retractsOffset\": 0, \"retract\": true").value().retractsOffset());
        assertEquals(Long.MAX_VALUE, decode(", \"retract\": true, \"retractsOffset\": " + Long.MAX_VALUE).value()
                .retractsOffset());
        LabelledEvent plain = decode(", \"retract\": true").value();
        assertTrue(plain.retract());
        assertEquals(LabelledEvent.NO_OFFSET, plain.retractsOffset(), "a retraction without it names none");
        assertEquals(LabelledEvent.NO_OFFSET, decode("").value().retractsOffset());
    }

    @Test
    void anythingButANonNegativeIntegerOnARetractionIsRefusedWithTheReason() {
        String retraction = ", \"retract\": true, \"retractsOffset\": ";
        assertEquals("retractsOffset is negative: -1", decode(retraction + "-1").error());
        assertEquals("retractsOffset must be an integer, got 10.5", decode(retraction + "10.5").error());
        assertEquals("retractsOffset must be an integer, got 10.0", decode(retraction + "10.0").error());
        assertEquals("retractsOffset must be an integer, got 1000.0", decode(retraction + "1e3").error());
        assertEquals("retractsOffset must be a non-negative integer (the input offset of the retracted event), got"
                + " \"7\"", decode(retraction + "\"7\"").error());
        assertEquals("retractsOffset must be a non-negative integer (the input offset of the retracted event), got"
                + " null", decode(retraction + "null").error());
        assertEquals("retractsOffset must be a non-negative integer (the input offset of the retracted event), got"
                + " true", decode(retraction + "true").error());
        assertEquals("retractsOffset exceeds the largest offset (9223372036854775807): 9223372036854775808",
                decode(retraction + "9223372036854775808").error());
        assertEquals("retractsOffset is negative: -99999999999999999999",
                decode(retraction + "-99999999999999999999").error());
    }

    @Test
    void onlyARetractionMayCarryIt() {
        String reason = "retractsOffset is given but the event is not a retraction (\"retract\": true)";
        assertEquals(reason, decode(", \"retractsOffset\": 3").error());
        assertEquals(reason, decode(", \"retract\": false, \"retractsOffset\": 3").error());
    }

    @Test
    void theFastReaderLeavesEveryEventWithItToTheDecoder() {
        EventReader reader = new EventReader(List.of("x"), List.of(), EventDecoder.DEFAULT_MAX_FEATURES);
        EventFields fields = reader.newFields();
        assertTrue(reader.readLabelled(bytes(", \"retract\": true"), fields), "a plain retraction is read");
        assertTrue(fields.retract());
        for (String extra : List.of(", \"retract\": true, \"retractsOffset\": 4", ", \"retractsOffset\": 4",
                ", \"retract\": true, \"retractsOffset\": -4",
                ", \"other\": 1, \"retract\": true, \"retractsOffset\": 4")) {
            assertFalse(reader.readLabelled(bytes(extra), fields), extra);
        }
        // With a categorical layout the Jackson path reads the event: it too leaves the field to the decoder.
        EventReader categorical = new EventReader(List.of("x"), List.of("c"), EventDecoder.DEFAULT_MAX_FEATURES);
        byte[] event = "{\"features\": {\"x\": 1.5, \"c\": \"u\"}, \"label\": \"a\", \"retract\": true}"
                .getBytes(StandardCharsets.UTF_8);
        assertTrue(categorical.readLabelled(event, categorical.newFields()));
        byte[] named = ("{\"features\": {\"x\": 1.5, \"c\": \"u\"}, \"label\": \"a\", \"retract\": true,"
                + " \"retractsOffset\": 2}").getBytes(StandardCharsets.UTF_8);
        assertFalse(categorical.readLabelled(named, categorical.newFields()));
    }
}
