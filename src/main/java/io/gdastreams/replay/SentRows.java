package io.gdastreams.replay;

import io.gdastreams.model.ModelParameters;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the training rows a replay sent went: the CSV line of each (partition, offset), to name a rejected row, and
 * the offset after each labelled partition's last row, which a model's lineage ({@code sources}) must reach before
 * training is done: a version published for rows rejected at the end of a partition follows the one that absorbed
 * the others, and it is the one the scorer then finds (and the one the report must name).
 */
final class SentRows {

    private final Map<String, Integer> lineBySource = new HashMap<>();
    private final Map<String, Long> ends = new HashMap<>();

    /** Adds a batch: "partition:offset" → CSV line. */
    void add(Map<String, Integer> batch) {
        lineBySource.putAll(batch);
        for (String source : batch.keySet()) {
            int colon = source.indexOf(':');
            ends.merge(source.substring(0, colon), Long.parseLong(source.substring(colon + 1)) + 1, Math::max);
        }
    }

    /** "partition:offset" → CSV line of every row sent. */
    Map<String, Integer> lineBySource() {
        return lineBySource;
    }

    /** Whether {@code model}'s lineage reaches past the last row sent to every partition. */
    boolean reachedBy(ModelParameters model) {
        return ends.entrySet().stream().allMatch(end -> model.sources().getOrDefault(end.getKey(), 0L)
                >= end.getValue());
    }
}
