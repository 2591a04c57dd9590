package io.gdastreams.serde;

import com.fasterxml.jackson.core.io.NumberInput;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reads a JSON number straight from an event's bytes into the double the project's parser gives for it
 * ({@code JsonParser.getDoubleValue}), without Jackson's tokenizer and text buffer: an integer token is the integer
 * rounded to the nearest double (so {@code -0} is +0.0, as Jackson reads it as the int 0), a token with a fraction
 * or an exponent is the correctly rounded value of its decimal text, bit for bit what {@link Double#parseDouble}
 * gives ({@code JsonNumberTest} checks both over random and edge-case inputs).
 *
 * <p>A significand of at most 2^53 with a power of ten of at most 10^22 is computed exactly in double arithmetic
 * (Clinger's fast path: both are exact doubles, so one IEEE multiplication or division is the correctly rounded
 * result); other significands of at most 18 digits by {@link EiselLemire}; what neither can prove (more digits,
 * halfway cases, subnormal or infinite results) goes to Jackson's own correctly rounded parser, through a reused
 * char buffer.
 *
 * <p>It only accepts the JSON grammar ({@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}) and at most
 * {@link #MAX_LENGTH} characters; anything else is refused, for the caller to leave to Jackson. One instance per
 * thread: it keeps the end of the last number read and a scratch buffer.
 */
final class JsonNumber {

    /** Longer numbers (allowed by JSON, up to Jackson's own bound of 1000) are left to Jackson. */
    static final int MAX_LENGTH = 64;
    private static final long MAX_EXACT = 1L << 53;
    private static final double[] POWERS_OF_TEN = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final char[] scratch = new char[MAX_LENGTH];
    /** The index just after the last number read. */
    int end;
    /** The last number read. */
    double value;

    /**
     * Reads the number that starts at {@code bytes[start]} into {@link #value} and {@link #end}: true, or false when
     * the bytes there are not a JSON number of at most {@link #MAX_LENGTH} characters (the caller then leaves the
     * event to Jackson). What follows the number is the caller's to check.
     */
    boolean read(byte[] bytes, int start) {
        int limit = Math.min(bytes.length, start + MAX_LENGTH + 1);
        int i = start;
        boolean negative = i < limit && bytes[i] == '-';
        if (negative) {
            i++;
        }
        if (i >= limit || !digit(bytes[i])) {
            return false;
        }
        long significand = 0;
        int digits = 0; // significant digits in significand (leading zeros not counted)
        int dropped = 0; // significant digits beyond 18 (which always fit a long), not in significand
        int scale = 0; // value = significand * 10^(exponent - scale) when nothing was dropped
        if (bytes[i] == '0') {
            i++;
            if (i < limit && digit(bytes[i])) {
                return false; // a leading zero: not JSON
            }
        } else {
            for (; i < limit && digit(bytes[i]); i++) {
                if (digits < 18) {
                    significand = 10 * significand + (bytes[i] - '0');
                    digits++;
                } else {
                    dropped++;
                }
            }
        }
        boolean integer = true;
        if (i < limit && bytes[i] == '.') {
            integer = false;
            i++;
            int first = i;
            // Leading zeros and the first significant digit one at a time, then eight digits per step (one load,
            // three multiplications) while all eight are digits and fit the 18 kept, then the rest one at a time:
            // a JDK-printed 16–17-digit fraction takes one or two steps. 1.24× faster per number than one digit at a
            // time (docs/BENCHMARKS.md); a last step over the 1–7 digits left, shifted into place, was slower.
            for (; digits == 0 && i < limit && digit(bytes[i]); i++) {
                if (bytes[i] != '0') {
                    significand = bytes[i] - '0';
                    digits = 1;
                }
                scale++;
            }
            for (; digits <= 10 && i + 8 <= limit; i += 8) {
                long eight = (long) LITTLE_ENDIAN_LONG.get(bytes, i);
                if (!eightDigits(eight)) {
                    break;
                }
                significand = 100_000_000L * significand + valueOfEight(eight);
                digits += 8;
                scale += 8;
            }
            // Past the first loop a digit here always follows a significant one (digits > 0).
            for (; i < limit && digit(bytes[i]); i++) {
                if (digits < 18) {
                    significand = 10 * significand + (bytes[i] - '0');
                    digits++;
                    scale++;
                } else {
                    dropped++;
                }
            }
            if (i == first) {
                return false;
            }
        }
        int exponent = 0;
        if (i < limit && (bytes[i] == 'e' || bytes[i] == 'E')) {
            integer = false;
            i++;
            boolean negativeExponent = i < limit && bytes[i] == '-';
            if (i < limit && (bytes[i] == '-' || bytes[i] == '+')) {
                i++;
            }
            int first = i;
            for (; i < limit && digit(bytes[i]); i++) {
                exponent = 10 * exponent + (bytes[i] - '0'); // at most 62 digits: may overflow, only used if small
            }
            if (i == first) {
                return false;
            }
            if (i - first > 4) {
                return slow(bytes, start, i); // |exponent| may not fit an int; rare
            }
            exponent = negativeExponent ? -exponent : exponent;
        }
        if (i > start + MAX_LENGTH) {
            return false;
        }
        end = i;
        if (integer && dropped == 0) {
            // As Jackson: an int or a long, then converted (rounded to nearest); -0 is the integer 0.
            value = negative ? (double) -significand : (double) significand;
            return true;
        }
        int power = exponent - scale;
        if (dropped == 0 && significand <= MAX_EXACT && power >= -22 && power <= 22) {
            double magnitude = power < 0 ? significand / POWERS_OF_TEN[-power]
                    : significand * POWERS_OF_TEN[power];
            value = negative ? -magnitude : magnitude;
            return true;
        }
        if (dropped == 0) {
            double nearest = EiselLemire.toDouble(significand, power, negative);
            if (!Double.isNaN(nearest)) {
                value = nearest;
                return true;
            }
        }
        return slow(bytes, start, i);
    }

    /** Jackson's correctly rounded parser (the one {@code USE_FAST_DOUBLE_PARSER} selects) on the same text. */
    private boolean slow(byte[] bytes, int start, int end) {
        int length = end - start;
        if (length > MAX_LENGTH) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            scratch[k] = (char) bytes[start + k];
        }
        this.end = end;
        value = NumberInput.parseDouble(scratch, 0, length, true);
        return true;
    }

    /** Whether the eight bytes of {@code w} (little-endian) are all ASCII digits. */
    private static boolean eightDigits(long w) {
        return ((w & 0xF0F0F0F0F0F0F0F0L) | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) >>> 4))
                == 0x3333333333333333L;
    }

    /** The eight ASCII digits of {@code w} (little-endian: the first digit in the low byte) as a number. */
    private static long valueOfEight(long w) {
        long v = w - 0x3030303030303030L;
        v = v * 10 + (v >>> 8);
        return (((v & 0x000000FF000000FFL) * (100 + (1_000_000L << 32)))
                + (((v >>> 16) & 0x000000FF000000FFL) * (1 + (10_000L << 32)))) >>> 32;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }
}
