package io.gdastreams.serde;

/**
 * Whether a Java string is valid Unicode. JSON may spell an unpaired UTF-16 surrogate ({@code "\ud800"}) and the
 * parser hands it over as is, but such a string has no UTF-8 form: encoders replace it with '?', so two distinct
 * labels ("a\ud800", "a\udc00") become the same bytes. Labels and feature names are encoded as UTF-8 in the
 * binary partial snapshots, whose decoder then finds the class twice and refuses the snapshot for good.
 */
public final class UnicodeText {

    private UnicodeText() {
    }

    /**
     * Why {@code text} is not valid Unicode ("unpaired surrogate U+D800 at index 1", the index in UTF-16 units),
     * or null when it is.
     */
    public static String problem(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return String.format("unpaired surrogate U+%04X at index %d", (int) c, i);
            }
        }
        return null;
    }

    /**
     * {@code text} when at most {@code maxChars} long, else its start and "..." in {@code maxChars} in all, never cut
     * between the two halves of a surrogate pair (then one char shorter): a reason or name shortened for an answer,
     * a dead letter or a log must stay valid Unicode, whatever the input it quotes.
     */
    public static String cut(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        int end = maxChars - 3;
        return text.substring(0, Character.isHighSurrogate(text.charAt(end - 1)) ? end - 1 : end) + "...";
    }
}
