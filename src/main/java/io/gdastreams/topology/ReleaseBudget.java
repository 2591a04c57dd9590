package io.gdastreams.topology;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How long a stream thread may spend releasing held events: at most {@link #BUDGET_NANOS} in each
 * {@link #WINDOW_NANOS} of wall-clock time, shared by every scoring task the thread runs (at least one event per
 * window, so that a drain always moves).
 *
 * <p>Why per thread: under exactly-once a stream thread's transaction holds what all its tasks write between two
 * commits, and Kafka Streams commits only after a round of processing and punctuation over all of them. Thousands of
 * held events scored by a large model, released per task and per call, could keep one transaction open past the
 * transaction timeout (10 s): the coordinator aborts it, the held events come back from the changelog and are released
 * again, and again. A quarter of each second keeps the releases' share of any transaction to a quarter of its length.
 */
final class ReleaseBudget {

    static final long WINDOW_NANOS = 1_000_000_000L;
    static final long BUDGET_NANOS = 250_000_000L;

    /** The windows of the stream threads (a task's processor may run on another thread after a rebalance). */
    private static final ThreadLocal<Window> STREAM_THREAD = ThreadLocal.withInitial(Window::new);

    private final LongSupplier clock;
    private final long budget;
    private final Supplier<Window> window;

    private ReleaseBudget(LongSupplier clock, long budget, Supplier<Window> window) {
        this.clock = clock;
        this.budget = budget;
        this.window = window;
    }

    /** The budget of whichever stream thread calls. */
    static ReleaseBudget perStreamThread() {
        return new ReleaseBudget(System::nanoTime, BUDGET_NANOS, STREAM_THREAD::get);
    }

    /** One window of {@code budget} nanoseconds on {@code clock}, shared by whoever holds this (tests). */
    static ReleaseBudget of(LongSupplier clock, long budget) {
        Window shared = new Window();
        return new ReleaseBudget(clock, budget, () -> shared);
    }

    /** Begins a release; false when the current window's budget is spent (release nothing now). */
    boolean begin() {
        Window w = window.get();
        long now = clock.getAsLong();
        if (w.releases == 0 || now - w.start >= WINDOW_NANOS) {
            w.start = now;
            w.spent = 0;
            w.releases = 0;
        } else if (w.spent >= budget) {
            return false;
        }
        w.releases++;
        w.begun = now;
        return true;
    }

    /** Whether the release begun has used what its window had left (it stops after the event in hand). */
    boolean exhausted() {
        Window w = window.get();
        return w.spent + (clock.getAsLong() - w.begun) >= budget;
    }

    /** Ends the release begun, counting its time against the window. */
    void end() {
        Window w = window.get();
        w.spent += clock.getAsLong() - w.begun;
    }

    /** One thread's window: when it began, what its releases spent, how many there were. */
    private static final class Window {
        long start;
        long spent;
        long releases;
        long begun;
    }
}
