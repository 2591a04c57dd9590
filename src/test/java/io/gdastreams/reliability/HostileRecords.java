package io.gdastreams.reliability;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.topology.CarriedHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The catalogue of hostile records, written once and sent to both input topics by the TopologyTestDriver tests
 * and the real-broker tests. Each kind says, per topic, whether it must be dead-lettered (and with which words
 * in the reason) or is in fact a valid event there (a missing label is fine on the unlabelled topic).
 *
 * <p>Every record is judged against the Iris schema {@link #FEATURES} (configured on the trainer, and the model
 * the scorer holds). Reasons are matched by a fragment that names the actual defect, not just "invalid".
 */
public final class HostileRecords {

    public static final List<String> FEATURES = Iris.FEATURES;

    /** Largest record value the broker and producer accept with default settings (message.max.bytes). */
    public static final int BROKER_DEFAULT_MAX_BYTES = 1_048_588;

    /** A value just under the broker's default limit once key, headers and batch overhead are added. */
    static final int NEAR_LIMIT_BYTES = 1_000_000;

    /** The default of gda.max.features: most features an event may carry. */
    static final int MAX_FEATURES = 1024;

    /** Longest event id (UTF-8 bytes) the scorer accepts. */
    static final int MAX_ID_BYTES = 1024;

    private static final long SEED = 8_2026L;

    /** What must happen to a record on one input topic. */
    public record Expectation(boolean deadLettered, String reasonFragment) {

        static Expectation deadLetter(String reasonFragment) {
            return new Expectation(true, Objects.requireNonNull(reasonFragment));
        }

        static Expectation accepted() {
            return new Expectation(false, null);
        }
    }

    /**
     * One kind of bad record.
     *
     * @param kind        short name (used in test names and reports)
     * @param key         record key bytes, null for a null key
     * @param value       record value bytes, null for a tombstone
     * @param labelled    what the trainer must do with it on the labelled topic
     * @param unlabelled  what the scorer must do with it on the unlabelled topic
     * @param producible  false when a default producer refuses to send it (too large for the broker)
     * @param headers     the record's headers (outputs carry them when small, CarriedHeaders)
     */
    public record Hostile(String kind, byte[] key, byte[] value, Expectation labelled, Expectation unlabelled,
                          boolean producible, List<Header> headers) {

        Hostile(String kind, byte[] key, byte[] value, Expectation labelled, Expectation unlabelled,
                boolean producible) {
            this(kind, key, value, labelled, unlabelled, producible, List.of());
        }

        @Override
        public String toString() {
            return kind;
        }

        public int size() {
            return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        }
    }

    private HostileRecords() {
    }

    /** A valid labelled event (also a valid unlabelled event: the scorer ignores the label). */
    public static byte[] validEvent(double[] x, String label) {
        return json("{\"features\": {\"sepal_length\": " + x[0] + ", \"sepal_width\": " + x[1]
                + ", \"petal_length\": " + x[2] + ", \"petal_width\": " + x[3] + "}, \"label\": \"" + label + "\"}");
    }

    /** Every kind, in a fixed order; the random bytes come from a fixed seed. */
    public static List<Hostile> catalogue() {
        Random random = new Random(SEED);
        List<Hostile> all = new ArrayList<>();
        String ok4 = "\"sepal_length\": 5.1, \"sepal_width\": 3.5, \"petal_length\": 1.4";

        // Not JSON, or not a JSON object.
        bad(all, "truncated JSON", "{\"features\": {\"sepal_length\": 5.1, ", "malformed JSON");
        bad(all, "trailing garbage", "{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"setosa\"} xyz",
                "malformed JSON");
        bad(all, "two objects concatenated", "{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"a\"}"
                + "{\"features\": {}}", "malformed JSON");
        bad(all, "comment in JSON", "{/* hi */ \"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"a\"}",
                "malformed JSON");
        bad(all, "single-quoted strings", "{'features': {'sepal_length': 1}, 'label': 'a'}", "malformed JSON");
        bad(all, "leading-zero number", "{\"features\": {" + ok4 + ", \"petal_width\": 00.2}, \"label\": \"a\"}",
                "malformed JSON");
        bad(all, "hex number", "{\"features\": {" + ok4 + ", \"petal_width\": 0x10}, \"label\": \"a\"}",
                "malformed JSON");
        byte[] garbage = new byte[256];
        random.nextBytes(garbage);
        garbage[0] = (byte) 0xFF; // never a valid first byte of UTF-8 JSON, so the outcome does not hang on the seed
        all.add(new Hostile("binary garbage", key("garbage"), garbage, Expectation.deadLetter("malformed JSON"),
                Expectation.deadLetter("malformed JSON"), true));
        byte[] badUtf8 = json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"XX\"}");
        int at = indexOf(badUtf8, "XX");
        badUtf8[at] = (byte) 0xC3; // a two-byte sequence start followed by an ASCII byte
        all.add(new Hostile("invalid UTF-8 in a string", key("utf8"), badUtf8,
                Expectation.deadLetter("malformed JSON"), Expectation.deadLetter("malformed JSON"), true));
        // Forms Jackson's byte parser decodes without a word: overlong "/" (2, 3 and 4 bytes), an encoded surrogate,
        // a code point beyond U+10FFFF, a lead byte that never starts UTF-8.
        String[][] illFormed = {
            {"C0AF", "0xC0 0xAF, an overlong encoding"}, {"E080AF", "0xE0 0x80, an overlong encoding"},
            {"F08080AF", "0xF0 0x80, an overlong encoding"}, {"EDA080", "0xED 0xA0, an encoded surrogate"},
            {"F4908080", "0xF4 0x90, a code point beyond U+10FFFF"}, {"F8888080", "0xF8, not a UTF-8 byte"},
        };
        for (String[] form : illFormed) {
            byte[] sequence = java.util.HexFormat.of().parseHex(form[0]);
            byte[] label = json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"sm" + "#".repeat(
                    sequence.length) + "all\"}");
            System.arraycopy(sequence, 0, label, indexOf(label, "#"), sequence.length);
            String reason = "malformed JSON: Invalid UTF-8 at byte " + (indexOf(label, "sm") + 2) + ": " + form[1];
            all.add(new Hostile("ill-formed UTF-8 " + form[0] + " in a string", key("utf8-" + form[0]), label,
                    Expectation.deadLetter(reason), Expectation.deadLetter(reason), true));
        }
        // UTF-16 without a byte order mark: every byte ASCII or zero, which Jackson's detection would decode.
        byte[] utf16 = ("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"setosa\"}")
                .getBytes(StandardCharsets.UTF_16BE);
        String nul = "malformed JSON: Invalid UTF-8 at byte 0: 0x00, a NUL byte";
        all.add(new Hostile("UTF-16BE without a byte order mark", key("utf16"), utf16, Expectation.deadLetter(nul),
                Expectation.deadLetter(nul), true));
        all.add(new Hostile("empty value", key("empty"), new byte[0], Expectation.deadLetter("empty value"),
                Expectation.deadLetter("empty value"), true));
        all.add(new Hostile("null value (tombstone)", key("tombstone"), null,
                Expectation.deadLetter("null value (tombstone)"), Expectation.deadLetter("null value (tombstone)"),
                true));
        bad(all, "JSON null", "null", "expected a JSON object, got null");
        bad(all, "JSON array", "[5.1, 3.5, 1.4, 0.2]", "expected a JSON object, got array");
        bad(all, "JSON string", "\"setosa\"", "expected a JSON object, got string");
        bad(all, "JSON number", "42", "expected a JSON object, got number");
        bad(all, "deeply nested JSON", "[".repeat(5000) + "]".repeat(5000), "malformed JSON");
        bad(all, "5000-digit number", "{\"features\": {" + ok4 + ", \"petal_width\": " + "9".repeat(5000)
                + "}, \"label\": \"a\"}", "malformed JSON");

        // Wrong shape of features.
        bad(all, "missing features", "{\"label\": \"setosa\"}", "missing features");
        bad(all, "features null", "{\"features\": null, \"label\": \"setosa\"}", "missing features");
        bad(all, "features an array", "{\"features\": [5.1, 3.5, 1.4, 0.2], \"label\": \"setosa\"}",
                "features must be a JSON object");
        bad(all, "features a string", "{\"features\": \"5.1,3.5,1.4,0.2\", \"label\": \"setosa\"}",
                "features must be a JSON object");
        bad(all, "empty feature map", "{\"features\": {}, \"label\": \"setosa\"}", "features is empty");
        bad(all, "duplicate feature key", "{\"features\": {" + ok4 + ", \"petal_width\": 0.2, \"petal_width\": 9},"
                + " \"label\": \"setosa\"}", "Duplicate field 'petal_width'");
        bad(all, "duplicate top-level key", "{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"a\","
                + " \"label\": \"b\"}", "Duplicate field 'label'");
        bad(all, "blank feature name", "{\"features\": {" + ok4 + ", \"\": 0.2}, \"label\": \"setosa\"}",
                "blank feature name");

        // Wrong types and non-finite or overflowing values.
        bad(all, "number as string", "{\"features\": {" + ok4 + ", \"petal_width\": \"0.2\"}, \"label\": \"a\"}",
                "feature 'petal_width' is not a number: \"0.2\"");
        bad(all, "NaN as string", "{\"features\": {" + ok4 + ", \"petal_width\": \"NaN\"}, \"label\": \"a\"}",
                "feature 'petal_width' is not a number: \"NaN\"");
        bad(all, "Infinity as string", "{\"features\": {" + ok4 + ", \"petal_width\": \"Infinity\"},"
                + " \"label\": \"a\"}", "feature 'petal_width' is not a number: \"Infinity\"");
        bad(all, "-Infinity as string", "{\"features\": {" + ok4 + ", \"petal_width\": \"-Infinity\"},"
                + " \"label\": \"a\"}", "feature 'petal_width' is not a number: \"-Infinity\"");
        bad(all, "NaN as bare token", "{\"features\": {" + ok4 + ", \"petal_width\": NaN}, \"label\": \"a\"}",
                "malformed JSON");
        bad(all, "Infinity as bare token", "{\"features\": {" + ok4 + ", \"petal_width\": Infinity},"
                + " \"label\": \"a\"}", "malformed JSON");
        bad(all, "-Infinity as bare token", "{\"features\": {" + ok4 + ", \"petal_width\": -Infinity},"
                + " \"label\": \"a\"}", "malformed JSON");
        bad(all, "1e400 (overflows to infinity)", "{\"features\": {" + ok4 + ", \"petal_width\": 1e400},"
                + " \"label\": \"a\"}", "feature 'petal_width' is not finite");
        bad(all, "1e308 (square overflows)", "{\"features\": {" + ok4 + ", \"petal_width\": 1e308},"
                + " \"label\": \"a\"}", "feature 'petal_width' magnitude exceeds");
        bad(all, "-1e200 (square overflows)", "{\"features\": {" + ok4 + ", \"petal_width\": -1e200},"
                + " \"label\": \"a\"}", "feature 'petal_width' magnitude exceeds");
        bad(all, "boolean feature", "{\"features\": {" + ok4 + ", \"petal_width\": true}, \"label\": \"a\"}",
                "feature 'petal_width' is not a number: true");
        bad(all, "object feature", "{\"features\": {" + ok4 + ", \"petal_width\": {\"v\": 1}}, \"label\": \"a\"}",
                "feature 'petal_width' is not a number");
        bad(all, "array feature", "{\"features\": {" + ok4 + ", \"petal_width\": [0.2]}, \"label\": \"a\"}",
                "feature 'petal_width' is not a number");
        all.add(new Hostile("every feature null", key("all-null"),
                json("{\"features\": {\"sepal_length\": null, \"sepal_width\": null, \"petal_length\": null,"
                        + " \"petal_width\": null}, \"label\": \"setosa\"}"),
                Expectation.deadLetter("feature 'sepal_length' is not a number: null"),
                Expectation.deadLetter("every feature is null"), true));

        // Valid JSON, wrong schema.
        all.add(new Hostile("wrong feature names", key("names"),
                json("{\"features\": {\"a\": 5.1, \"b\": 3.5, \"c\": 1.4, \"d\": 0.2}, \"label\": \"setosa\"}"),
                Expectation.deadLetter("feature set differs from the schema"),
                Expectation.deadLetter("unknown feature(s): a, b, c, d"), true));
        all.add(new Hostile("one extra feature", key("extra"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2, \"colour\": 3}, \"label\": \"setosa\"}"),
                Expectation.deadLetter("unexpected [colour]"), Expectation.deadLetter("unknown feature(s): colour"),
                true));
        all.add(new Hostile("one feature missing", key("missing"),
                json("{\"features\": {" + ok4 + "}, \"label\": \"setosa\"}"),
                Expectation.deadLetter("missing [petal_width]"), Expectation.accepted(), true));
        // gda.max.features (default 1024) is checked before the schema: the bound itself is a valid size.
        all.add(new Hostile("feature map at gda.max.features (1024 entries)", key("max-map"),
                featureMap(MAX_FEATURES, 1), Expectation.deadLetter("feature set differs from the schema"),
                Expectation.deadLetter("unknown feature(s): f0x, f1x, "), true));
        all.add(new Hostile("feature map one over gda.max.features (1025 entries)", key("over-map"),
                featureMap(MAX_FEATURES + 1, 1),
                Expectation.deadLetter("too many features: 1025 > 1024 (gda.max.features)"),
                Expectation.deadLetter("too many features: 1025 > 1024 (gda.max.features)"), true));
        all.add(new Hostile("huge feature map (10001 entries)", key("huge-map"), featureMap(10_001, 1),
                Expectation.deadLetter("too many features: 10001 > 1024 (gda.max.features)"),
                Expectation.deadLetter("too many features: 10001 > 1024 (gda.max.features)"), true));
        all.add(new Hostile("1 MB value (8700 long feature names)", key("near-limit"), nearLimitValue(),
                Expectation.deadLetter("too many features: 8700 > 1024 (gda.max.features)"),
                Expectation.deadLetter("too many features: 8700 > 1024 (gda.max.features)"), true));
        all.add(new Hostile("value over the broker limit", key("over-limit"),
                padded(BROKER_DEFAULT_MAX_BYTES + 1024),
                Expectation.deadLetter("feature 'petal_width' is not a number"),
                Expectation.deadLetter("feature 'petal_width' is not a number"), false));

        // Label problems (labelled topic only; the scorer ignores the label).
        all.add(new Hostile("missing label", key("no-label"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}}"),
                Expectation.deadLetter("missing label"), Expectation.accepted(), true));
        all.add(new Hostile("label a number", key("label-number"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": 3}"),
                Expectation.deadLetter("label must be a JSON string, got number"), Expectation.accepted(), true));
        all.add(new Hostile("blank label", key("label-blank"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"  \"}"),
                Expectation.deadLetter("label is blank"), Expectation.accepted(), true));

        all.add(new Hostile("label of 257 characters", key("label-long"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"" + "L".repeat(257) + "\"}"),
                Expectation.deadLetter("label too long: 257 characters > 256"), Expectation.accepted(), true));
        all.add(new Hostile("label with a control character", key("label-control"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"set\\u0007osa\"}"),
                Expectation.deadLetter("label contains a control character (U+0007)"), Expectation.accepted(),
                true));
        // Unpaired UTF-16 surrogates, spelled as JSON escapes: the parser accepts them, but they have no UTF-8
        // form. Both labels would be written as "setosa?" in a partial snapshot, collide there and get the
        // partition's snapshots refused for good: each must be dead-lettered at the edge instead.
        all.add(new Hostile("label with an unpaired high surrogate", key("label-high-surrogate"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"setosa\\ud800\"}"),
                Expectation.deadLetter("label is not valid Unicode: unpaired surrogate U+D800 at index 6"),
                Expectation.accepted(), true));
        all.add(new Hostile("label with an unpaired low surrogate", key("label-low-surrogate"),
                json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"setosa\\udc00\"}"),
                Expectation.deadLetter("label is not valid Unicode: unpaired surrogate U+DC00 at index 6"),
                Expectation.accepted(), true));
        // In a field name the parser itself refuses them (the decoder would too, should the parser change).
        bad(all, "feature name with an unpaired low surrogate", "{\"features\": {" + ok4
                + ", \"petal_width\\udfff\": 0.2}, \"label\": \"setosa\"}",
                "malformed JSON: Unexpected low surrogate in field name: 0xdfff");
        bad(all, "feature name with an unpaired high surrogate", "{\"features\": {" + ok4
                + ", \"petal_width\\ud800\": 0.2}, \"label\": \"setosa\"}",
                "malformed JSON: Broken surrogate pair in field name");
        byte[] cesu = json("{\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"setosaXXX\"}");
        int surrogateAt = indexOf(cesu, "XXX");
        cesu[surrogateAt] = (byte) 0xED; // U+D800 encoded like a BMP character (CESU-8): not UTF-8
        cesu[surrogateAt + 1] = (byte) 0xA0;
        cesu[surrogateAt + 2] = (byte) 0x80;
        all.add(new Hostile("surrogate as raw bytes (CESU-8) in a label", key("label-cesu"), cesu,
                Expectation.deadLetter("malformed JSON"), Expectation.deadLetter("malformed JSON"), true));

        // Id problems (unlabelled topic only; the trainer ignores ids).
        all.add(new Hostile("id an object", key("id-object"),
                json("{\"id\": {\"x\": 1}, \"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"a\"}"),
                Expectation.accepted(), Expectation.deadLetter("id must be a string or an integer"), true));

        // Huge ids and keys: an output repeats the key (and the id), so they must not push it over the limit.
        String valid = "\"features\": {" + ok4 + ", \"petal_width\": 0.2}, \"label\": \"setosa\"";
        all.add(new Hostile("1 KiB id (at the limit)", key("id-1k"),
                json("{\"id\": \"" + "i".repeat(MAX_ID_BYTES - 2) + "\u00e9\", " + valid + "}"),
                Expectation.accepted(), Expectation.accepted(), true));
        all.add(new Hostile("id one byte over 1 KiB", key("id-over"),
                json("{\"id\": \"" + "i".repeat(MAX_ID_BYTES - 1) + "\u00e9\", " + valid + "}"),
                Expectation.accepted(), Expectation.deadLetter("id too long: 1025 bytes of UTF-8 > 1024"), true));
        all.add(new Hostile("600 KB id", key("id-600k"),
                json("{\"id\": \"" + "i".repeat(600_000) + "\", " + valid + "}"),
                Expectation.accepted(), Expectation.deadLetter("id too long: 600000 bytes"), true));
        all.add(new Hostile("2 KB key used as id", "k".repeat(2_000).getBytes(StandardCharsets.UTF_8),
                json("{" + valid + "}"), Expectation.accepted(),
                Expectation.deadLetter("id too long: 2000 bytes of UTF-8 > 1024 (the record key, used as id)"),
                true));
        all.add(new Hostile("600 KB key", "k".repeat(600_000).getBytes(StandardCharsets.UTF_8),
                json("{" + valid + "}"), Expectation.accepted(),
                Expectation.deadLetter("record key too long: 600000 bytes > 65536"), true));
        all.add(new Hostile("1 MB key, malformed value",
                "k".repeat(NEAR_LIMIT_BYTES).getBytes(StandardCharsets.UTF_8), json("{\"features\": "),
                Expectation.deadLetter("malformed JSON"),
                Expectation.deadLetter("record key too long: 1000000 bytes > 65536"), true));

        // Headers: an event with nearly 1 MiB of them is accepted; its outputs must not carry them (the broker
        // would refuse the output, and the task fail on that record after every restart); small ones are carried.
        byte[] blob = new byte[NEAR_LIMIT_BYTES];
        random.nextBytes(blob);
        List<Header> bigHeaders = List.of(new RecordHeader("blob", blob));
        all.add(new Hostile("1 MB of headers, valid event", key("big-headers"), json("{" + valid + "}"),
                Expectation.accepted(), Expectation.accepted(), true, bigHeaders));
        // With its headers, the dead letter of this one (the value in base64) is beyond the broker's limit.
        all.add(new Hostile("1 MB of headers, 40 KB malformed value", key("big-headers-bad"),
                json("[" + "1,".repeat(20_000)), Expectation.deadLetter("malformed JSON"),
                Expectation.deadLetter("malformed JSON"), true, bigHeaders));
        // Many empty headers: a few bytes each on the wire, 200,000 of them in the event; not carried either.
        List<Header> empty = java.util.Collections.nCopies(200_000, new RecordHeader("", (byte[]) null));
        all.add(new Hostile("200,000 empty headers, 40 KB malformed value", key("empty-headers"),
                json("[" + "1,".repeat(20_000)), Expectation.deadLetter("malformed JSON"),
                Expectation.deadLetter("malformed JSON"), true, empty));
        all.add(new Hostile("trace header, malformed value", key("traced"), json("{\"features\": "),
                Expectation.deadLetter("malformed JSON"), Expectation.deadLetter("malformed JSON"), true,
                List.of(new RecordHeader("traceparent",
                        json("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")))));

        // Keys: the dead letter must keep a null or binary key as it was.
        all.add(new Hostile("null key, malformed value", null, json("{\"features\": "),
                Expectation.deadLetter("malformed JSON"), Expectation.deadLetter("malformed JSON"), true));
        byte[] binaryKey = new byte[32];
        random.nextBytes(binaryKey);
        all.add(new Hostile("binary key, wrong-type value", binaryKey,
                json("{\"features\": {" + ok4 + ", \"petal_width\": \"x\"}, \"label\": \"a\"}"),
                Expectation.deadLetter("feature 'petal_width' is not a number"),
                Expectation.deadLetter("feature 'petal_width' is not a number"), true));
        return Collections.unmodifiableList(all);
    }

    /** Whether the outputs of {@code hostile} carry its headers: together at most 16 KiB (README, "Headers"). */
    public static boolean headersCarried(Hostile hostile) {
        return CarriedHeaders.size(hostile.headers(), Long.MAX_VALUE) <= CarriedHeaders.MAX_BYTES;
    }

    /** The kinds a default producer can send. */
    public static List<Hostile> producible() {
        return catalogue().stream().filter(Hostile::producible).toList();
    }

    private static void bad(List<Hostile> all, String kind, String value, String reasonFragment) {
        all.add(new Hostile(kind, key(kind), json(value), Expectation.deadLetter(reasonFragment),
                Expectation.deadLetter(reasonFragment), true));
    }

    /** {@code n} features named f0, f1, … with a name of {@code nameLength} extra characters each. */
    private static byte[] featureMap(int n, int nameLength) {
        StringBuilder s = new StringBuilder("{\"label\": \"setosa\", \"features\": {");
        String padding = "x".repeat(nameLength);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append("\"f").append(i).append(padding).append("\": 1.5");
        }
        return json(s.append("}}").toString());
    }

    /** About {@link #NEAR_LIMIT_BYTES}: 8700 features with ~100-character names the model does not know. */
    private static byte[] nearLimitValue() {
        byte[] value = featureMap(8_700, 100);
        if (value.length > NEAR_LIMIT_BYTES || value.length < NEAR_LIMIT_BYTES * 9 / 10) {
            throw new IllegalStateException("near-limit value has " + value.length + " bytes");
        }
        return value;
    }

    /** A labelled event of {@code size} bytes whose last feature is a long string. */
    private static byte[] padded(int size) {
        String head = "{\"label\": \"setosa\", \"features\": {\"sepal_length\": 5.1, \"sepal_width\": 3.5,"
                + " \"petal_length\": 1.4, \"petal_width\": \"";
        String tail = "\"}}";
        return json(head + "p".repeat(size - head.length() - tail.length()) + tail);
    }

    private static byte[] key(String text) {
        return ("hostile-" + text).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] bytes, String ascii) {
        byte[] needle = ascii.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalArgumentException(ascii + " not found");
    }
}
