package io.gdastreams.bench;

import java.time.Duration;

/** When a wait of one stage gives up: every wait of a stage gets the whole stage timeout. */
record Deadline(Stage stage, long nanos) {

    static Deadline after(Stage stage, Duration timeout) {
        return new Deadline(stage, System.nanoTime() + timeout.toNanos());
    }

    /** Throws once the deadline has passed; {@code what} says what the stage was waiting for. */
    void check(String what) {
        if (System.nanoTime() > nanos) {
            throw new IllegalStateException(stage.label() + ": timed out " + what);
        }
    }
}
