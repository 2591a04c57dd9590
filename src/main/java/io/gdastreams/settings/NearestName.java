package io.gdastreams.settings;

import java.util.Collection;
import java.util.Optional;

/** The known name a misspelt one most likely meant: the nearest by edit distance, if it is near enough. */
public final class NearestName {

    /** At most this many edits, or a fifth of the name's length if more: a typo, not another name. */
    private static final int MIN_EDITS = 2;

    private NearestName() {
    }

    /** {@code "; did you mean K?"} for the nearest of {@code known}, or "" when none is near. */
    public static String hint(String name, Collection<String> known) {
        return nearest(name, known).map(k -> "; did you mean " + k + "?").orElse("");
    }

    static Optional<String> nearest(String name, Collection<String> known) {
        int allowed = Math.max(MIN_EDITS, name.length() / 5);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = distance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance (insertions, deletions, substitutions), two rows. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
