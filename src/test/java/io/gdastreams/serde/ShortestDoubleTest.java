package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/**
 * {@link ShortestDouble} against the reference it replaces, Jackson's fast writer ({@code NumberOutput.toString(v,
 * true)}), byte for byte: random bit patterns, the scorer's numbers (probabilities, log densities), and the ranges
 * where the method or the format changes course (powers of two and ten and their neighbours, subnormals, the
 * integer path, the plain/scientific boundaries).
 */
class ShortestDoubleTest {

    private static final long SEED = 20261127L;
    private static final int RANDOM_CASES = 400_000;

    private final byte[] out = new byte[ShortestDouble.MAX_LENGTH + 8];

    @Test
    void shouldWriteWhatJacksonWritesForRandomBitPatterns() {
        SplittableRandom random = new SplittableRandom(SEED);
        assertSame(() -> {
            double v;
            do {
                v = Double.longBitsToDouble(random.nextLong());
            } while (!Double.isFinite(v));
            return v;
        });
    }

    @Test
    void shouldWriteWhatJacksonWritesForProbabilitiesAndLogDensities() {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        assertSame(random::nextDouble);
        assertSame(() -> Math.exp(-745 * random.nextDouble())); // posteriors down to the smallest subnormal
        assertSame(() -> -200 * random.nextDouble()); // log densities
        assertSame(() -> random.nextDouble() * Math.pow(10, random.nextInt(-20, 20))); // features of any scale
    }

    @Test
    void shouldWriteWhatJacksonWritesForPowersOfTwoAndTenAndTheirNeighbours() {
        for (int e = -1074; e <= 1023; e++) {
            assertNeighbours(Math.scalb(1.0, e));
        }
        for (int e = -323; e <= 308; e++) {
            assertNeighbours(Double.parseDouble("1e" + e));
            assertNeighbours(Double.parseDouble("5e" + e));
            assertNeighbours(Double.parseDouble("9.999999999999999e" + e));
        }
    }

    @Test
    void shouldWriteWhatJacksonWritesForSubnormalsIntegersAndFormatBoundaries() {
        for (long bits = 0; bits < 20_000; bits++) {
            assertSame(Double.longBitsToDouble(bits));
        }
        for (long i = 0; i <= 20_000; i++) {
            assertSame(i);
            assertSame(i * 1_000.0);
            assertSame((1L << 53) - i);
            assertSame((1L << 53) + 2 * i);
        }
        double[] edges = {1e-3, 1e7, 9_999_999.0, 9_999_999.5, 0.000999, 0.0009999999999999998, 1e7 - 1e-9,
            Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 0.0, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 100.0, 1e23,
            2e23, 8.41e21, 5e-324, 1.7976931348623157e308, 4.9e-324, 9.9e-324, 2.2250738585072014e-308};
        for (double v : edges) {
            assertNeighbours(v);
        }
    }

    @Test
    void shouldWriteAtTheGivenIndexAndReturnTheIndexAfter() {
        out[3] = 'x';
        int end = ShortestDouble.write(-0.25, out, 4);
        assertEquals("x-0.25", new String(out, 3, end - 3, StandardCharsets.US_ASCII));
        assertEquals("-0.0", text(-0.0));
        assertEquals("1.0E-5", text(1e-5));
        assertEquals("-1.7976931348623157E308", text(-Double.MAX_VALUE));
        assertTrue(text(-Double.MIN_VALUE).length() <= ShortestDouble.MAX_LENGTH);
    }

    private void assertNeighbours(double v) {
        double up = v;
        double down = v;
        for (int i = 0; i < 3; i++) {
            assertSame(up);
            assertSame(down);
            up = Math.nextUp(up);
            down = Math.nextDown(down);
        }
    }

    private void assertSame(DoubleSupplier values) {
        for (int i = 0; i < RANDOM_CASES; i++) {
            assertSame(values.getAsDouble());
        }
    }

    private void assertSame(double v) {
        if (!Double.isFinite(v)) {
            return;
        }
        for (double signed : new double[] {v, -v}) {
            String expected = NumberOutput.toString(signed, true);
            String actual = text(signed);
            if (!expected.equals(actual)) {
                assertEquals(expected, actual, "bits " + Long.toHexString(Double.doubleToRawLongBits(signed)));
            }
        }
    }

    private String text(double v) {
        int end = ShortestDouble.write(v, out, 0);
        return new String(out, 0, end, StandardCharsets.US_ASCII);
    }
}
