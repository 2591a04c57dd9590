package io.gdastreams.serde;

import java.math.BigInteger;

/**
 * The Eisel–Lemire conversion of a decimal {@code w × 10^q} (w of at most 19 digits) to the nearest double: one
 * 64 × 128-bit product with a truncated 128-bit mantissa of 10^q, and an answer only when the error bounds of the
 * truncation prove the rounding (Lemire, "Number Parsing at a Gigabyte per Second", 2021; this is the formulation
 * of Go's {@code strconv.eiselLemire64}). Otherwise it answers NaN, and {@link JsonNumber} uses Jackson's slower
 * exact parser; that happens for a vanishing share of inputs (halfway cases, results outside the normal range).
 *
 * <p>The table is computed once from exact integers: for each q in [-348, 347] the 128 leading bits of 10^q,
 * rounded down (so the true value lies in [table, table + 1) units of its last bit, which is what the checks
 * assume).
 */
final class EiselLemire {

    private static final int MIN_EXP10 = -348;
    private static final int MAX_EXP10 = 347;
    /** High and low 64 bits of the truncated, normalised (top bit set) 128-bit mantissa of 10^q. */
    private static final long[] HIGH = new long[MAX_EXP10 - MIN_EXP10 + 1];
    private static final long[] LOW = new long[MAX_EXP10 - MIN_EXP10 + 1];

    static {
        BigInteger mask = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        for (int q = MIN_EXP10; q <= MAX_EXP10; q++) {
            BigInteger mantissa;
            if (q >= 0) {
                BigInteger power = BigInteger.TEN.pow(q);
                int shift = power.bitLength() - 128;
                mantissa = shift > 0 ? power.shiftRight(shift) : power.shiftLeft(-shift);
            } else {
                BigInteger divisor = BigInteger.TEN.pow(-q);
                // floor(2^k / 10^-q) with exactly 128 bits: 2^(k-1) <= 2^k / 10^-q < 2^k ... for the right k.
                int k = 127 + divisor.bitLength();
                mantissa = BigInteger.ONE.shiftLeft(k).divide(divisor);
                if (mantissa.bitLength() > 128) {
                    mantissa = mantissa.shiftRight(mantissa.bitLength() - 128); // floor of a floor stays a floor
                }
            }
            HIGH[q - MIN_EXP10] = mantissa.shiftRight(64).longValue();
            LOW[q - MIN_EXP10] = mantissa.and(mask).longValue();
        }
    }

    private EiselLemire() {
    }

    /** The double nearest to {@code w × 10^q} for unsigned {@code w}, negated if {@code negative}, or NaN. */
    static double toDouble(long w, int q, boolean negative) {
        if (w == 0) {
            return negative ? -0.0 : 0.0;
        }
        if (q < MIN_EXP10 || q > MAX_EXP10) {
            return Double.NaN;
        }
        int clz = Long.numberOfLeadingZeros(w);
        w <<= clz;
        long exp2 = ((217706L * q) >> 16) + 64 + 1023 - clz; // floor(q log2 10) + bias, adjusted below
        int row = q - MIN_EXP10;
        long xHi = unsignedMultiplyHigh(w, HIGH[row]);
        long xLo = w * HIGH[row];
        if ((xHi & 0x1FF) == 0x1FF && Long.compareUnsigned(xLo + w, w) < 0) {
            // The neglected low half of the table could carry into the kept bits: use it.
            long yHi = unsignedMultiplyHigh(w, LOW[row]);
            long yLo = w * LOW[row];
            long mergedHi = xHi;
            long mergedLo = xLo + yHi;
            if (Long.compareUnsigned(mergedLo, xLo) < 0) {
                mergedHi++;
            }
            if ((mergedHi & 0x1FF) == 0x1FF && mergedLo + 1 == 0 && Long.compareUnsigned(yLo + w, w) < 0) {
                return Double.NaN;
            }
            xHi = mergedHi;
            xLo = mergedLo;
        }
        long msb = xHi >>> 63;
        long mantissa = xHi >>> (msb + 9);
        exp2 -= 1 ^ msb;
        if (xLo == 0 && (xHi & 0x1FF) == 0 && (mantissa & 3) == 1) {
            return Double.NaN; // exactly halfway in the approximation: the true value may be just above
        }
        mantissa += mantissa & 1;
        mantissa >>>= 1;
        if ((mantissa >>> 53) != 0) {
            mantissa >>>= 1;
            exp2++;
        }
        if (exp2 <= 0 || exp2 >= 0x7FF) {
            return Double.NaN; // subnormal or infinite: left to the exact parser
        }
        long bits = exp2 << 52 | mantissa & 0x000F_FFFF_FFFF_FFFFL;
        return Double.longBitsToDouble(negative ? bits | 0x8000_0000_0000_0000L : bits);
    }

    /** The high 64 bits of the unsigned 128-bit product (Java 17 has only the signed {@link Math#multiplyHigh}). */
    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }
}
