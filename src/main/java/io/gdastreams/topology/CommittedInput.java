package io.gdastreams.topology;

import java.util.Map;
import java.util.OptionalLong;

/**
 * What the consumer group of the training application has committed on its input: the reference a restored
 * partition state is checked against ({@link RestoreCheck}). {@code service.GroupCommittedInput} asks the broker
 * (the services pass it to the topology, which opens no client itself); topology tests, which have no consumer
 * group, give fixed answers.
 */
public interface CommittedInput extends AutoCloseable {

    /** Opens a {@link CommittedInput} for an application, given its Kafka Streams configuration. */
    @FunctionalInterface
    interface Source {
        CommittedInput open(Map<String, Object> appConfigs);
    }

    /** The next offset the group committed on {@code partition} of {@code topic}; empty when it has none. */
    OptionalLong committedOffset(String topic, int partition);

    /**
     * Whether offsets {@code [from, to)} of the partition hold a record a read_committed consumer would read.
     * Offsets that hold only transaction markers or aborted records are no records; offsets already deleted (below
     * the log start offset) cannot be read and count as none.
     */
    boolean hasRecords(String topic, int partition, long from, long to);

    @Override
    default void close() {
    }
}
