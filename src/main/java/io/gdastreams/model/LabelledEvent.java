package io.gdastreams.model;

import java.util.Map;

/**
 * A training event: the continuous feature values by name, the class label, and the values of the categorical
 * features by name (empty when none is configured). Built by {@code EventDecoder}, validated.
 */
public record LabelledEvent(Map<String, Double> features, String label, Map<String, String> categories) {

    /** An event without categorical features. */
    public LabelledEvent(Map<String, Double> features, String label) {
        this(features, label, Map.of());
    }
}
