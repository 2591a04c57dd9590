package io.gdastreams.serde;

/**
 * Strict UTF-8 (RFC 3629; Unicode's table of well-formed byte sequences) without NUL bytes, for untrusted JSON
 * record bytes. Jackson's byte
 * parser refuses a stray continuation byte or 0xFF, but decodes an overlong form ({@code C0 AF} as "/"), an encoded
 * surrogate and a code point beyond U+10FFFF without a word; a label or id would then differ from its bytes, and an
 * overlong form is how a filtered character is smuggled past a byte-level check. Records are checked here first.
 */
public final class Utf8 {

    private Utf8() {
    }

    /**
     * Why {@code bytes} are not well-formed UTF-8 ("Invalid UTF-8 at byte 9: 0xC0 0xAF, an overlong encoding"), or
     * null when they are. ASCII-only input costs one test per byte.
     */
    public static String problem(byte[] bytes) {
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xFF;
            if (lead == 0) {
                // Valid UTF-8, but never in JSON text (a control character in a string must be escaped), and
                // Jackson takes zero bytes among the first four for UTF-16 or UTF-32, which it would then decode.
                return at(bytes, i, 1, "a NUL byte, which JSON text never holds (UTF-16 or UTF-32?)");
            }
            if (lead < 0x80) {
                i++;
                continue;
            }
            int continuations;
            int low = 0x80;
            int high = 0xBF;
            if (lead >= 0xC2 && lead <= 0xDF) {
                continuations = 1;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                continuations = 2;
                low = lead == 0xE0 ? 0xA0 : low;   // E0 80..9F: overlong
                high = lead == 0xED ? 0x9F : high; // ED A0..BF: a surrogate, U+D800..U+DFFF
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                continuations = 3;
                low = lead == 0xF0 ? 0x90 : low;   // F0 80..8F: overlong
                high = lead == 0xF4 ? 0x8F : high; // F4 90..BF: beyond U+10FFFF
            } else {
                return lead < 0xC0 ? at(bytes, i, 1, "a continuation byte without a lead byte")
                        : lead < 0xC2 ? at(bytes, i, 2, "an overlong encoding") : at(bytes, i, 1, "not a UTF-8 byte");
            }
            for (int k = 1; k <= continuations; k++) {
                if (i + k >= bytes.length) {
                    return at(bytes, i, k, "a sequence cut short by the end of the value");
                }
                int next = bytes[i + k] & 0xFF;
                if (next < 0x80 || next > 0xBF) {
                    return at(bytes, i, k + 1, "a sequence cut short");
                }
                if (k == 1 && (next < low || next > high)) {
                    return at(bytes, i, 2, lead == 0xED ? "an encoded surrogate"
                            : lead == 0xF4 ? "a code point beyond U+10FFFF" : "an overlong encoding");
                }
            }
            i += continuations + 1;
        }
        return null;
    }

    private static String at(byte[] bytes, int start, int length, String what) {
        StringBuilder reason = new StringBuilder("Invalid UTF-8 at byte ").append(start).append(": ");
        for (int k = 0; k < length && start + k < bytes.length; k++) {
            reason.append(k == 0 ? "" : " ").append(String.format("0x%02X", bytes[start + k] & 0xFF));
        }
        return reason.append(", ").append(what).toString();
    }
}
