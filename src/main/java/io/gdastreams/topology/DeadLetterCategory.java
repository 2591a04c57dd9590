package io.gdastreams.topology;

import java.util.Locale;

/**
 * Why a record went to the dead-letter topic, as a small fixed set: the label of a metric
 * ({@code gda_dead_letters_total{reason}}), where the dead letter's own reason is free text that would make a label
 * without bound.
 */
public enum DeadLetterCategory {
    /** The event cannot be read: not JSON, wrong types, not finite, missing label or features. */
    INVALID_EVENT,
    /** Its features differ from the model's schema (trainer), or are unknown to the model (scorer). */
    SCHEMA_MISMATCH,
    /** A key or id too long to be written back on an output. */
    OVERSIZED,
    /** The model would grow beyond a bound: too many classes, a category vocabulary full, the record limit. */
    MODEL_BOUND,
    /** An internal partial snapshot, or an entry of the trainer's own state store, that cannot be used. */
    INVALID_STATE,
    /**
     * Input the broker deleted (retention, a deletion of records) before the service read it: one letter per
     * partition and gap, written at start.
     */
    DELETED_UNREAD,
    /** Anything unexpected: a bug, logged with its stack trace. */
    INTERNAL_ERROR;

    /** The label value: the name in lower case ({@code invalid_event}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
