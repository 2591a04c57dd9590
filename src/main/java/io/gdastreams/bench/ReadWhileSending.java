package io.gdastreams.bench;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Reads a stage's outputs on a thread of its own while the calling thread sends the paced events, so that each
 * output is seen when it becomes visible to a {@code read_committed} consumer rather than after the last event was
 * sent. A failed send interrupts the reader (its consumer's {@code poll} then throws) before the failure is passed on;
 * a failed read is passed on once the sending is over.
 */
final class ReadWhileSending {

    /** What the sender returned (the events' append times) and what the reader returned. */
    record Sent<T>(long[] appended, T read) {
    }

    private ReadWhileSending() {
    }

    static <T> Sent<T> run(Supplier<long[]> send, Callable<T> read) {
        FutureTask<T> reading = new FutureTask<>(read);
        Thread reader = new Thread(reading, "bench-paced-reader");
        reader.setDaemon(true);
        reader.start();
        long[] appended;
        try {
            appended = send.get();
        } catch (RuntimeException | Error e) {
            reader.interrupt();
            joinQuietly(reader);
            throw e;
        }
        try {
            return new Sent<>(appended, reading.get());
        } catch (InterruptedException e) {
            reader.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the paced events' outputs", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("cannot read the paced events' outputs", e.getCause());
        }
    }

    private static void joinQuietly(Thread reader) {
        try {
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
