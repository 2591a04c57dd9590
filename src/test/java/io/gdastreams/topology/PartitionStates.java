package io.gdastreams.topology;

import io.gdastreams.math.Statistics;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;

/** {@link PartitionState#load} with the defaults of most tests: full statistics, no categorical features. */
final class PartitionStates {

    private PartitionStates() {
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
