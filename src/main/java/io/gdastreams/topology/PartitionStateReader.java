package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ResetGeneration;
import java.nio.ByteBuffer;
import io.gdastreams.serde.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Reads a partition's training state back from its {@code class-stats} store ({@link PartitionState#load}) and
 * checks that it is what was committed. Apart from {@link PartitionState} because reading is where all the checks
 * are, and they run once per (re)start, while the state itself serves every event.
 *
 * <p>An entry that cannot be read, a class entry without the progress that counts it, or counters that do not
 * match the class statistics mean the store does not hold what was committed (a damaged or partial restore): that
 * is a {@link TrainingStateException}, never a reason to drop entries. Dropping them once turned a partial restore
 * into a permanent loss: the deletions reached the changelog, and the rebuild from it then restored the loss
 * (docs/RELIABILITY.md). Reading writes nothing.
 */
final class PartitionStateReader {

    /**
     * What the store holds, checked. {@code schemaPersisted}: the schema entry holds the progress's features;
     * {@code earlierLayout}: the progress was of the earlier (JSON) layout and is to be rewritten;
     * {@code progressTail}: what is stored after the counters (the prequential state), null when nothing is.
     */
    record Contents(PartitionProgress progress, boolean schemaPersisted, boolean earlierLayout,
                    SortedMap<String, RunningGaussian> classes, SortedMap<String, CategoryCounts> categories,
                    StoredGeneration generation, byte[] progressTail) {
    }

    /**
     * The {@link PartitionState#GENERATION_KEY} entry: the reset generation and the input offset at which this
     * partition began it, {@link #UNKNOWN_START} when not known (generation 0, or a value written by a release
     * before the start offset was kept).
     */
    record StoredGeneration(ResetGeneration generation, long startOffset) {

        /** The start offset of a generation not known. */
        static final long UNKNOWN_START = -1;
        static final StoredGeneration NONE = new StoredGeneration(ResetGeneration.NONE, UNKNOWN_START);

        StoredGeneration {
            if (startOffset < UNKNOWN_START) {
                throw new IllegalArgumentException("negative start offset " + startOffset);
            }
        }
    }

    private PartitionStateReader() {
    }

    /**
     * The arguments are those of {@link PartitionState#load(KeyValueStore, int, List, List,
     * io.gdastreams.math.Statistics)}.
     */
    static Contents read(KeyValueStore<String, byte[]> store, int partition, List<String> configuredFeatures,
                         List<String> categoricalFeatures) {
        List<KeyValue<String, byte[]>> entries = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            all.forEachRemaining(entries::add);
        }
        byte[] counters = null;
        List<String> schema = null;
        StoredGeneration storedGeneration = StoredGeneration.NONE;
        for (KeyValue<String, byte[]> entry : entries) {
            if (PartitionState.PROGRESS_KEY.equals(entry.key)) {
                counters = entry.value;
            } else if (PartitionState.GENERATION_KEY.equals(entry.key)) {
                try {
                    storedGeneration = decodeGeneration(entry.value);
                } catch (RuntimeException e) {
                    throw damaged(partition, "unreadable reset generation: " + e.getMessage());
                }
            } else if (PartitionState.SCHEMA_KEY.equals(entry.key)) {
                try {
                    schema = Json.stringList(entry.value);
                } catch (RuntimeException e) {
                    throw damaged(partition, "unreadable schema: " + e.getMessage());
                }
            }
        }
        PartitionProgress progress;
        byte[] progressTail = null;
        if (counters != null) {
            try {
                ProgressCounters.Stored stored = ProgressCounters.decodeStored(counters, schema);
                progress = stored.progress();
                progressTail = stored.tail();
            } catch (RuntimeException e) {
                throw damaged(partition, "unreadable progress: " + e.getMessage());
            }
        } else {
            progress = PartitionProgress.start(partition, configuredFeatures);
        }
        boolean schemaPersisted = schema != null && schema.equals(progress.features());
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        SortedMap<String, CategoryCounts> categories = new TreeMap<>();
        int dimension = progress.features().size();
        for (KeyValue<String, byte[]> entry : entries) {
            if (entry.key.startsWith(PartitionState.CLASS_KEY_PREFIX)) {
                String label = entry.key.substring(PartitionState.CLASS_KEY_PREFIX.length());
                if (counters == null) {
                    throw damaged(partition, "statistics of class '" + label + "' but no progress");
                }
                RunningGaussian stats;
                try {
                    stats = RunningGaussian.fromBytes(entry.value);
                } catch (RuntimeException e) {
                    throw damaged(partition, "unreadable statistics of class '" + label + "': " + e.getMessage());
                }
                if (stats.dimension() != dimension) {
                    throw damaged(partition, "statistics of class '" + label + "' have dimension "
                            + stats.dimension() + " but the schema has " + dimension + " features");
                }
                classes.put(label, stats);
            } else if (entry.key.startsWith(PartitionState.CATEGORIES_KEY_PREFIX)) {
                String label = entry.key.substring(PartitionState.CATEGORIES_KEY_PREFIX.length());
                try {
                    categories.put(label, CategoryCounts.fromBytes(entry.value));
                } catch (RuntimeException e) {
                    throw damaged(partition, "unreadable category counts of class '" + label + "': "
                            + e.getMessage());
                }
            } else if (!PartitionState.PROGRESS_KEY.equals(entry.key)
                    && !PartitionState.SCHEMA_KEY.equals(entry.key)
                    && !PartitionState.GENERATION_KEY.equals(entry.key)) {
                throw damaged(partition, "unknown key '" + entry.key + "'");
            }
        }
        checkCategories(partition, classes, categories, categoricalFeatures);
        ResetGeneration generation = storedGeneration.generation();
        long classTotal = generation.dropped()
                + classes.values().stream().mapToLong(RunningGaussian::events).sum();
        if (classTotal != progress.applied()) {
            // Both are written in the same transaction: a difference means the store does not hold what was
            // committed. Refuse to go on rather than publish a model that lost events.
            throw new TrainingStateException("the training state of partition " + progress.partition()
                    + " is inconsistent: its progress counts " + progress.applied() + " applied events up to offset "
                    + progress.nextOffset() + " but its class statistics hold " + classTotal
                    + (generation.dropped() > 0 ? " (" + generation.dropped() + " dropped by resets included)" : ""));
        }
        boolean earlierLayout = counters != null && ProgressCounters.isEarlierLayout(counters);
        return new Contents(progress, schemaPersisted, earlierLayout, classes, categories, storedGeneration,
                progressTail);
    }

    /**
     * The {@link PartitionState#GENERATION_KEY} entry: 24 bytes, the generation, the dropped events and the start
     * offset (−1: unknown); or 16 bytes, without the start offset (written by earlier releases: then unknown).
     */
    static StoredGeneration decodeGeneration(byte[] bytes) {
        if (bytes.length != 2 * Long.BYTES && bytes.length != 3 * Long.BYTES) {
            throw new IllegalArgumentException("expected 24 (or 16) bytes, got " + bytes.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        ResetGeneration generation = new ResetGeneration(buffer.getLong(), buffer.getLong());
        return new StoredGeneration(generation, buffer.hasRemaining() ? buffer.getLong()
                : StoredGeneration.UNKNOWN_START);
    }

    static byte[] encodeGeneration(StoredGeneration stored) {
        return ByteBuffer.allocate(3 * Long.BYTES).putLong(stored.generation().number())
                .putLong(stored.generation().dropped()).putLong(stored.startOffset()).array();
    }

    /**
     * Every class has counts of exactly the configured categorical features, of its own count. The counts and the
     * statistics are written in the same transaction, so anything else is damage, or a change of
     * {@code gda.categorical.features} under a training that already holds events (which cannot be made good: the
     * values of the events already counted are gone).
     */
    private static void checkCategories(int partition, SortedMap<String, RunningGaussian> classes,
                                        SortedMap<String, CategoryCounts> categories,
                                        List<String> categoricalFeatures) {
        for (String label : categories.keySet()) {
            if (!classes.containsKey(label)) {
                throw damaged(partition, "category counts of class '" + label + "' but no statistics");
            }
        }
        for (Map.Entry<String, RunningGaussian> entry : classes.entrySet()) {
            CategoryCounts counts = categories.get(entry.getKey());
            List<String> held = counts == null ? List.of() : counts.features();
            if (!held.equals(categoricalFeatures)) {
                throw new TrainingStateException("the training state of partition " + partition + " holds class '"
                        + entry.getKey() + "' with the categorical features " + held + " but "
                        + ConfigKey.CATEGORICAL_FEATURES.key() + " is " + categoricalFeatures + ": the categorical"
                        + " features cannot change while a training holds events (start a new application id)");
            }
            if (counts != null && counts.count() != entry.getValue().count()) {
                throw damaged(partition, "class '" + entry.getKey() + "' counts " + entry.getValue().count()
                        + " events but its category counts " + counts.count());
            }
        }
    }

    private static TrainingStateException damaged(int partition, String what) {
        return new TrainingStateException("the training state of partition " + partition + " is damaged: " + what);
    }
}
