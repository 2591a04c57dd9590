package io.gdastreams.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Bounded waits for a condition, polled; the wait is never the assertion, the condition is. */
public final class Await {

    private static final Duration POLL = Duration.ofMillis(50);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails with {@code what} and {@code state} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what + "; "
                        + state.get());
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what, e);
            }
        }
    }
}
