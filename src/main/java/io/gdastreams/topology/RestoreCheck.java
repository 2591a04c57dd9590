package io.gdastreams.topology;

import io.gdastreams.model.PartitionProgress;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Is a partition's training state, as restored by Kafka Streams, the state its committed input offset stands for?
 *
 * <p>Why this is checked: every record the trainer reads moves the state's next offset to the record's offset + 1
 * in the same transaction that commits the input offset, so under exactly-once the two are equal, except that
 * the committed offset may also step over transaction markers and aborted records after the last record read.
 * Kafka Streams' own restore can break this: a task closed while it restores can write a checkpoint that claims
 * the changelog's end offset, and is then started from an old, partial store (KAFKA-16017; seen on 4.3.1 in a
 * fault run, docs/RELIABILITY.md). A trainer that went on from such a state would silently lose every event
 * between the two offsets, and then overwrite the complete state in the changelog with the incomplete one.
 *
 * <p>The rules, for a state whose next offset is {@code s} and a committed offset {@code c}:
 * <ul>
 *   <li>{@code s < c} and a record lies in {@code [s, c)}: events were committed that the state does not hold
 *       (under either guarantee): lost.</li>
 *   <li>{@code s > c}, or no committed offset while the state has read records: under exactly-once the state is
 *       ahead of the input offsets (they were reset, deleted or expired), and reading the records again would
 *       count them twice. At-least-once accepts that (it may count a record twice after a crash anyway).</li>
 *   <li>otherwise the state is the committed one.</li>
 * </ul>
 */
final class RestoreCheck {

    private RestoreCheck() {
    }

    /**
     * Why {@code progress} is not the state the committed input offset stands for, or empty when it is.
     *
     * @param topic the input topic of the partition
     * @param progress the restored state's progress
     * @param exactlyOnce whether the application runs exactly_once_v2
     * @param input the group's committed offsets and the input topic
     */
    static Optional<String> problem(String topic, PartitionProgress progress, boolean exactlyOnce,
                                    CommittedInput input) {
        int partition = progress.partition();
        long reached = progress.nextOffset();
        OptionalLong committed = input.committedOffset(topic, partition);
        String where = topic + "-" + partition;
        if (committed.isEmpty()) {
            if (exactlyOnce && progress.recordsRead() > 0) {
                return Optional.of("the training state of " + where + " has read " + progress.recordsRead()
                        + " records up to offset " + reached + " but the consumer group has no committed offset"
                        + " there (deleted or expired): reading the partition again would count its events twice");
            }
            return Optional.empty();
        }
        long offset = committed.getAsLong();
        if (reached > offset) {
            return exactlyOnce
                    ? Optional.of("the training state of " + where + " reaches offset " + reached
                            + " but the consumer group committed offset " + offset + " (the input offsets were"
                            + " reset): reading from there would count " + (reached - offset) + " offsets twice")
                    : Optional.empty();
        }
        if (reached < offset && input.hasRecords(topic, partition, reached, offset)) {
            return Optional.of("the training state of " + where + " reaches offset " + reached
                    + " but the consumer group committed offset " + offset + ": the records in between were read"
                    + " and committed, and the state restored by Kafka Streams does not hold them");
        }
        return Optional.empty();
    }
}
