package io.gdastreams.bench;

import java.util.Locale;

/** The three applications a benchmark run measures, in the order it runs them. */
enum Stage {
    PASSTHROUGH, TRAINING, SCORING;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
