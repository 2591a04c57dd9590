package io.gdastreams.topology;

/**
 * The trainer's persisted state contradicts itself, the committed input offsets or what it has already published:
 * going on would publish a model that lost events, counted some twice or went backwards. It is fatal for the
 * Kafka Streams client (not for a single record): the service rebuilds its local state from the changelogs once,
 * then stops with this message; docs/RELIABILITY.md says how to recover.
 */
public final class TrainingStateException extends RuntimeException {

    public TrainingStateException(String message) {
        super(message);
    }
}
