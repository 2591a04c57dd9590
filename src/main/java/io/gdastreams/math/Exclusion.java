package io.gdastreams.math;

import java.util.List;
import java.util.stream.Collectors;

/** A class left out of scoring, and why (e.g. "count 1 below minimum 2"). */
public record Exclusion(String label, String reason) {

    /** "label (reason); label (reason)" for the first {@code max} of {@code exclusions}, then "; and N more". */
    public static String describe(List<Exclusion> exclusions, int max) {
        return exclusions.stream().limit(max).map(e -> e.label() + " (" + e.reason() + ")")
                .collect(Collectors.joining("; "))
                + (exclusions.size() > max ? "; and " + (exclusions.size() - max) + " more" : "");
    }
}
