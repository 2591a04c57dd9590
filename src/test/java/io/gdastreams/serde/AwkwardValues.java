package io.gdastreams.serde;

import java.util.Arrays;
import java.util.Random;

/**
 * Random texts and doubles that are awkward to write as JSON, for the writers' byte-for-byte tests against the
 * mapper: escapes, control characters, non-ASCII, surrogate pairs (lone surrogates on request), a long text;
 * non-finite values, −0.0, subnormal and extreme magnitudes, 17-digit doubles, and doubles of random bits.
 */
final class AwkwardValues {

    private static final String[] TEXT = {"a", "virginica", "", " ", "\"quoted\"", "back\\slash", "tab\tline\nend",
        "\u0001\u001f", "\u007f", "é", "日本語", "\ud83d\ude00", "</script>", "x".repeat(300), "null", "row-123456"};
    /** Not valid Unicode: the writers must still agree on them, but the JSON they write cannot be read back. */
    private static final String[] LONE_SURROGATES = {"lone\ud800", "\udc00x"};
    private static final double[] SPECIAL = {0.0, -0.0, 1.0, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 1e-300, 0.1, 1.0 / 3, 123456789.0, 1e22, 1e23};

    private final Random random;
    private final String[] texts;

    /** {@code loneSurrogates}: whether {@link #text} may contain an unpaired surrogate. */
    AwkwardValues(Random random, boolean loneSurrogates) {
        this.random = random;
        this.texts = loneSurrogates ? concat(TEXT, LONE_SURROGATES) : TEXT;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** One of the awkward texts, half the time with a number after it. */
    String text() {
        return texts[random.nextInt(texts.length)] + (random.nextBoolean() ? "" : Integer.toString(random.nextInt(99)));
    }

    /** A special double, a uniform one in [0, 1), or one of random bits, with equal chance. */
    double number() {
        return switch (random.nextInt(3)) {
            case 0 -> SPECIAL[random.nextInt(SPECIAL.length)];
            case 1 -> random.nextDouble();
            default -> Double.longBitsToDouble(random.nextLong());
        };
    }
}
