package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.UnlabelledEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link EventReader} and its byte scanner {@link EventScanner} on the inputs the random parity test rarely makes:
 * every truncation of a plain event (a record cut short anywhere), an object without its opening brace, ids at the
 * edge of what a double holds exactly, layouts with several categorical features or awkward names, and the plain
 * events the scanner must read on its own. The reference is always {@link EventDecoder}.
 */
class EventReaderEdgeTest {

    private static final List<String> LAYOUT = List.of("x0", "x1");
    private static final int MAX_FEATURES = EventDecoder.DEFAULT_MAX_FEATURES;

    /** Plain labelled events of {@link #LAYOUT}, every root field the scanner reads, compact and spaced. */
    private static final String[] LABELLED = {
        "{\"features\":{\"x0\":1.5,\"x1\":-2},\"label\":\"a\",\"weight\":2.5,\"retract\":true}",
        "{\"label\":\"b\",\"retract\":false,\"features\":{\"x1\":0.125,\"x0\":3e2},\"weight\":0}",
        " { \"label\" : \"c\" , \"features\" : { \"x0\" : -0.0 , \"x1\" : 7 } , \"weight\" : 1e-3 } "};
    /** Plain unlabelled events: ids as a string, as integers of at most 15 digits, as null; a feature as null. */
    private static final String[] UNLABELLED = {
        "{\"id\":\"e-1\",\"features\":{\"x0\":1.5,\"x1\":null}}",
        "{\"features\":{\"x1\":3},\"id\":123456789012345}",
        "{\"id\":-999999999999999,\"features\":{\"x0\":0.25,\"x1\":-1}}",
        "{\"id\":null,\"features\":{\"x0\":4}}",
        " { \"features\" : { \"x0\" : 1 , \"x1\" : 2 } , \"id\" : \"r 2\" } "};

    private final EventReader reader = new EventReader(LAYOUT, List.of(), MAX_FEATURES);
    private final EventScanner scanner = new EventScanner(LAYOUT.toArray(String[]::new), MAX_FEATURES);

    /**
     * A record cut short at any byte (in a name, a string, a number, after a colon or a comma) is refused by the
     * scanner and the reader, as by the decoder, and never read past its end.
     */
    @Test
    void shouldRefuseEveryTruncationOfAPlainEvent() {
        for (String event : LABELLED) {
            for (int end = 0; end < event.stripTrailing().length(); end++) {
                byte[] cut = bytes(event.substring(0, end));
                assertFalse(EventDecoder.decodeLabelled(cut).isOk(), event.substring(0, end));
                assertFalse(scanner.readLabelled(cut, reader.newFields()), event.substring(0, end));
                assertFalse(reader.readLabelled(cut, reader.newFields()), event.substring(0, end));
            }
        }
        for (String event : UNLABELLED) {
            for (int end = 0; end < event.stripTrailing().length(); end++) {
                byte[] cut = bytes(event.substring(0, end));
                assertFalse(EventDecoder.decodeUnlabelled(cut).isOk(), event.substring(0, end));
                assertFalse(scanner.readUnlabelled(cut, reader.newFields()), event.substring(0, end));
                assertFalse(reader.readUnlabelled(cut, reader.newFields()), event.substring(0, end));
            }
        }
    }

    /** Members without the object around them are not an event, however well formed the rest. */
    @Test
    void shouldRefuseMembersWithoutTheirOpeningBrace() {
        byte[] labelled = bytes("\"features\":{\"x0\":1,\"x1\":2},\"label\":\"a\"}");
        byte[] unlabelled = bytes("\"features\": {\"x0\": 1, \"x1\": 2}}");
        assertFalse(EventDecoder.decodeLabelled(labelled).isOk());
        assertFalse(reader.readLabelled(labelled, reader.newFields()));
        assertFalse(EventDecoder.decodeUnlabelled(unlabelled).isOk());
        assertFalse(reader.readUnlabelled(unlabelled, reader.newFields()));
    }

    /** The plain events are the scanner's own (no Jackson on the hot path), with the decoder's values to the bit. */
    @Test
    void shouldScanEveryPlainEventWithTheDecodersValues() {
        EventFields fields = reader.newFields();
        for (String event : LABELLED) {
            assertTrue(scanner.readLabelled(bytes(event), fields), event);
            LabelledEvent expected = EventDecoder.decodeLabelled(bytes(event)).value();
            assertArrayEquals(new double[] {expected.features().get("x0"), expected.features().get("x1")},
                    fields.point(), event);
            assertEquals(Double.doubleToRawLongBits(expected.features().get("x0")),
                    Double.doubleToRawLongBits(fields.point()[0]), event);
            assertEquals(expected.label(), fields.label(), event);
            assertEquals(expected.weight(), fields.weight(), event);
            assertEquals(expected.retract(), fields.retract(), event);
        }
        for (String event : UNLABELLED) {
            assertTrue(scanner.readUnlabelled(bytes(event), fields), event);
            UnlabelledEvent expected = EventDecoder.decodeUnlabelled(bytes(event)).value();
            assertArrayEquals(new double[] {expected.features().getOrDefault("x0", Double.NaN),
                expected.features().getOrDefault("x1", Double.NaN)}, fields.point(), event);
            assertEquals(expected.id(), fields.id(), event);
        }
    }

    /**
     * An integer id is echoed as its digits: from 16 digits a double no longer holds every integer (2^53 + 1, 10^16
     * - 1), so such ids must not be read through one.
     */
    @Test
    void shouldEchoIntegerIdsOfEveryLengthAsTheirDigits() {
        for (String id : new String[] {"999999999999999", "-999999999999999", "9007199254740993", "9999999999999999",
            "-9999999999999999", "1000000000000001", "12345678901234567"}) {
            byte[] event = bytes("{\"id\":" + id + ",\"features\":{\"x0\":1}}");
            EventFields fields = reader.newFields();
            assertTrue(reader.readUnlabelled(event, fields), id);
            assertEquals(id, EventDecoder.decodeUnlabelled(event).value().id());
            assertEquals(id, fields.id());
        }
    }

    /** Several categorical features, given in any order among the continuous ones, each in its own slot. */
    @Test
    void shouldReadSeveralCategoricalFeaturesIntoTheirSlots() {
        List<String> categorical = List.of("a", "b", "c");
        EventReader mixed = new EventReader(List.of("x0"), categorical, MAX_FEATURES);
        byte[] event = bytes("{\"label\":\"l\",\"features\":{\"c\":\"3\",\"x0\":1.5,\"a\":\"one\",\"b\":true}}");
        EventFields fields = mixed.newFields();
        assertTrue(mixed.readLabelled(event, fields));
        LabelledEvent expected = EventDecoder.decodeLabelled(event, MAX_FEATURES, Set.copyOf(categorical)).value();
        assertEquals(List.of("one", "true", "3"), List.of(expected.categories().get("a"),
                expected.categories().get("b"), expected.categories().get("c")));
        assertEquals(List.of("one", "true", "3"), Arrays.asList(fields.categories()));
        assertEquals(1.5, fields.point()[0]);
    }

    /**
     * A blank layout name (which the decoder refuses in any event) makes the layout one the reader leaves wholly to
     * the decoder, whatever valid names come after it, categorical ones too.
     */
    @Test
    void shouldLeaveALayoutWithABlankNameToTheDecoder() {
        EventReader blank = new EventReader(List.of("x0", " "), List.of("c"), MAX_FEATURES);
        byte[] event = bytes("{\"label\":\"l\",\"features\":{\"x0\":1,\" \":2,\"c\":\"red\"}}");
        assertEquals("blank feature name", EventDecoder.decodeLabelled(event, MAX_FEATURES, Set.of("c")).error());
        assertFalse(blank.readLabelled(event, blank.newFields()));
    }

    /**
     * A layout name that begins with the bytes that may precede a name in an event (a space, a quote): the event's
     * name {@code "y"} is not the layout's {@code  "y}, wherever it stands, so the event is not of the layout.
     */
    @Test
    void shouldNotTakeTheBytesBeforeANameForPartOfIt() {
        EventReader awkward = new EventReader(List.of("x0", " \"y"), List.of(), MAX_FEATURES);
        for (String event : new String[] {"{\"features\":{\"x0\":1, \"y\":2},\"label\":\"a\"}",
            "{\"features\":{ \"y\":2,\"x0\":1},\"label\":\"a\"}"}) {
            LabelledEvent decoded = EventDecoder.decodeLabelled(bytes(event)).value();
            assertEquals(Set.of("x0", "y"), decoded.features().keySet(), event);
            assertFalse(awkward.readLabelled(bytes(event), awkward.newFields()), event);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
