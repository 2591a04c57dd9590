package io.gdastreams.serde;

import java.math.BigInteger;

/**
 * Writes a finite double as ASCII straight into a byte array, exactly the text Jackson's generator writes for it
 * with its fast writer ({@code NumberOutput.toString(v, true)}, which is also {@code Double.toString} from JDK 19
 * on): the shortest decimal that rounds back to the double (at least two digits), the closest to it among those
 * (the even one on a tie), in Java's format — plain ({@code 0.001}, {@code 123.25}, {@code 5.0}) for
 * 10⁻³ ≤ |v| < 10⁷, else computerised scientific ({@code 1.0E-5}, {@code 3.4E12}). {@code ShortestDoubleTest}
 * checks it byte for byte against Jackson over random bit patterns, probabilities and every edge range.
 *
 * <p>Why not Jackson's own: its writer returns a new {@code String} per number (a formatter object, a string and
 * its array), which the scorer copies into its output; four numbers per prediction made this the largest
 * allocation and 7 % of the scoring CPU. The method is R. Giulietti's "Schubfach" ("The Schubfach way to render
 * doubles", 2020), written here from the paper: the double is {@code c·2^q}; with {@code k = ⌊log10 2^q⌋} the
 * bounds of its rounding interval, scaled by {@code 10^-k}, are computed from a 126-bit approximation of
 * {@code 10^-k} by one 64×128-bit product each, rounded to odd so that comparisons with them are exact; the
 * candidates are the multiples of {@code 10^(k+1)} (one digit fewer) inside the interval, else the two multiples
 * of {@code 10^k} around the double, the closer one. Stateless; the table is built at class load (617 entries).
 */
final class ShortestDouble {

    /** The most bytes {@link #write} writes: a sign, 17 digits, a point, "E-" and three exponent digits. */
    static final int MAX_LENGTH = 24;

    private static final int PRECISION = 53; // significand bits, the hidden one included
    private static final int Q_MIN = -1074; // exponent of the smallest subnormal
    private static final long C_MIN = 1L << (PRECISION - 1);
    private static final int BIASED_EXPONENT_MASK = 0x7ff;
    private static final long FRACTION_MASK = C_MIN - 1;
    /** Subnormals below this significand have too few digits for the method: they are scaled by 10 first. */
    private static final long C_TINY = 3;
    private static final int K_MIN = floorLog10Pow2(Q_MIN);
    private static final int K_MAX = floorLog10Pow2(BIASED_EXPONENT_MASK - 1 - 1075);
    /** Digits of the significand after normalisation in {@link #toChars}. */
    private static final int DIGITS = 17;
    private static final long MASK_63 = (1L << 63) - 1;
    private static final long[] POW10 = new long[DIGITS + 1];
    /** The tens and the units digit of 0 … 99, as ASCII. */
    private static final byte[] TENS = new byte[100];
    private static final byte[] ONES = new byte[100];
    /**
     * For each k in [K_MIN, K_MAX]: g = ⌊10^-k · 2^-r⌋ + 1 in [2^125, 2^126) (r fixes the range), as g1 = g >> 63
     * and g0 its low 63 bits.
     */
    private static final long[] G1 = new long[K_MAX - K_MIN + 1];
    private static final long[] G0 = new long[K_MAX - K_MIN + 1];

    static {
        POW10[0] = 1;
        for (int i = 1; i <= DIGITS; i++) {
            POW10[i] = 10 * POW10[i - 1];
        }
        for (int i = 0; i < 100; i++) {
            TENS[i] = (byte) ('0' + i / 10);
            ONES[i] = (byte) ('0' + i % 10);
        }
        BigInteger low63 = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
        for (int k = K_MIN; k <= K_MAX; k++) {
            BigInteger g;
            if (k <= 0) { // 10^-k an integer N: beta = N · 2^-r, r = bitLength(N) - 1 - 125
                BigInteger n = BigInteger.TEN.pow(-k);
                int r = n.bitLength() - 1 - 125;
                g = (r >= 0 ? n.shiftRight(r) : n.shiftLeft(-r)).add(BigInteger.ONE);
            } else { // 10^-k = 1/D, D = 10^k not a power of two: r = -bitLength(D) - 125
                BigInteger d = BigInteger.TEN.pow(k);
                g = BigInteger.ONE.shiftLeft(d.bitLength() + 125).divide(d).add(BigInteger.ONE);
            }
            G1[k - K_MIN] = g.shiftRight(63).longValueExact();
            G0[k - K_MIN] = g.and(low63).longValueExact();
        }
    }

    private ShortestDouble() {
    }

    /**
     * Writes finite {@code v} at {@code out[at]} (room for {@link #MAX_LENGTH} bytes needed) and returns the index
     * after it.
     */
    static int write(double v, byte[] out, int at) {
        long bits = Double.doubleToRawLongBits(v);
        int pos = at;
        if (bits < 0) {
            out[pos++] = '-';
        }
        long fraction = bits & FRACTION_MASK;
        int biased = (int) (bits >>> (PRECISION - 1)) & BIASED_EXPONENT_MASK;
        if (biased != 0) {
            int minusQ = -Q_MIN + 1 - biased;
            long c = C_MIN | fraction;
            if (0 < minusQ && minusQ < PRECISION) { // maybe an integer below 2^53: its digits are the shortest
                long f = c >> minusQ;
                if (f << minusQ == c) {
                    return toChars(f, 0, out, pos);
                }
            }
            return toDecimal(-minusQ, c, 0, out, pos);
        }
        if (fraction != 0) {
            return fraction < C_TINY ? toDecimal(Q_MIN, 10 * fraction, -1, out, pos)
                    : toDecimal(Q_MIN, fraction, 0, out, pos);
        }
        out[pos++] = '0';
        out[pos++] = '.';
        out[pos++] = '0';
        return pos;
    }

    /** The shortest closest decimal for c·2^q (times 10^-dk), written as {@link #toChars} does. */
    private static int toDecimal(int q, long c, int dk, byte[] out, int pos) {
        int odd = (int) c & 1; // the interval's bounds belong to it when c is even (round half to even)
        long cb = c << 2;
        long cbr = cb + 2;
        long cbl;
        int k;
        if (c != C_MIN || q == Q_MIN) { // the usual spacing: the interval is symmetric
            cbl = cb - 2;
            k = floorLog10Pow2(q);
        } else { // a power of two: the gap below is half the gap above
            cbl = cb - 1;
            k = floorLog10ThreeQuartersPow2(q);
        }
        int h = q + floorLog2Pow10(-k) + 2;
        long g1 = G1[k - K_MIN];
        long g0 = G0[k - K_MIN];
        // 4·v·10^-k and the interval's bounds on the same scale, rounded to odd.
        long vb = roundToOdd(g1, g0, cb << h);
        long vbl = roundToOdd(g1, g0, cbl << h);
        long vbr = roundToOdd(g1, g0, cbr << h);
        long s = vb >> 2;
        if (s >= 100) {
            // One digit fewer: the multiples of 10 around s (s / 10 as a product: s < 2^57).
            long sp10 = 10 * Math.multiplyHigh(s, 115_292_150_460_684_698L << 4);
            long tp10 = sp10 + 10;
            boolean upIn = vbl + odd <= sp10 << 2;
            boolean wpIn = (tp10 << 2) + odd <= vbr;
            if (upIn != wpIn) {
                return toChars(upIn ? sp10 : tp10, k, out, pos);
            }
        }
        long t = s + 1;
        boolean uIn = vbl + odd <= s << 2;
        boolean wIn = (t << 2) + odd <= vbr;
        if (uIn != wIn) {
            return toChars(uIn ? s : t, k + dk, out, pos);
        }
        long cmp = vb - ((s + t) << 1); // both in: the closer one, the even one on a tie
        return toChars(cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : t, k + dk, out, pos);
    }

    /** ⌊g · cp / 2^127⌋ with its lowest bit set when the rest is not zero (g = g1·2^63 + g0). */
    private static long roundToOdd(long g1, long g0, long cp) {
        long x1 = Math.multiplyHigh(g0, cp);
        long y0 = g1 * cp;
        long y1 = Math.multiplyHigh(g1, cp);
        long z = (y0 >>> 1) + x1;
        long vbp = y1 + (z >>> 63);
        return vbp | ((z & MASK_63) + MASK_63) >>> 63;
    }

    /**
     * Writes f·10^e (f > 0, at most 17 digits) in Java's format; returns the index after it. All 17 digits of the
     * normalised significand are written in one go (two digits per step), then the point is put in by moving the
     * integer digits one place: bytes past the returned index may be written too (within {@link #MAX_LENGTH}).
     */
    private static int toChars(long f, int e, byte[] out, int pos) {
        int len = digits(f);
        long full = f * POW10[DIGITS - len]; // 17 digits: the value is 0.full · 10^exp
        int exp = e + len;
        int last = DIGITS - 1; // the last non-zero digit of full (its first is not zero)
        long rest = full;
        while (rest % 10 == 0) {
            rest /= 10;
            last--;
        }
        if (0 < exp && exp <= 7) { // plain, an integer part of exp digits and at least one decimal
            put17(full, out, pos + 1);
            System.arraycopy(out, pos + 1, out, pos, exp);
            out[pos + exp] = '.';
            return pos + 1 + Math.max(exp + 1, last + 1);
        }
        if (-3 < exp && exp <= 0) { // plain, 0.00ddd
            out[pos++] = '0';
            out[pos++] = '.';
            for (int i = exp; i < 0; i++) {
                out[pos++] = '0';
            }
            put17(full, out, pos);
            return pos + last + 1;
        }
        put17(full, out, pos + 1); // d.ddd: at least one decimal
        out[pos] = out[pos + 1];
        out[pos + 1] = '.';
        pos += 1 + Math.max(2, last + 1);
        out[pos++] = 'E';
        int power = exp - 1;
        if (power < 0) {
            out[pos++] = '-';
            power = -power;
        }
        if (power >= 100) {
            out[pos++] = (byte) ('0' + power / 100);
            power %= 100;
            out[pos++] = TENS[power];
        } else if (power >= 10) {
            out[pos++] = TENS[power];
        }
        out[pos++] = ONES[power];
        return pos;
    }

    /** The 17 digits of {@code full} (10^16 ≤ full < 10^17) at {@code out[pos]}. */
    private static void put17(long full, byte[] out, int pos) {
        int first = (int) (full / POW10[16]);
        long rest = full - first * POW10[16];
        int high = (int) (rest / POW10[8]);
        int low = (int) (rest - high * POW10[8]);
        out[pos] = (byte) ('0' + first);
        put8(high, out, pos + 1);
        put8(low, out, pos + 9);
    }

    /** The 8 digits of 0 ≤ m < 10^8, leading zeros included, at {@code out[pos]}: two per int division by 100. */
    private static void put8(int m, byte[] out, int pos) {
        for (int i = 6; i >= 0; i -= 2) {
            int quotient = m / 100;
            int pair = m - 100 * quotient;
            out[pos + i] = TENS[pair];
            out[pos + i + 1] = ONES[pair];
            m = quotient;
        }
    }

    /** The number of decimal digits of f > 0. */
    private static int digits(long f) {
        int len = floorLog10Pow2(Long.SIZE - Long.numberOfLeadingZeros(f));
        return f >= POW10[len] ? len + 1 : len;
    }

    /** ⌊log10 2^q⌋ for |q| ≤ 5 456 721. */
    private static int floorLog10Pow2(int q) {
        return (int) (q * 661_971_961_083L >> 41);
    }

    /** ⌊log10 (3/4 · 2^q)⌋ for |q| ≤ 5 456 721. */
    private static int floorLog10ThreeQuartersPow2(int q) {
        return (int) (q * 661_971_961_083L - 274_743_187_321L >> 41);
    }

    /** ⌊log2 10^e⌋ for |e| ≤ 1 838 394. */
    private static int floorLog2Pow10(int e) {
        return (int) (e * 913_124_641_741L >> 38);
    }
}
