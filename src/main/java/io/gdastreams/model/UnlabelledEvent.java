package io.gdastreams.model;

import java.util.Map;

/**
 * An event to classify; {@code id} may be null (the record key is used then). {@code categories}: the values of its
 * categorical features by name (empty when none is configured or given).
 */
public record UnlabelledEvent(String id, Map<String, Double> features, Map<String, String> categories) {

    /** An event without categorical features. */
    public UnlabelledEvent(String id, Map<String, Double> features) {
        this(id, features, Map.of());
    }
}
