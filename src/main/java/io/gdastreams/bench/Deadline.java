package io.gdastreams.bench;

import java.time.Duration;

/**
 * When a wait gives up: every wait of a stage gets the whole stage timeout.
 *
 * @param who   what is waiting (a stage's label, an instance host), the start of the failure's message
 * @param nanos the {@link System#nanoTime()} after which it gives up
 */
record Deadline(String who, long nanos) {

    static Deadline after(Stage stage, Duration timeout) {
        return after(stage.label(), timeout);
    }

    static Deadline after(String who, Duration timeout) {
        return new Deadline(who, System.nanoTime() + timeout.toNanos());
    }

    /** Throws once the deadline has passed; {@code what} says what was waited for. */
    void check(String what) {
        if (System.nanoTime() > nanos) {
            throw new IllegalStateException(who + ": timed out " + what);
        }
    }
}
