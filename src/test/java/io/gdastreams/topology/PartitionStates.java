package io.gdastreams.topology;

import io.gdastreams.math.Statistics;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * {@link PartitionState#load} with the defaults of most tests (full statistics, no categorical features), and the
 * store it loads from.
 */
final class PartitionStates {

    private PartitionStates() {
    }

    /** An empty in-memory {@link TrainingTopology#CLASS_STATS_STORE} of task 0_0, without a changelog. */
    static KeyValueStore<String, byte[]> store() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "partition-state-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return CombinerFixtures.store(new MockProcessorContext<>(props, new TaskId(0, 0), null),
                TrainingTopology.CLASS_STATS_STORE);
    }

    static PartitionState load(KeyValueStore<String, byte[]> store, int partition, List<String> configuredFeatures) {
        return load(store, partition, configuredFeatures, List.of());
    }

    static PartitionState load(KeyValueStore<String, byte[]> store, int partition, List<String> configuredFeatures,
                               List<String> categoricalFeatures) {
        return PartitionState.load(store, partition, configuredFeatures, categoricalFeatures, Statistics.FULL);
    }

    static PartitionState load(KeyValueStore<String, byte[]> store, int partition, List<String> configuredFeatures,
                               List<String> categoricalFeatures, Statistics statistics) {
        return PartitionState.load(store, partition, configuredFeatures, categoricalFeatures, statistics);
    }
}
