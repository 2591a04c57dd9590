package io.gdastreams.model;

import java.util.Map;

/**
 * A training event: the continuous feature values by name, the class label, the values of the categorical
 * features by name (empty when none is configured), its sample weight (1 unless the event says otherwise) and
 * whether it retracts an earlier observation instead of adding one. Built by {@code EventDecoder}, validated.
 *
 * @param weight finite, ≥ 0; 0 changes no statistic but the event still counts
 * @param retract true: remove one earlier observation with these features, label and weight
 */
public record LabelledEvent(Map<String, Double> features, String label, Map<String, String> categories,
                            double weight, boolean retract) {

    /** The weight of an event that gives none. */
    public static final double DEFAULT_WEIGHT = 1.0;

    /** An event of weight 1 that adds an observation. */
    public LabelledEvent(Map<String, Double> features, String label, Map<String, String> categories) {
        this(features, label, categories, DEFAULT_WEIGHT, false);
    }

    /** An event without categorical features. */
    public LabelledEvent(Map<String, Double> features, String label) {
        this(features, label, Map.of());
    }

    /** Whether this event needs the weighted statistics: a weight other than 1, or a retraction. */
    public boolean isWeighted() {
        return weight != DEFAULT_WEIGHT || retract;
    }
}
