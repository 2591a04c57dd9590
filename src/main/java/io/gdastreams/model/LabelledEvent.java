package io.gdastreams.model;

import java.util.Map;

/** A training event: feature values by name and the class label. Built by {@code EventDecoder}, validated. */
public record LabelledEvent(Map<String, Double> features, String label) {
}
