package io.gdastreams.model;

import java.util.Map;

/**
 * A training event: the continuous feature values by name, the class label, the values of the categorical
 * features by name (empty when none is configured), its sample weight (1 unless the event says otherwise) and
 * whether it retracts an earlier observation instead of adding one, and which. Built by {@code EventDecoder},
 * validated.
 *
 * @param weight finite, ≥ 0; 0 changes no statistic but the event still counts
 * @param retract true: remove one earlier observation with these features, label and weight
 * @param retractsOffset a retraction's {@code "retractsOffset"}: the input offset, on the retraction's own
 *                       partition, of the event it retracts (≥ 0), or {@link #NO_OFFSET} when it names none (and
 *                       always for an event that adds); the trainer checks it against its reset generation
 *                       (docs/TRAINING.md, "Reset on drift")
 */
public record LabelledEvent(Map<String, Double> features, String label, Map<String, String> categories,
                            double weight, boolean retract, long retractsOffset) {

    /** The weight of an event that gives none. */
    public static final double DEFAULT_WEIGHT = 1.0;

    /** The {@link #retractsOffset} of an event that names no offset. */
    public static final long NO_OFFSET = -1;

    public LabelledEvent {
        if (retractsOffset < NO_OFFSET || (!retract && retractsOffset != NO_OFFSET)) {
            throw new IllegalArgumentException("retractsOffset " + retractsOffset + " of "
                    + (retract ? "a retraction" : "an event that adds"));
        }
    }

    /** An event that names no offset of an event it retracts. */
    public LabelledEvent(Map<String, Double> features, String label, Map<String, String> categories, double weight,
                         boolean retract) {
        this(features, label, categories, weight, retract, NO_OFFSET);
    }

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
