package io.gdastreams.serde;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The optional {@code "retractsOffset"} of a labelled event (docs/TRAINING.md, "Reset on drift"): a retraction
 * names the input offset, on its own partition, of the event it retracts, so that a trainer that started a new reset
 * generation since can tell whether that event is in its statistics. Apart from {@link EventDecoder}, which reads it
 * with the other root fields, to keep the decoder within the file bound.
 */
final class RetractsOffsetField {

    /** The field's name in the JSON of a labelled event. */
    static final String NAME = "retractsOffset";

    private RetractsOffsetField() {
    }

    /**
     * Why {@code node} (the field's value, not null) cannot be the retractsOffset of an event whose {@code "retract"}
     * is {@code retract}, or null: it must be a JSON integer (no fraction, no exponent) from 0 to 2⁶³ − 1, and only a
     * retraction may carry it (on an event that adds it would most likely be a retraction missing its flag).
     */
    static String problem(JsonNode node, boolean retract) {
        if (!node.isNumber()) {
            return NAME + " must be a non-negative integer (the input offset of the retracted event), got "
                    + UnicodeText.cut(node.toString(), 64);
        }
        if (!node.isIntegralNumber()) {
            return NAME + " must be an integer, got " + UnicodeText.cut(node.toString(), 64);
        }
        if (node.bigIntegerValue().signum() < 0) {
            return NAME + " is negative: " + UnicodeText.cut(node.toString(), 64);
        }
        if (!node.canConvertToLong()) {
            return NAME + " exceeds the largest offset (" + Long.MAX_VALUE + "): "
                    + UnicodeText.cut(node.toString(), 64);
        }
        if (!retract) {
            return NAME + " is given but the event is not a retraction (\"retract\": true)";
        }
        return null;
    }
}
