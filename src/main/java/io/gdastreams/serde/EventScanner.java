package io.gdastreams.serde;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The fastest path of {@link EventReader}: reads the plain events of a layout of continuous features straight from
 * their bytes, with no parser object, no text buffer and no string per feature name (names are compared as bytes
 * with the layout's, the next expected one first), numbers by {@link JsonNumber}.
 *
 * <p>Like the reader it only ever accepts, and it accepts less: only the fields the reader reads (no other root
 * field), names and strings of printable ASCII without escapes, numbers of at most {@link JsonNumber#MAX_LENGTH}
 * characters, JSON whitespace. Every input it accepts is valid JSON that Jackson reads to the same event, so for
 * anything else it answers false and {@link EventReader} reads the event with Jackson (and leaves to
 * {@link EventDecoder} what it cannot accept). {@code EventReaderParityTest} covers it through the reader.
 */
final class EventScanner {

    private static final byte[] LABEL = ascii("label");
    private static final byte[] FEATURES = ascii("features");
    private static final byte[] WEIGHT = ascii("weight");
    private static final byte[] RETRACT = ascii("retract");
    private static final byte[] ID = ascii("id");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NULL = ascii("null");
    /** Longer strings (labels, ids) are left to Jackson, which bounds them and checks their encoding. */
    private static final int MAX_STRING = 4096;

    /** The layout's continuous names as UTF-8 (a name that needs escaping or is not ASCII never matches). */
    private final byte[][] names;
    /**
     * Each name as an event writes it without whitespace, {@code "name":}, or null when the name could not be
     * written that way unescaped (a quote, a backslash, a control or non-ASCII character).
     */
    private final byte[][] members;
    private final Map<String, Integer> index = new HashMap<>();
    private final int maxFeatures;

    EventScanner(String[] continuous, int maxFeatures) {
        this.names = new byte[continuous.length][];
        this.members = new byte[continuous.length][];
        for (int i = 0; i < continuous.length; i++) {
            names[i] = continuous[i].getBytes(StandardCharsets.UTF_8);
            members[i] = member(continuous[i]);
            index.put(continuous[i], i);
        }
        this.maxFeatures = maxFeatures;
    }

    /** {@code "name":} in ASCII, or null when {@link #string} would not accept the name's bytes as they are. */
    private static byte[] member(String name) {
        for (int k = 0; k < name.length(); k++) {
            char c = name.charAt(k);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                return null;
            }
        }
        return ascii('"' + name + "\":");
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** As {@link EventReader#readLabelled}, for a layout without categorical features; false: let Jackson read it. */
    boolean readLabelled(byte[] b, EventFields out) {
        int i = open(b, 0);
        String label = null;
        double weight = 1.0;
        boolean retract = false;
        int seen = 0;
        while (i >= 0) {
            int nameEnd = string(b, i);
            int v = colon(b, nameEnd);
            if (v < 0) {
                return false;
            }
            int bit;
            if (equal(b, i + 1, nameEnd, FEATURES)) {
                bit = 1;
                i = features(b, v, out, false);
            } else if (equal(b, i + 1, nameEnd, LABEL)) {
                bit = 2;
                int end = string(b, v);
                label = end < 0 ? null : text(b, v + 1, end);
                i = end < 0 ? -1 : end + 1;
            } else if (equal(b, i + 1, nameEnd, WEIGHT)) {
                bit = 4;
                JsonNumber number = out.number;
                boolean ok = number.read(b, v) && WeightLiteral.accepts(number.value, b, v, number.end);
                weight = number.value;
                i = ok ? number.end : -1;
            } else if (equal(b, i + 1, nameEnd, RETRACT)) {
                bit = 8;
                retract = b[v] == 't';
                i = word(b, v, retract ? TRUE : FALSE);
            } else {
                return false;
            }
            if (i < 0 || (seen & bit) != 0) {
                return false;
            }
            seen |= bit;
            i = next(b, i);
        }
        if (i != END || (seen & 3) != 3 || EventDecoder.labelProblem(label) != null) {
            return false;
        }
        out.label = label;
        out.weight = weight;
        out.retract = retract;
        return out.observed == names.length;
    }

    /** As {@link EventReader#readUnlabelled}; false: let Jackson read it. */
    boolean readUnlabelled(byte[] b, EventFields out) {
        int i = open(b, 0);
        String id = null;
        int seen = 0;
        while (i >= 0) {
            int nameEnd = string(b, i);
            int v = colon(b, nameEnd);
            if (v < 0) {
                return false;
            }
            int bit;
            if (equal(b, i + 1, nameEnd, FEATURES)) {
                bit = 1;
                i = features(b, v, out, true);
            } else if (equal(b, i + 1, nameEnd, ID)) {
                bit = 2;
                if (b[v] == '"') {
                    int end = string(b, v);
                    id = end < 0 ? null : text(b, v + 1, end);
                    i = end < 0 ? -1 : end + 1;
                } else if (b[v] == 'n') {
                    id = null;
                    i = word(b, v, NULL);
                } else {
                    i = integerId(b, v, out.number);
                    id = i < 0 ? null : Long.toString((long) out.number.value);
                }
            } else {
                return false;
            }
            if (i < 0 || (seen & bit) != 0) {
                return false;
            }
            seen |= bit;
            i = next(b, i);
        }
        if (i != END || (seen & 1) == 0 || out.observed == 0) {
            return false;
        }
        out.id = id;
        return true;
    }

    /** Marks the end of an object in {@link #next}. */
    private static final int END = -2;

    /** After {@code {} at the first non-blank byte from {@code i}: the index of the first name's quote, or -1. */
    private static int open(byte[] b, int i) {
        i = blank(b, i);
        if (i >= b.length || b[i] != '{') {
            return -1;
        }
        i = blank(b, i + 1);
        return i < b.length && b[i] == '"' ? i : -1;
    }

    /**
     * After a member's value ending before {@code i}: the index of the next name's quote (after a comma), or END
     * after the closing brace of the root object when only whitespace follows it, or -1.
     */
    private static int next(byte[] b, int i) {
        i = blank(b, i);
        if (i >= b.length) {
            return -1;
        }
        if (b[i] == ',') {
            i = blank(b, i + 1);
            return i < b.length && b[i] == '"' ? i : -1;
        }
        return b[i] == '}' && blank(b, i + 1) == b.length ? END : -1;
    }

    /** Reads the features object whose value starts at {@code v}; the index after its closing brace, or -1. */
    private int features(byte[] b, int v, EventFields out, boolean nullMeansMissing) {
        Arrays.fill(out.point, Double.NaN);
        Arrays.fill(out.seen, false);
        out.skipped.clear();
        out.absent.clear();
        if (b[v] != '{') {
            return -1;
        }
        int i = blank(b, v + 1);
        int given = 0;
        int observed = 0;
        int expected = 0;
        JsonNumber number = out.number;
        while (i < b.length && b[i] == '"') {
            int value;
            int slot;
            byte[] member = expected < members.length ? members[expected] : null;
            if (member != null && startsWith(b, i, member)) {
                // The next name of the layout with its colon, as events usually write it: what string and colon
                // would find, without scanning for the closing quote.
                value = blank(b, i + member.length);
                if (value >= b.length || ++given > maxFeatures) {
                    return -1;
                }
                slot = expected;
            } else {
                int nameEnd = string(b, i);
                value = colon(b, nameEnd);
                if (value < 0 || ++given > maxFeatures) {
                    return -1;
                }
                if (expected < names.length && equal(b, i + 1, nameEnd, names[expected])) {
                    slot = expected;
                } else {
                    Integer found = index.get(text(b, i + 1, nameEnd));
                    if (found == null) {
                        return -1;
                    }
                    slot = found;
                }
            }
            if (out.seen[slot]) {
                return -1;
            }
            out.seen[slot] = true;
            expected = slot + 1;
            if (nullMeansMissing && b[value] == 'n') {
                i = word(b, value, NULL);
            } else if (number.read(b, value) && Math.abs(number.value) <= EventDecoder.MAX_ABS_VALUE) {
                out.point[slot] = number.value;
                observed++;
                i = number.end;
            } else {
                return -1;
            }
            if (i < 0) {
                return -1;
            }
            i = blank(b, i);
            if (i < b.length && b[i] == ',') {
                i = blank(b, i + 1);
            } else if (i < b.length && b[i] == '}') {
                out.observed = observed;
                return i + 1;
            } else {
                return -1;
            }
        }
        return -1; // an empty object, or not a name where one must be
    }

    /** An integer id's value (at most 18 digits, read as Jackson's int or long) into {@code number}; end or -1. */
    private static int integerId(byte[] b, int v, JsonNumber number) {
        if (!number.read(b, v)) {
            return -1;
        }
        for (int k = v; k < number.end; k++) {
            if (b[k] == '.' || b[k] == 'e' || b[k] == 'E') {
                return -1;
            }
        }
        int digits = number.end - v - (b[v] == '-' ? 1 : 0);
        return digits <= 15 ? number.end : -1; // exact in a double, so the long is the id's value
    }

    /** The index of the closing quote of the string whose opening quote is at {@code i}, or -1. */
    private static int string(byte[] b, int i) {
        if (i < 0 || i >= b.length || b[i] != '"') {
            return -1;
        }
        int limit = Math.min(b.length, i + 1 + MAX_STRING);
        for (int k = i + 1; k < limit; k++) {
            byte c = b[k];
            if (c == '"') {
                return k;
            }
            if (c < 0x20 || c >= 0x7f || c == '\\') {
                return -1; // control, non-ASCII (negative) or escape: Jackson decodes it
            }
        }
        return -1;
    }

    /** After the name ending at the quote {@code nameEnd}: the first byte of the value after the colon, or -1. */
    private static int colon(byte[] b, int nameEnd) {
        if (nameEnd < 0) {
            return -1;
        }
        int i = blank(b, nameEnd + 1);
        if (i >= b.length || b[i] != ':') {
            return -1;
        }
        i = blank(b, i + 1);
        return i < b.length ? i : -1;
    }

    /** The index after the literal {@code word} at {@code i}, or -1. */
    private static int word(byte[] b, int i, byte[] word) {
        return equal(b, i, Math.min(b.length, i + word.length), word) ? i + word.length : -1;
    }

    /**
     * Whether {@code b[from, to)} holds {@code expected}'s bytes. A plain loop: names are a few bytes, where
     * {@code Arrays.equals}' range checks and call into the vectorised mismatch cost more than the comparison
     * (4 % of the scorer's stream-thread samples, sixteen names per event). Callers pass {@code from <= to <=
     * b.length}.
     */
    private static boolean equal(byte[] b, int from, int to, byte[] expected) {
        int n = expected.length;
        if (to - from != n) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (b[from + k] != expected[k]) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code b} holds {@code prefix}'s bytes from {@code at}. */
    private static boolean startsWith(byte[] b, int at, byte[] prefix) {
        int to = at + prefix.length;
        return to <= b.length && equal(b, at, to, prefix);
    }

    /** Printable ASCII as a string (what Jackson decodes it to). */
    private static String text(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** The first index from {@code i} that is not JSON whitespace. */
    private static int blank(byte[] b, int i) {
        while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        return i;
    }
}
