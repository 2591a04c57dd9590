package io.gdastreams.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;

/**
 * The Kafka Streams instances one test started. Closing this closes every instance still running, so a failed
 * assertion never leaves stream threads behind to disturb the next test.
 */
public final class StreamsInstances implements AutoCloseable {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final List<KafkaStreams> running = new ArrayList<>();

    /** Starts {@code topology} with {@code props}. */
    public KafkaStreams start(Topology topology, Properties props) {
        return start(topology, props, streams -> { });
    }

    /** As {@link #start(Topology, Properties)}, with {@code beforeStart} run first (to register listeners). */
    public KafkaStreams start(Topology topology, Properties props, Consumer<KafkaStreams> beforeStart) {
        KafkaStreams streams = new KafkaStreams(topology, props);
        running.add(streams);
        beforeStart.accept(streams);
        streams.start();
        return streams;
    }

    /** Waits until every instance is RUNNING (started, partitions assigned, state restored). */
    public static void awaitRunning(Duration timeout, KafkaStreams... instances) {
        List<KafkaStreams> all = List.of(instances);
        Await.until("every instance is RUNNING", timeout,
                () -> all.stream().allMatch(s -> s.state() == KafkaStreams.State.RUNNING),
                () -> "states " + all.stream().map(s -> s.state().toString()).collect(Collectors.joining(", ")));
    }

    /**
     * Closes one instance cleanly (commits, writes checkpoints) and leaves the consumer group, so that a restart
     * or the remaining instances get the tasks at once instead of after the session timeout (45 s); the state
     * directory stays.
     */
    public void stop(KafkaStreams streams) {
        if (!streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(CLOSE_TIMEOUT))) {
            throw new AssertionError("instance did not close within " + CLOSE_TIMEOUT);
        }
        running.remove(streams);
    }

    @Override
    public void close() {
        for (KafkaStreams streams : running) {
            streams.close(CLOSE_TIMEOUT);
        }
        running.clear();
    }
}
