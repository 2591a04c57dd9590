package io.gdastreams.topology;

/**
 * The trainer's persisted state contradicts itself or what it has already published: going on would publish a
 * model that lost events or went backwards. It is fatal for the application (not for a single record): the
 * service stops with this message instead of replacing the stream thread, and docs/RELIABILITY.md says how to
 * recover.
 */
public final class TrainingStateException extends RuntimeException {

    public TrainingStateException(String message) {
        super(message);
    }
}
