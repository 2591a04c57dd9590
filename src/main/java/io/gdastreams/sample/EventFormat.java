package io.gdastreams.sample;

import io.gdastreams.lifecycle.UserError;
import java.util.Locale;

/** How drawn events are written to a file or stdout ({@code --format}). */
public enum EventFormat {
    /** A header (the features, then {@code label}), then one row per event: what {@code replay --train} reads. */
    CSV,
    /** One labelled event per line, the JSON the labelled-events topic carries (what {@code train} accepts). */
    JSONL;

    /** The format of a {@code --format} value ({@code csv} or {@code jsonl}, any case), or a user error. */
    public static EventFormat parse(String value) {
        for (EventFormat format : values()) {
            if (format.name().equalsIgnoreCase(value.trim())) {
                return format;
            }
        }
        throw new UserError("--format " + value + ": expected csv or jsonl");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
