package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.bench.SyntheticStream;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.reliability.HostileRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The streaming {@link EventReader} against the tree decoder {@link EventDecoder} (the reference: its reasons are
 * the ones reported), over generated events and mutations of them that hit every rule of the decoder. For every
 * input the reader may accept only when the decoder accepts an event of the reader's layout, and then gives the
 * decoder's values to the bit; it must accept every such event except one with a JSON object or array in a field it
 * does not read (it leaves those to the decoder, whose parser checks them for duplicate keys). So a reader that
 * accepted too much, or nothing, fails.
 */
class EventReaderParityTest {

    private static final long SEED = 17;
    private static final int EVENTS = 20_000;
    private static final List<String> LAYOUT = List.of("x0", "x1", "x2", "x3", "x4", "x5");
    private static final List<String> CATEGORICAL = List.of("colour");
    /** A bound below the layout's size in some runs, so that the size check is reached with known names. */
    private static final int[] MAX_FEATURES = {5, 7, 64};

    /** Values: plain doubles, the bounds, integers of every width, subnormals, spellings the parser reads apart. */
    private static final String[] NUMBERS = {"0", "-0", "-0.0", "1", "1.5", "1e100", "-1e100", "1.0000000000000002e100",
        "1e101", "-1e400", "1e400", "4.9e-324", "1e-400", "2147483648", "-9223372036854775809",
        "123456789012345678901234567890", "1" + "0".repeat(120), "0.1000000000000000055511151231257827",
        "3.141592653589793238462643383279", "1E5", "2.5e-3", "17", "1.5E+3", "-0e0", "0.000001", "123456789012345678",
        "9007199254740993", "1e22", "1e23", "-2.2250738585072012e-308"};
    /** Values that are not numbers. */
    private static final String[] OTHERS = {"null", "\"1\"", "true", "false", "[]", "[1]", "{}", "{\"a\": 1}", "\"\"",
        "01", "1.", ".5", "+1", "1e", "-", "1.5x", "tru", "nul", "NaN", "1 2"};
    /** Separators between members and between a name and its value: JSON's whitespace in every place. */
    private static final String[] COMMAS = {", ", ",", " ,\n\t", "\r\n,"};
    private static final String[] COLONS = {": ", ":", " : ", "\t:\n"};
    private static final String[] LABELS = {"\"a\"", "\"b\"", "\"  \"", "\"\"", "\"\\u0001x\"", "\"x\\u007f\"",
        "\"\\ud800\"", "\"\\ud83d\\ude00\"", "\"" + "l".repeat(256) + "\"", "\"" + "l".repeat(257) + "\"", "null", "5",
        "true", "[\"a\"]", "\"é\""};
    private static final String[] CATEGORIES = {"\"red\"", "\"\"", "\"  \"", "true", "false", "5", "null",
        "\"\\u0007\"", "\"" + "c".repeat(300) + "\"", "[]", "\"\\udc00\""};
    private static final String[] WEIGHTS = {"0", "-0.0", "2.5", "-1", "1e12", "1.0000000000001e12", "1e13", "\"1\"",
        "1e-100", "9.9999999999e-101", "1e-200", "4.9e-324",
        "null", "true", "1e400", "3", "1e-400", "-1e-400", "0e5", "0.000"};
    private static final String[] RETRACTS = {"true", "false", "null", "\"true\"", "1"};
    private static final String[] IDS = {"\"r-1\"", "42", "-0", "123456789012345678901234567890", "1.5", "true", "null",
        "{}", "\"\"", "9223372036854775807", "\"\\ud800\"", "\"\\ud83d\\ude00\""};
    /** Whole values that are not a single object, or break the syntax. */
    private static final String[] BROKEN = {"", " ", "[1]", "5", "\"s\"", "null", "{", "{\"label\": \"a\"",
        "{\"label\": \"a\"} {}", "{\"label\": \"a\"} x", "{\"label\": \"a\"}]", "{'label': 'a'}", "{\"features\": NaN}"};

    private final Random random = new Random(SEED);
    /** Whether the last generated event has an object or array in a field the reader does not read. */
    private boolean skippedContainer;

    @Test
    void shouldAcceptExactlyTheLabelledEventsTheDecoderAcceptsWithTheSameValues() {
        int accepted = 0;
        int scanned = 0;
        for (int n = 0; n < EVENTS; n++) {
            int maxFeatures = MAX_FEATURES[random.nextInt(MAX_FEATURES.length)];
            boolean withCategories = random.nextBoolean();
            List<String> categorical = withCategories ? CATEGORICAL : List.of();
            EventReader reader = new EventReader(LAYOUT, categorical, maxFeatures);
            byte[] bytes = labelledEvent(withCategories);
            // The reader tries its scanner first: what the scanner accepts is what the reader returns, checked below.
            if (!withCategories && new EventScanner(LAYOUT.toArray(String[]::new), maxFeatures)
                    .readLabelled(bytes, reader.newFields())) {
                scanned++;
            }
            accepted += checkLabelled(reader, reader.newFields(), maxFeatures, categorical, bytes) ? 1 : 0;
        }
        // The mutations leave a fair share of events valid: a reader that refused everything would fail here.
        assertTrue(accepted > EVENTS / 10, "only " + accepted + " accepted");
        assertTrue(scanned > EVENTS / 20, "only " + scanned + " scanned without Jackson");
    }

    /**
     * As the two tests above, with one reader and one {@link EventFields} per layout for every event, as a stream
     * task uses them: what an event leaves in the fields (its values, its count of observed features, categories)
     * must never make the reader accept the next event, or give it a value of its own.
     */
    @Test
    void shouldGiveTheDecodersAnswersWithItsFieldsReusedFromEventToEvent() {
        int accepted = 0;
        for (int maxFeatures : MAX_FEATURES) {
            for (List<String> categorical : List.of(List.<String>of(), CATEGORICAL)) {
                EventReader reader = new EventReader(LAYOUT, categorical, maxFeatures);
                EventFields fields = reader.newFields();
                for (int n = 0; n < EVENTS / 6; n++) {
                    boolean withCategories = !categorical.isEmpty();
                    boolean ok = withCategories || random.nextBoolean()
                            ? checkLabelled(reader, fields, maxFeatures, categorical, labelledEvent(withCategories))
                            : checkUnlabelled(reader, fields, maxFeatures, unlabelledEvent());
                    accepted += ok ? 1 : 0;
                }
            }
        }
        assertTrue(accepted > EVENTS / 10, "only " + accepted + " accepted");
    }

    /** Whether {@code reader} accepts {@code bytes} into {@code fields}, checked against the decoder. */
    private boolean checkLabelled(EventReader reader, EventFields fields, int maxFeatures, List<String> categorical,
                                  byte[] bytes) {
        boolean fast = reader.readLabelled(bytes, fields);
        Decoded<LabelledEvent> tree = EventDecoder.decodeLabelled(bytes, maxFeatures, Set.copyOf(categorical));
        String text = new String(bytes, StandardCharsets.UTF_8);
        boolean layout = tree.isOk() && tree.value().features().keySet().equals(Set.copyOf(LAYOUT))
                && tree.value().categories().keySet().equals(Set.copyOf(categorical));
        assertEquals(layout, fast || (layout && skippedContainer), () -> "reader and decoder disagree on " + text
                + " (decoder: " + (tree.isOk() ? tree.value() : tree.error()) + ")");
        if (fast) {
            LabelledEvent event = tree.value();
            for (int i = 0; i < LAYOUT.size(); i++) {
                assertEquals(Double.doubleToRawLongBits(event.features().get(LAYOUT.get(i))),
                        Double.doubleToRawLongBits(fields.point()[i]), text);
            }
            assertEquals(event.label(), fields.label(), text);
            assertEquals(Double.doubleToRawLongBits(event.weight()), Double.doubleToRawLongBits(fields.weight()),
                    text);
            assertEquals(event.retract(), fields.retract(), text);
            for (int j = 0; j < categorical.size(); j++) {
                assertEquals(event.categories().get(categorical.get(j)), fields.categories()[j], text);
            }
        }
        return fast;
    }

    /**
     * Layout names that JSON must escape (a quote, a backslash): the scanner matches the next expected name as the
     * bytes {@code "name":}, which for such a name would also match text that is not JSON. Escaped, the event is read
     * as the decoder reads it; written raw, it is refused as the decoder refuses it.
     */
    @Test
    void shouldReadLayoutNamesThatNeedEscapingOnlyAsTheDecoderDoes() {
        List<String> layout = List.of("a\"b", "c\\d", "x");
        String escaped = "{\"features\":{\"a\\\"b\":1.5,\"c\\\\d\":-2,\"x\":3},\"label\":\"l\"}";
        String raw = "{\"features\":{\"a\"b\":1.5,\"c\\d\":-2,\"x\":3},\"label\":\"l\"}";
        EventReader reader = new EventReader(layout, List.of(), EventDecoder.DEFAULT_MAX_FEATURES);
        EventFields fields = reader.newFields();

        Decoded<LabelledEvent> decoded = EventDecoder.decodeLabelled(escaped.getBytes(StandardCharsets.UTF_8),
                EventDecoder.DEFAULT_MAX_FEATURES, Set.of());
        assertTrue(decoded.isOk(), escaped);
        assertTrue(reader.readLabelled(escaped.getBytes(StandardCharsets.UTF_8), fields), escaped);
        assertEquals(List.of(1.5, -2.0, 3.0), List.of(fields.point()[0], fields.point()[1], fields.point()[2]));

        assertFalse(EventDecoder.decodeLabelled(raw.getBytes(StandardCharsets.UTF_8),
                EventDecoder.DEFAULT_MAX_FEATURES, Set.of()).isOk(), raw);
        assertFalse(reader.readLabelled(raw.getBytes(StandardCharsets.UTF_8), reader.newFields()), raw);
        assertFalse(new EventScanner(layout.toArray(String[]::new), EventDecoder.DEFAULT_MAX_FEATURES)
                .readLabelled(raw.getBytes(StandardCharsets.UTF_8), reader.newFields()), raw);
    }

    @Test
    void shouldAcceptExactlyTheUnlabelledEventsTheDecoderAcceptsWithinTheLayout() {
        int accepted = 0;
        int scanned = 0;
        for (int n = 0; n < EVENTS; n++) {
            int maxFeatures = MAX_FEATURES[random.nextInt(MAX_FEATURES.length)];
            EventReader reader = new EventReader(LAYOUT, List.of(), maxFeatures);
            byte[] bytes = unlabelledEvent();
            if (new EventScanner(LAYOUT.toArray(String[]::new), maxFeatures).readUnlabelled(bytes, reader.newFields())) {
                scanned++;
            }
            accepted += checkUnlabelled(reader, reader.newFields(), maxFeatures, bytes) ? 1 : 0;
        }
        assertTrue(accepted > EVENTS / 10, "only " + accepted + " accepted");
        assertTrue(scanned > EVENTS / 20, "only " + scanned + " scanned without Jackson");
    }

    /** Whether {@code reader} accepts unlabelled {@code bytes} into {@code fields}, checked against the decoder. */
    private boolean checkUnlabelled(EventReader reader, EventFields fields, int maxFeatures, byte[] bytes) {
        boolean fast = reader.readUnlabelled(bytes, fields);
        Decoded<UnlabelledEvent> tree = EventDecoder.decodeUnlabelled(bytes, maxFeatures, Set.of());
        String text = new String(bytes, StandardCharsets.UTF_8);
        boolean layout = tree.isOk() && LAYOUT.containsAll(tree.value().features().keySet());
        assertEquals(layout, fast || (layout && skippedContainer), () -> "reader and decoder disagree on " + text
                + " (decoder: " + (tree.isOk() ? tree.value() : tree.error()) + ")");
        if (fast) {
            Map<String, Double> features = tree.value().features();
            for (int i = 0; i < LAYOUT.size(); i++) {
                Double expected = features.get(LAYOUT.get(i));
                assertEquals(Double.doubleToRawLongBits(expected == null ? Double.NaN : expected),
                        Double.doubleToRawLongBits(fields.point()[i]), text);
            }
            assertEquals(features.size(), fields.observed(), text);
            assertEquals(tree.value().id(), fields.id(), text);
        }
        return fast;
    }

    /** The bench's events (the plain JSON of the README's formats) are all read by the scanner, to the bit. */
    @Test
    void shouldScanTheBenchEventsWithTheDecodersValues() {
        SyntheticStream stream = new SyntheticStream(3, 16, SEED);
        List<String> names = stream.featureNames();
        EventScanner scanner = new EventScanner(names.toArray(String[]::new), EventDecoder.DEFAULT_MAX_FEATURES);
        EventFields fields = new EventReader(names, List.of(), EventDecoder.DEFAULT_MAX_FEATURES).newFields();
        for (int i = 0; i < 2000; i++) {
            byte[] labelled = stream.labelled(i);
            assertTrue(scanner.readLabelled(labelled, fields), () -> new String(labelled, StandardCharsets.UTF_8));
            LabelledEvent event = EventDecoder.decodeLabelled(labelled).value();
            for (int j = 0; j < names.size(); j++) {
                assertEquals(Double.doubleToRawLongBits(event.features().get(names.get(j))),
                        Double.doubleToRawLongBits(fields.point()[j]));
            }
            assertEquals(event.label(), fields.label());
            byte[] unlabelled = stream.unlabelled("e-", i);
            assertTrue(scanner.readUnlabelled(unlabelled, fields), () -> new String(unlabelled, StandardCharsets.UTF_8));
            UnlabelledEvent query = EventDecoder.decodeUnlabelled(unlabelled).value();
            for (int j = 0; j < names.size(); j++) {
                assertEquals(Double.doubleToRawLongBits(query.features().get(names.get(j))),
                        Double.doubleToRawLongBits(fields.point()[j]));
            }
            assertEquals(query.id(), fields.id());
        }
    }

    @Test
    void shouldLeaveEventsWithCategoriesAndUnusableLayoutsToTheDecoder() {
        byte[] event = "{\"features\": {\"x0\": 1}}".getBytes(StandardCharsets.UTF_8);
        assertTrue(new EventReader(List.of("x0"), List.of(), 8).readUnlabelled(event, reader().newFields()));
        EventReader categorical = new EventReader(List.of("x0"), CATEGORICAL, 8);
        assertFalse(categorical.readUnlabelled(event, categorical.newFields()));
        EventReader blank = new EventReader(List.of("x0", " "), List.of(), 8);
        assertFalse(blank.readUnlabelled(event, blank.newFields()));
    }

    @Test
    void shouldRefuseNestingBeyondTheParsersBoundInAFieldItSkips() {
        String deep = "[".repeat(1500) + "]".repeat(1500);
        byte[] bytes = ("{\"features\": {\"x0\": 1}, \"extra\": " + deep + "}").getBytes(StandardCharsets.UTF_8);
        assertFalse(EventDecoder.decodeUnlabelled(bytes).isOk());
        EventReader reader = new EventReader(List.of("x0"), List.of(), 8);
        assertFalse(reader.readUnlabelled(bytes, reader.newFields()));
    }

    @Test
    void shouldRefuseEveryDuplicateTheDecodersParserRefuses() {
        String[] duplicates = {"{\"features\": {\"x0\": 1, \"x0\": 2}}", "{\"features\": {\"x0\": null, \"x0\": 1}}",
            "{\"features\": {\"x0\": 1, \"y\": null, \"y\": null}}",
            "{\"features\": {\"x0\": 1}, \"n\": 1, \"n\": 2}", "{\"features\": {\"x0\": 1}, \"id\": 1, \"id\": 2}",
            "{\"features\": {\"x0\": 1}, \"features\": {\"x0\": 1}}",
            "{\"features\": {\"x0\": 1}, \"n\": {\"a\": 1, \"a\": 2}}"};
        EventReader reader = new EventReader(List.of("x0", "x1"), List.of(), 8);
        for (String event : duplicates) {
            byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
            assertTrue(EventDecoder.decodeUnlabelled(bytes).error().startsWith("malformed JSON: Duplicate field"),
                    event);
            assertFalse(reader.readUnlabelled(bytes, reader.newFields()), event);
        }
    }

    /** The reliability suite's catalogue of hostile records (encodings, bounds, shapes): never accepted wrongly. */
    @Test
    void shouldAcceptNoHostileRecordTheDecoderRefuses() {
        List<String> iris = List.of("petal_length", "petal_width", "sepal_length", "sepal_width");
        EventReader reader = new EventReader(iris, List.of(), EventDecoder.DEFAULT_MAX_FEATURES);
        EventFields fields = reader.newFields();
        int checked = 0;
        for (HostileRecords.Hostile hostile : HostileRecords.catalogue()) {
            if (reader.readUnlabelled(hostile.value(), fields)) {
                Decoded<UnlabelledEvent> tree = EventDecoder.decodeUnlabelled(hostile.value());
                assertTrue(tree.isOk() && iris.containsAll(tree.value().features().keySet()), hostile.kind());
            }
            if (reader.readLabelled(hostile.value(), fields)) {
                Decoded<LabelledEvent> tree = EventDecoder.decodeLabelled(hostile.value());
                assertTrue(tree.isOk() && tree.value().features().keySet().equals(Set.copyOf(iris)), hostile.kind());
            }
            checked++;
        }
        assertTrue(checked > 50, "catalogue of " + checked);
    }

    private static EventReader reader() {
        return new EventReader(List.of("x0"), List.of(), 8);
    }

    private byte[] labelledEvent(boolean withCategories) {
        List<String[]> root = new ArrayList<>();
        root.add(new String[] {"label", pick(0.9, "\"a\"", LABELS)});
        root.add(new String[] {"features", features(withCategories)});
        if (random.nextInt(4) == 0) {
            root.add(new String[] {"weight", pick(0.5, "1", WEIGHTS)});
        }
        if (random.nextInt(4) == 0) {
            root.add(new String[] {"retract", pick(0.5, "false", RETRACTS)});
        }
        return finish(root, Set.of("label", "features", "weight", "retract"));
    }

    private byte[] unlabelledEvent() {
        List<String[]> root = new ArrayList<>();
        if (random.nextInt(3) > 0) {
            root.add(new String[] {"id", pick(0.3, "\"e-" + random.nextInt(1000) + "\"", IDS)});
        }
        root.add(new String[] {"features", features(false)});
        if (random.nextInt(8) == 0) {
            root.add(new String[] {"label", pick(0.5, "\"a\"", LABELS)});
        }
        return finish(root, Set.of("id", "features"));
    }

    /** Root fields, maybe shuffled, with an unknown field, a duplicate or a dropped one; sometimes broken as a whole. */
    private byte[] finish(List<String[]> root, Set<String> read) {
        skippedContainer = false;
        if (random.nextInt(30) == 0) {
            return BROKEN[random.nextInt(BROKEN.length)].getBytes(StandardCharsets.UTF_8);
        }
        if (random.nextInt(10) == 0) {
            root.add(new String[] {"note", pick(0.5, "{\"deep\": [1, {\"x\": \"y\"}]}", OTHERS)});
        }
        if (random.nextInt(20) == 0) {
            root.remove(random.nextInt(root.size()));
        }
        if (random.nextInt(30) == 0 && !root.isEmpty()) {
            root.add(root.get(random.nextInt(root.size())));
        }
        if (random.nextBoolean()) {
            Collections.shuffle(root, random);
        }
        StringBuilder json = new StringBuilder("{");
        for (String[] field : root) {
            skippedContainer |= !read.contains(field[0]) && (field[1].startsWith("{") || field[1].startsWith("["));
            json.append(json.length() > 1 ? comma() : "").append('"').append(field[0]).append('"').append(colon())
                    .append(field[1]);
        }
        String text = json.append('}').toString();
        if (random.nextInt(40) == 0) {
            text = text + (random.nextBoolean() ? " {}" : " ");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The layout's features (often in layout order), some mutated, dropped, added, duplicated or unknown. */
    private String features(boolean withCategories) {
        if (random.nextInt(40) == 0) {
            return OTHERS[random.nextInt(OTHERS.length)];
        }
        List<String[]> fields = new ArrayList<>();
        for (String name : LAYOUT) {
            fields.add(new String[] {name, random.nextInt(12) == 0 ? value()
                    : Double.toString(random.nextGaussian() * Math.pow(10, random.nextInt(9) - 4))});
        }
        if (withCategories || random.nextInt(20) == 0) {
            fields.add(new String[] {"colour", pick(0.7, "\"red\"", CATEGORIES)});
        }
        if (random.nextInt(10) == 0) {
            fields.remove(random.nextInt(fields.size()));
        }
        if (random.nextInt(15) == 0) {
            fields.add(new String[] {pick(0.5, "y", new String[] {"", " ", "x0 ", "X0", "\\ud800"}), value()});
        }
        if (random.nextInt(40) == 0) {
            fields.add(fields.get(random.nextInt(fields.size())));
        }
        if (random.nextInt(4) == 0) {
            Collections.shuffle(fields, random);
        }
        StringBuilder json = new StringBuilder("{");
        for (String[] field : fields) {
            json.append(json.length() > 1 ? comma() : "").append('"').append(field[0]).append('"').append(colon())
                    .append(field[1]);
        }
        return json.append('}').toString();
    }

    private String comma() {
        return random.nextInt(4) == 0 ? COMMAS[random.nextInt(COMMAS.length)] : ", ";
    }

    private String colon() {
        return random.nextInt(4) == 0 ? COLONS[random.nextInt(COLONS.length)] : ": ";
    }

    private String value() {
        return random.nextInt(4) == 0 ? OTHERS[random.nextInt(OTHERS.length)] : NUMBERS[random.nextInt(NUMBERS.length)];
    }

    /** {@code usual} with probability {@code p}, else one of {@code others}. */
    private String pick(double p, String usual, String[] others) {
        return random.nextDouble() < p ? usual : others[random.nextInt(others.length)];
    }
}
