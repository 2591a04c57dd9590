package io.gdastreams.topology;

/**
 * The trainer's persisted state contradicts itself, the committed input offsets or what it has already published:
 * going on would publish a model that lost events, counted some twice or went backwards. It is fatal for the
 * Kafka Streams client (not for a single record): the service rebuilds its local state from the changelogs once,
 * then stops with this message; docs/RELIABILITY.md says how to recover.
 */
public final class TrainingStateException extends RuntimeException {

    /** False when the state is sound but the configuration cannot read it: rebuilding it would find the same. */
    private final boolean rebuildMayHelp;

    public TrainingStateException(String message) {
        this(message, true);
    }

    private TrainingStateException(String message, boolean rebuildMayHelp) {
        super(message);
        this.rebuildMayHelp = rebuildMayHelp;
    }

    /** The state is sound but this configuration cannot go on with it (the service stops at once, no rebuild). */
    public static TrainingStateException configurationConflict(String message) {
        return new TrainingStateException(message, false);
    }

    public boolean rebuildMayHelp() {
        return rebuildMayHelp;
    }
}
