package io.gdastreams.model;

import java.util.List;
import java.util.Map;

/**
 * A versioned model as published on the compacted model topic (key = modelId).
 *
 * @param sources lineage: source partition (as a string) → next offset of that partition absorbed by this model
 * @param updatedAt ISO-8601 instant of publication
 */
public record ModelParameters(String modelId, long version, List<String> features, long totalCount,
                              List<ClassParameters> classes, Map<String, Long> sources, String updatedAt) {
}
