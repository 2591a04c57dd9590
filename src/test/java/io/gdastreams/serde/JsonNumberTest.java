package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonNumber} against two independent references: {@link Double#parseDouble} (the JDK's correctly rounded
 * conversion) for every token with a fraction or an exponent, and the project's Jackson parser
 * ({@code getDoubleValue}, what {@link EventReader} gave before) for every token, integers included. Bits are
 * compared, so the sign of zero and every rounding count.
 */
class JsonNumberTest {

    private static final long SEED = 20_260_517;
    private static final int RANDOM_VALUES = 200_000;

    /** Boundaries of the formats, the fast path's edges, halfway cases, and spellings JSON allows. */
    private static final String[] EDGES = {"0", "-0", "0.0", "-0.0", "0e0", "-0E-0", "0.000", "1", "-1", "0.1", "0.3",
        "1.5", "1e0", "1E+2", "1e-2", "123.456e-7", "4.9e-324", "-4.9e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1e-323", "2.2250738585072009e-308", "2.2250738585072011e-308",
        "2.2250738585072012e-308", "2.2250738585072014e-308", "1e308", "-1e308", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "1e400", "-1e400", "1e-400", "1e22", "1e23",
        "9007199254740992e22", "9007199254740992e-22", "9007199254740993e-22", "9007199254740992",
        "9007199254740993", "9007199254740993.0", "9007199254740995", "18014398509481987", "123456789012345678",
        "999999999999999999", "1000000000000000000", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "123456789012345678901234567890",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203126", "0.1000000000000000055511151231257827",
        "3.141592653589793238462643383279", "2.718281828459045", "1.7976931348623157e-308", "1e00000000005",
        "1e-0000000005", "7.2057594037927933e16", "5e-324", "1.0e-22", "1.0e+22", "0.000000000000000000000001",
        "100000000000000000000000", "2147483647", "2147483648", "-2147483649", "4294967296.5",
        "0.1e-347", "9.99999999999999999e347", "1e-348", "1e347", "123456789012345678e-360", "2.5e-324",
        "7.4109846876186982e-323", "4.4501477170144023e-308", "4.4501477170144022e-308", "8.98846567431158e307",
        "1.797693134862315708e308", "1.797693134862315807e308", "9007199254740993e0", "9007199254740993e1",
        "0.500000000000000166533453693773481063544750213623046875",
        // A zero with an exponent beyond the fast path's powers (±0 from the Eisel–Lemire step), and exponents of
        // ten digits that overflow an int (4294967297 = 2^32 + 1 wraps to 1): Infinity and 0, not 10 and 0.1.
        "0e400", "-0e400", "0.0e-400", "-0.000e999", "1e4294967297", "1e-4294967297", "-1e2147483648"};
    /** Not JSON numbers (or not only one): never read as a whole. */
    private static final String[] NOT_NUMBERS = {"", "-", "+1", "01", "-01", "00", "1.", ".5", "-.5", "1e", "1e+",
        "1E-", "--1", "NaN", "Infinity", "-Infinity", "0x10", "1_000", "1.5.3", "1e5e5", "1.e5", " 1", "1,5",
        "1" + "0".repeat(JsonNumber.MAX_LENGTH), "0." + "1".repeat(JsonNumber.MAX_LENGTH)};

    private final JsonNumber number = new JsonNumber();

    @Test
    void shouldReadTheEdgeCasesAsTheJdkAndJacksonDo() throws IOException {
        for (String text : EDGES) {
            check(text);
        }
    }

    @Test
    void shouldReadIntegersAsJacksonDoesSoMinusZeroIsPlusZero() throws IOException {
        assertTrue(number.read(bytes("-0"), 0));
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(number.value));
        assertTrue(number.read(bytes("-0.0"), 0));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(number.value));
    }

    @Test
    void shouldRefuseWhatIsNotOneJsonNumber() {
        for (String text : NOT_NUMBERS) {
            byte[] b = bytes(text);
            assertFalse(number.read(b, 0) && number.end == b.length, () -> "read as a number: " + text);
        }
    }

    /**
     * Text that starts no JSON number is refused outright (false, not a stale {@code end} or value of the number read
     * before): a leading zero, a point or an exponent without digits, and more than {@link JsonNumber#MAX_LENGTH}
     * characters, also when the excess is in a long exponent.
     */
    @Test
    void shouldAnswerFalseForTextThatStartsNoJsonNumberOfAtMostMaxLength() {
        String[] refused = {"01", "-01", "00", "1.", "1.e5", "0.e5", "0.x", "-0.E1", "1e", "1e+", "1E-", "1ex", "-",
            "-x", "+1", ".5", "x", "1" + "0".repeat(JsonNumber.MAX_LENGTH), "0." + "1".repeat(JsonNumber.MAX_LENGTH),
            "1e" + "0".repeat(JsonNumber.MAX_LENGTH - 2) + "5"};
        for (String text : refused) {
            assertTrue(number.read(bytes("12.5"), 0));
            assertFalse(number.read(bytes(text + "}"), 0), () -> "read a number from " + text);
        }
    }

    /** A number of exactly {@link JsonNumber#MAX_LENGTH} characters is read whole, on every path to its value. */
    @Test
    void shouldReadNumbersOfExactlyMaxLengthCharacters() throws IOException {
        int n = JsonNumber.MAX_LENGTH;
        for (String text : new String[] {"1" + "2".repeat(n - 1), "-" + "9".repeat(n - 1), "0." + "3".repeat(n - 2),
            "1e" + "0".repeat(n - 3) + "7", "2.5E-" + "0".repeat(n - 6) + "3"}) {
            assertEquals(n, text.length());
            check(text);
        }
    }

    /**
     * A fraction's digits may be loaded eight at a time: the bytes just above '9' (':' to '?') share a digit's high
     * nibble, and must end the number as any other byte does, whichever digits precede them.
     */
    @Test
    void shouldStopAtTheBytesAboveNineAfterAnyDigits() {
        Random random = new Random(SEED + 4);
        for (int length = 1; length <= 20; length++) {
            for (String integerPart : new String[] {"0", "7", "-3"}) {
                StringBuilder fraction = new StringBuilder();
                for (int k = 0; k < length; k++) {
                    fraction.append((char) ('6' + random.nextInt(4))); // 6 to 9: each + 6 still has nibble 3
                }
                String text = integerPart + "." + fraction;
                long expected = Double.doubleToRawLongBits(Double.parseDouble(text));
                for (char after = ':'; after <= '?'; after++) {
                    byte[] b = bytes(text + after + "99999999");
                    char stop = after;
                    assertTrue(number.read(b, 0), () -> "refused " + text + stop);
                    assertEquals(text.length(), number.end, () -> "end of " + text + stop);
                    assertEquals(expected, Double.doubleToRawLongBits(number.value), () -> text + stop);
                }
            }
        }
    }

    @Test
    void shouldReadWhereTheNumberStartsAndStopAtItsEnd() {
        byte[] b = bytes("{\"x\":-12.5e-1}");
        assertTrue(number.read(b, 5));
        assertEquals(13, number.end);
        assertEquals(-1.25, number.value);
    }

    /** Random doubles of every magnitude, as the JDK prints them, and rounded to 1 to 17 significant digits. */
    @Test
    void shouldReadRandomDoublesBitForBit() throws IOException {
        Random random = new Random(SEED);
        for (int n = 0; n < RANDOM_VALUES; n++) {
            double x = switch (n % 4) {
                case 0 -> random.nextGaussian();
                case 1 -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
                case 2 -> Double.longBitsToDouble(random.nextLong()); // any bit pattern: subnormals, huge, tiny
                default -> random.nextInt(2_000_001) - 1_000_000 + random.nextInt(1000) / 1000.0;
            };
            if (!Double.isFinite(x)) {
                continue;
            }
            check(Double.toString(x));
            check(new BigDecimal(x).round(new MathContext(1 + random.nextInt(17))).toString());
        }
    }

    /**
     * Decimals at and next to the midpoint of two neighbouring doubles, cut to 16 to 19 significant digits: the
     * inputs whose rounding is hardest to decide, in the range of significands the fast conversions handle.
     */
    @Test
    void shouldReadNearHalfwayDecimalsBitForBit() throws IOException {
        Random random = new Random(SEED + 2);
        for (int n = 0; n < RANDOM_VALUES / 4; n++) {
            double x = n % 2 == 0 ? Math.abs(random.nextGaussian()) * Math.pow(10, random.nextInt(600) - 300)
                    : Math.abs(Double.longBitsToDouble(random.nextLong()));
            if (!Double.isFinite(x) || x == Double.MAX_VALUE) {
                continue;
            }
            BigDecimal midpoint = new BigDecimal(x).add(new BigDecimal(Math.nextUp(x))).divide(BigDecimal.valueOf(2));
            for (int digits = 16; digits <= 19; digits++) {
                BigDecimal cut = midpoint.round(new MathContext(digits));
                check(cut.toString());
                check(cut.add(cut.ulp()).toString());
                check(cut.subtract(cut.ulp()).toString());
            }
        }
    }

    /**
     * {@link EiselLemire} alone over its whole exponent range: when it answers it is the JDK's double, and it answers
     * for nearly every input (so the reader's speed does not rest on the fallback).
     */
    @Test
    void shouldConvertWithEiselLemireExactlyAndAlmostAlways() {
        Random random = new Random(SEED + 3);
        int answered = 0;
        int tried = 0;
        for (int n = 0; n < RANDOM_VALUES; n++) {
            long digits18 = (random.nextLong() >>> 1) % 1_000_000_000_000_000_000L;
            long w = n % 3 == 0 ? digits18 % 100_000_000_000_000_000L : digits18; // 17 digits, as the JDK prints
            int q = random.nextInt(696) - 348;
            boolean negative = random.nextBoolean();
            double expected = Double.parseDouble((negative ? "-" : "") + w + "e" + q);
            double got = EiselLemire.toDouble(w, q, negative);
            if (expected != 0 && Double.isFinite(expected) && Math.abs(expected) >= Double.MIN_NORMAL) {
                tried++;
                if (!Double.isNaN(got)) {
                    answered++;
                }
            }
            if (!Double.isNaN(got)) {
                assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(got),
                        () -> w + "e" + q);
            }
        }
        assertTrue(answered > tried * 0.99, answered + " of " + tried + " normal results");
    }

    /** Random decimal strings: up to 40 digits, any position of the point, exponents over the whole range. */
    @Test
    void shouldReadRandomDecimalTextBitForBit() throws IOException {
        Random random = new Random(SEED + 1);
        for (int n = 0; n < RANDOM_VALUES; n++) {
            StringBuilder text = new StringBuilder();
            if (random.nextBoolean()) {
                text.append('-');
            }
            int digits = 1 + random.nextInt(random.nextBoolean() ? 17 : 40);
            text.append(1 + random.nextInt(9));
            for (int k = 1; k < digits; k++) {
                text.append(random.nextInt(10));
            }
            int point = random.nextInt(digits + 1);
            if (point > 0 && point < digits) {
                text.insert(text.length() - digits + point, '.');
            }
            if (random.nextBoolean()) {
                text.append(random.nextBoolean() ? 'e' : 'E').append(random.nextInt(700) - 350);
            }
            check(text.toString());
        }
    }

    /**
     * Inside an event a number is followed by more bytes, and the reader may load a fraction's digits eight at a
     * time: a fraction of 1–20 significant digits (after leading zeros or not) followed by every byte that cannot
     * continue it, and then by digits again (which a load that ran past that byte would take in), is read up to that
     * byte with the value of the number alone. The other tests end every number at the end of its array.
     */
    @Test
    void shouldStopAtTheByteAfterTheDigitsWhateverFollowsIt() {
        Random random = new Random(SEED);
        byte[] digitsAfter = bytes("12345678901234567890");
        for (int length = 1; length <= 20; length++) {
            for (String integerPart : new String[] {"0", "7", "-3", "12"}) {
                for (String zeros : new String[] {"", "000"}) {
                    StringBuilder fraction = new StringBuilder(zeros).append((char) ('1' + random.nextInt(9)));
                    for (int k = 1; k < length; k++) {
                        fraction.append((char) ('0' + random.nextInt(10)));
                    }
                    String text = integerPart + "." + fraction;
                    long expected = Double.doubleToRawLongBits(Double.parseDouble(text));
                    for (int after = 0; after < 256; after++) {
                        if ((after >= '0' && after <= '9') || after == 'e' || after == 'E') {
                            continue;
                        }
                        byte[] b = new byte[text.length() + 1 + digitsAfter.length];
                        System.arraycopy(bytes(text), 0, b, 0, text.length());
                        b[text.length()] = (byte) after;
                        System.arraycopy(digitsAfter, 0, b, text.length() + 1, digitsAfter.length);
                        int byteAfter = after;
                        assertTrue(number.read(b, 0), () -> "refused " + text + " before byte " + byteAfter);
                        assertEquals(text.length(), number.end, () -> "end of " + text + " before byte " + byteAfter);
                        assertEquals(expected, Double.doubleToRawLongBits(number.value),
                                () -> text + " before byte " + byteAfter);
                    }
                }
            }
        }
    }

    private void check(String text) throws IOException {
        byte[] b = bytes(text);
        assertTrue(number.read(b, 0), () -> "refused " + text);
        assertEquals(b.length, number.end, () -> "end of " + text);
        long bits = Double.doubleToRawLongBits(number.value);
        assertEquals(Double.doubleToRawLongBits(jackson(b)), bits, () -> "Jackson reads " + text + " otherwise");
        boolean integer = text.chars().noneMatch(c -> c == '.' || c == 'e' || c == 'E');
        if (!integer) {
            assertEquals(Double.doubleToRawLongBits(Double.parseDouble(text)), bits,
                    () -> "Double.parseDouble reads " + text + " otherwise");
        } else if (!text.equals("-0")) {
            assertEquals(Double.doubleToRawLongBits(Double.parseDouble(text)), bits, () -> "integer " + text);
        }
    }

    private static double jackson(byte[] b) throws IOException {
        try (JsonParser p = Json.mapper().createParser(b)) {
            JsonToken token = p.nextToken();
            assertTrue(token.isNumeric(), () -> "not a Jackson number: " + new String(b, StandardCharsets.US_ASCII));
            return p.getDoubleValue();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
