package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.util.Set;

/**
 * What the topologies tell about their work as it happens, for metrics and progress lines. The topologies call it
 * and know nothing about who listens: the service layer implements it (with Micrometer), so that this package
 * stays free of metrics libraries and I/O. Kafka Streams' own sensors were the other way; they would tie the
 * figures to a task's lifetime (a migrated task takes its counts with it), where these count for the process.
 *
 * <p>Called on stream threads: an implementation must be thread-safe and cheap (no I/O, no blocking). Every method
 * does nothing by default; {@link #NONE} listens to nothing.
 */
public interface StreamObserver {

    /** Listens to nothing: topology tests and tools that need no figures. */
    StreamObserver NONE = new StreamObserver() {
    };

    /** The trainer applied one labelled event to its statistics. */
    default void eventApplied() {
    }

    /** A record went to the dead-letter topic, for a reason of {@code category}. */
    default void deadLettered(DeadLetterCategory category) {
    }

    /**
     * The scorer wrote one answer of {@code status} for an input record whose timestamp is
     * {@code inputTimestampMs} (wall-clock milliseconds; the latency is measured from it).
     */
    default void predicted(Prediction.Status status, long inputTimestampMs) {
    }

    /** The number of events task {@code task} holds until a model arrives is now {@code count}. */
    default void pendingEvents(String task, long count) {
    }

    /**
     * The trainer sent {@code model} to the model topic, without {@code leftOut} classes that would have taken it
     * past the size bound (docs/TRAINING.md, "Model size"; usually none).
     */
    default void modelPublished(ModelParameters model, Set<String> leftOut) {
    }

    /**
     * The trainer's view of the model topic took {@code record} (the raw value, its signature checked; empty: a
     * tombstone) as the newest record of its model id, whichever instance of the application published it.
     */
    default void modelRecordSeen(byte[] record) {
    }

    /**
     * The model combiner, which runs in this process, holds the next model version back for {@code reason} (it
     * could not publish at its last try: waiting for a partition, too large, instances configured differently);
     * null: it published again, or its task left this process.
     */
    default void modelHeld(String reason) {
    }
}
