package io.gdastreams.topology;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** Snapshots and stores for the tests of the model combiner and its parts. */
final class CombinerFixtures {

    static final String MODEL_ID = "m";
    /** The partials topic of the application of {@link #context()}. */
    static final String PARTIALS = "training-test-class-stats-partials-repartition";

    private CombinerFixtures() {
    }

    /** Partition {@code partition}'s snapshot after reading {@code points} of class "x". */
    static PartialSnapshot snapshot(int partition, List<String> features, double[][] points) {
        return snapshot(partition, features, Map.of("x", points));
    }

    /** Partition {@code partition}'s snapshot after reading the points of each class (next offset = their count). */
    static PartialSnapshot snapshot(int partition, List<String> features, Map<String, double[][]> points) {
        TreeMap<String, RunningGaussian> classes = new TreeMap<>();
        long n = 0;
        for (Map.Entry<String, double[][]> entry : points.entrySet()) {
            RunningGaussian g = new RunningGaussian(features.size());
            for (double[] p : entry.getValue()) {
                g.update(p);
            }
            classes.put(entry.getKey(), g);
            n += g.count();
        }
        return new PartialSnapshot(MODEL_ID, new PartitionProgress(partition, n, n, 0, features), classes);
    }

    static byte[] encode(PartialSnapshot snapshot) {
        return SerdeFactory.partialSnapshot().serializer().serialize(null, snapshot);
    }

    /** An empty in-memory store named {@code name}, registered with {@code context}. */
    static KeyValueStore<String, byte[]> store(MockProcessorContext<?, ?> context, String name) {
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                SerdeFactory.string(), SerdeFactory.rawBytes()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }

    static Set<String> keys(KeyValueStore<String, byte[]> store) {
        Set<String> keys = new TreeSet<>();
        try (var all = store.all()) {
            all.forEachRemaining(entry -> keys.add(entry.key));
        }
        return keys;
    }

    /** The models forwarded to {@code context}, decoded, in order. */
    static List<ModelParameters> models(MockProcessorContext<String, TrainingOutput> context) {
        List<ModelParameters> models = new ArrayList<>();
        context.forwarded().forEach(f -> {
            if (f.record().value() instanceof TrainingOutput.Model m) {
                models.add(decodeModel(m.model()));
            }
        });
        return models;
    }

    /** The punctuator of the latest combiner initialised over this context. */
    static Punctuator lastPunctuator(MockProcessorContext<String, TrainingOutput> context) {
        List<MockProcessorContext.CapturedPunctuator> all = context.scheduledPunctuators();
        return all.get(all.size() - 1).getPunctuator();
    }

    /** A combiner task's context (application "training-test", task 1_0) with its two stores, at time 0. */
    static MockProcessorContext<String, TrainingOutput> context() {
        return context("training-test", new TaskId(1, 0), TrainingTopology.COMBINER_STORE,
                TrainingTopology.PUBLISHED_STORE);
    }

    /** The context of task {@code task} of application {@code applicationId} with empty {@code stores}, at time 0. */
    static MockProcessorContext<String, TrainingOutput> context(String applicationId, TaskId task, String... stores) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        MockProcessorContext<String, TrainingOutput> context = new MockProcessorContext<>(props, task, null);
        context.setCurrentSystemTimeMs(0L);
        for (String name : stores) {
            store(context, name);
        }
        return context;
    }

    static ModelParameters decodeModel(byte[] bytes) {
        return SerdeFactory.model().deserializer().deserialize(null, bytes);
    }
}
