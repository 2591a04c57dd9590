package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ChiSquare#survival} against R's pchisq(x, nu, lower.tail = FALSE) (src/test/resources/fixtures/chisq/
 * make_chisq_tail.R, chisq_tail.csv), and against the closed forms of even and small odd degrees of freedom.
 */
class ChiSquareTest {

    /** Relative agreement with R over the whole grid, tails down to 1e-300 included. */
    private static final double RELATIVE = 1e-12;
    /** Below this R's value is subnormal and carries fewer digits; compared absolutely. */
    private static final double SUBNORMAL = Double.MIN_NORMAL;

    @Test
    void shouldMatchRsPchisqUpperTail() throws IOException {
        List<String> lines;
        try (InputStream in = ChiSquareTest.class.getResourceAsStream("/fixtures/chisq/chisq_tail.csv")) {
            lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList();
        }
        assertEquals("nu,x,tail", lines.get(0));
        int compared = 0;
        int tiny = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            int nu = Integer.parseInt(f[0]);
            double x = Double.parseDouble(f[1]);
            double expected = Double.parseDouble(f[2]);
            double actual = ChiSquare.survival(nu, x);
            if (expected < SUBNORMAL) {
                assertEquals(expected, actual, SUBNORMAL, line);
            } else {
                assertEquals(expected, actual, expected * RELATIVE, line);
                if (expected < 1e-100) {
                    tiny++;
                }
            }
            compared++;
        }
        assertEquals(209, compared);
        assertTrue(tiny >= 10, "far tails are part of the comparison: " + tiny);
    }

    @Test
    void shouldEqualTheClosedForms() {
        for (double x : new double[] {1e-6, 0.3, 1.0, 4.0, 17.5, 60.0, 700.0}) {
            // nu = 2: exp(−x/2); nu = 4: exp(−x/2)(1 + x/2).
            assertEquals(Math.exp(-x / 2), ChiSquare.survival(2, x), Math.exp(-x / 2) * RELATIVE, "nu=2 x=" + x);
            double four = Math.exp(-x / 2) * (1 + x / 2);
            assertEquals(four, ChiSquare.survival(4, x), four * RELATIVE, "nu=4 x=" + x);
        }
        // nu = 1: P(|Z| >= z) for x = z²; 1.959963984540054² is the two-sided 5 % point.
        double z = 1.959963984540054;
        assertEquals(0.05, ChiSquare.survival(1, z * z), 0.05 * RELATIVE);
    }

    @Test
    void shouldTreatNothingObservedAndNonPositiveDistancesAsCertain() {
        assertEquals(1.0, ChiSquare.survival(0, 0.0));
        assertEquals(1.0, ChiSquare.survival(0, 123.0));
        assertEquals(1.0, ChiSquare.survival(3, 0.0));
        assertEquals(0.0, ChiSquare.survival(3, Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> ChiSquare.survival(-1, 1.0));
        assertThrows(IllegalArgumentException.class, () -> ChiSquare.survival(2, Double.NaN));
    }
}
