package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.Forgetting;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The training state of one input partition (class statistics and {@link PartitionProgress}) in a
 * changelog-backed key-value store, written through on every event.
 *
 * <p>Why write-through: under exactly_once_v2 a store write made while a record is processed belongs to the
 * transaction that commits the record's offset, whatever path the commit takes (a regular commit, a revocation,
 * a corrupted or fenced task, which aborts both). Kafka Streams offers no public hook that runs before every
 * commit, and keeping dirty state outside the store until such a hook runs lost applied events when a long
 * broker outage fenced the producer (docs/RELIABILITY.md). The store is built with Kafka Streams' record cache,
 * so each key reaches RocksDB and the changelog once per commit however often it is put: the cost per event is
 * serialising the updated class (O(d²), the same order as the update) and two cache puts.
 *
 * <p>The decoded statistics are kept beside the store as a read cache, so that an event does not deserialise
 * its class. The cache always equals the store: every change goes to both, and a new instance (one per
 * processor {@code init}, which Kafka Streams calls after every restore, revival or recycling of the task)
 * starts empty and loads from the store.
 *
 * <p>Store layout: {@code class:<label>} → {@link RunningGaussian#toBytes()}; {@code progress} → the counters
 * (partition, next offset, applied, dead-lettered; 29 bytes, see {@link #encodeCounters}); {@code schema} → the
 * feature names as a JSON array, written when the schema is fixed; {@code categories:<label>} →
 * {@link CategoryCounts#toBytes()}, only when categorical features are configured (a store written without them
 * has no such key, and loads as before). A class touched by a weight, a retraction or forgetting is stored in the
 * weighted form of {@link RunningGaussian} (its version 2); the progress counts every applied event, so the check
 * on load is applied = Σ (count + 2·retractions) over the classes. Not thread-safe (one stream thread owns a task).
 */
final class PartitionState {

    static final String PROGRESS_KEY = "progress";
    static final String SCHEMA_KEY = "schema";
    static final String CLASS_KEY_PREFIX = "class:";
    static final String CATEGORIES_KEY_PREFIX = "categories:";
    /** First byte of the binary counters; a JSON progress (the layout before it) starts with '{'. */
    private static final byte COUNTERS_FORMAT = 1;
    private static final int COUNTERS_BYTES = 1 + Integer.BYTES + 3 * Long.BYTES;

    private final KeyValueStore<String, byte[]> store;
    private final SortedMap<String, RunningGaussian> classes = new TreeMap<>();
    /** label → value counts of the categorical features; empty when none is configured. */
    private final SortedMap<String, CategoryCounts> categories = new TreeMap<>();
    private final List<String> categoricalFeatures;
    /**
     * Per categorical feature, the union of its values over the classes (kept beside the counts so that the
     * vocabulary bound costs one lookup per event, not one per class).
     */
    private final List<Set<String>> vocabulary = new ArrayList<>();
    private PartitionProgress progress;
    /** The schema entry holds {@code progress.features()}. */
    private boolean schemaPersisted;

    private PartitionState(KeyValueStore<String, byte[]> store, List<String> categoricalFeatures) {
        this.store = store;
        this.categoricalFeatures = List.copyOf(categoricalFeatures);
        for (int j = 0; j < categoricalFeatures.size(); j++) {
            vocabulary.add(new HashSet<>());
        }
    }

    /** As {@link #load(KeyValueStore, int, List, List)} without categorical features. */
    static PartitionState load(KeyValueStore<String, byte[]> store, int partition, List<String> configuredFeatures) {
        return load(store, partition, configuredFeatures, List.of());
    }

    /**
     * Reads the state of a partition from {@code store}.
     *
     * <p>An entry that cannot be read, a class entry without the progress that counts it, or counters that do not
     * match the class statistics mean the store does not hold what was committed (a damaged or partial restore):
     * that is a {@link TrainingStateException}, never a reason to drop entries. Dropping them once turned a
     * partial restore into a permanent loss: the deletions reached the changelog, and the rebuild from it then
     * restored the loss (docs/RELIABILITY.md).
     *
     * @param store the task's store (not modified, except that a progress of the earlier JSON layout is rewritten)
     * @param partition the task's input partition (for a fresh progress)
     * @param configuredFeatures the schema to start with when nothing is persisted (may be empty)
     * @param categoricalFeatures the configured categorical features: every class must have their counts (and
     *                            none when there are none), else the configuration changed under a running training
     * @throws TrainingStateException when the store does not hold a consistent state
     */
    static PartitionState load(KeyValueStore<String, byte[]> store, int partition, List<String> configuredFeatures,
                               List<String> categoricalFeatures) {
        PartitionState state = new PartitionState(store, categoricalFeatures);
        List<KeyValue<String, byte[]>> entries = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            all.forEachRemaining(entries::add);
        }
        byte[] counters = null;
        List<String> schema = null;
        for (KeyValue<String, byte[]> entry : entries) {
            if (PROGRESS_KEY.equals(entry.key)) {
                counters = entry.value;
            } else if (SCHEMA_KEY.equals(entry.key)) {
                try {
                    schema = Json.stringList(entry.value);
                } catch (RuntimeException e) {
                    throw damaged(partition, "unreadable schema: " + e.getMessage());
                }
            }
        }
        if (counters != null) {
            try {
                state.progress = decodeProgress(counters, schema);
            } catch (RuntimeException e) {
                throw damaged(partition, "unreadable progress: " + e.getMessage());
            }
        } else {
            state.progress = PartitionProgress.start(partition, configuredFeatures);
        }
        state.schemaPersisted = schema != null && schema.equals(state.progress.features());
        int dimension = state.progress.features().size();
        for (KeyValue<String, byte[]> entry : entries) {
            if (entry.key.startsWith(CLASS_KEY_PREFIX)) {
                String label = entry.key.substring(CLASS_KEY_PREFIX.length());
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
                state.classes.put(label, stats);
            } else if (entry.key.startsWith(CATEGORIES_KEY_PREFIX)) {
                String label = entry.key.substring(CATEGORIES_KEY_PREFIX.length());
                try {
                    state.categories.put(label, CategoryCounts.fromBytes(entry.value));
                } catch (RuntimeException e) {
                    throw damaged(partition, "unreadable category counts of class '" + label + "': "
                            + e.getMessage());
                }
            } else if (!PROGRESS_KEY.equals(entry.key) && !SCHEMA_KEY.equals(entry.key)) {
                throw damaged(partition, "unknown key '" + entry.key + "'");
            }
        }
        state.checkCategories(partition);
        for (CategoryCounts counts : state.categories.values()) {
            for (int j = 0; j < state.vocabulary.size(); j++) {
                state.vocabulary.get(j).addAll(counts.counts(j).keySet());
            }
        }
        long classTotal = state.classes.values().stream().mapToLong(RunningGaussian::events).sum();
        PartitionProgress p = state.progress;
        if (classTotal != p.applied()) {
            // Both are written in the same transaction: a difference means the store does not hold what was
            // committed. Refuse to go on rather than publish a model that lost events.
            throw new TrainingStateException("the training state of partition " + p.partition()
                    + " is inconsistent: its progress counts " + p.applied() + " applied events up to offset "
                    + p.nextOffset() + " but its class statistics hold " + classTotal);
        }
        if (counters != null && counters.length > 0 && counters[0] != COUNTERS_FORMAT) {
            state.setProgress(p); // rewrite a progress of the earlier (JSON) layout in the current one
        }
        return state;
    }

    /**
     * Every class has counts of exactly the configured categorical features, of its own count. The counts and the
     * statistics are written in the same transaction, so anything else is damage, or a change of
     * {@code gda.categorical.features} under a training that already holds events (which cannot be made good: the
     * values of the events already counted are gone).
     */
    private void checkCategories(int partition) {
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

    /** Read-only view of the statistics by label. */
    SortedMap<String, RunningGaussian> classes() {
        return Collections.unmodifiableSortedMap(classes);
    }

    /** Read-only view of the category counts by label (empty without categorical features). */
    SortedMap<String, CategoryCounts> categories() {
        return Collections.unmodifiableSortedMap(categories);
    }

    List<String> categoricalFeatures() {
        return categoricalFeatures;
    }

    /** Whether any class of this partition has value {@code value} of categorical feature j. */
    boolean hasValue(int j, String value) {
        return vocabulary.get(j).contains(value);
    }

    /** The distinct values of categorical feature j over the classes of this partition (a read-only view). */
    Set<String> values(int j) {
        return Collections.unmodifiableSet(vocabulary.get(j));
    }

    int classCount() {
        return classes.size();
    }

    boolean hasClass(String label) {
        return classes.containsKey(label);
    }

    /** Adds {@code point} to the statistics of {@code label} (created if new) and writes them through. */
    void update(String label, double[] point) {
        update(label, point, null);
    }

    /**
     * As {@link #update(String, double[])}, with the values of the categorical features in their configured order
     * ({@code values}: null exactly when none is configured).
     */
    void update(String label, double[] point, String[] values) {
        if ((values == null) != categoricalFeatures.isEmpty()
                || (values != null && (values.length != categoricalFeatures.size()
                        || Arrays.asList(values).contains(null)))) {
            throw new IllegalArgumentException("expected a value of each of " + categoricalFeatures);
        }
        RunningGaussian stats = classes.computeIfAbsent(label, l -> new RunningGaussian(progress.features().size()));
        if (values != null) {
            // The values are checked above and the point by stats.update before it changes anything, so the
            // counts are updated only with the statistics.
            CategoryCounts counts = categories.computeIfAbsent(label, l -> new CategoryCounts(categoricalFeatures));
            stats.update(point);
            counts.update(values);
            for (int j = 0; j < values.length; j++) {
                vocabulary.get(j).add(values[j]);
            }
            store.put(CATEGORIES_KEY_PREFIX + label, counts.toBytes());
        } else {
            stats.update(point);
        }
        store.put(CLASS_KEY_PREFIX + label, stats.toBytes());
    }

    /**
     * Adds {@code point} with sample weight {@code weight} and event time {@code time} to the statistics of
     * {@code label} (created if new) and writes them through: with {@code forgetting} (not null) the weight decays
     * by event time ({@link Forgetting#update}), else it is the weight alone. Only without categorical features.
     */
    void updateWeighted(String label, double[] point, double weight, long time, Forgetting forgetting) {
        if (!categoricalFeatures.isEmpty()) {
            throw new IllegalStateException("weighted statistics with categorical features");
        }
        RunningGaussian stats = classes.computeIfAbsent(label, l -> new RunningGaussian(progress.features().size()));
        if (forgetting != null) {
            forgetting.update(stats, point, weight, time);
        } else {
            stats.update(point, weight);
        }
        store.put(CLASS_KEY_PREFIX + label, stats.toBytes());
    }

    /**
     * Removes one earlier observation ({@code point}, {@code weight}, original event time {@code time}) from the
     * statistics of {@code label} and writes them through; returns why it cannot (nothing changes then), or null.
     */
    String retract(String label, double[] point, double weight, long time, Forgetting forgetting) {
        if (!categoricalFeatures.isEmpty()) {
            throw new IllegalStateException("retraction with categorical features");
        }
        RunningGaussian stats = classes.get(label);
        if (stats == null) {
            return "retraction: class '" + label + "' has no observation in partition " + progress.partition()
                    + " (its count would become negative)";
        }
        String refused = forgetting != null ? forgetting.retract(stats, point, weight, time)
                : stats.retract(point, weight);
        if (refused != null) {
            return "retraction refused for class '" + label + "': " + refused;
        }
        store.put(CLASS_KEY_PREFIX + label, stats.toBytes());
        return null;
    }

    PartitionProgress progress() {
        return progress;
    }

    /** Sets and writes through the progress; the schema entry only when the schema changes. */
    void setProgress(PartitionProgress newProgress) {
        List<String> features = newProgress.features();
        if (!schemaPersisted || (features != progress.features() && !features.equals(progress.features()))) {
            store.put(SCHEMA_KEY, Json.toBytes(features));
            schemaPersisted = true;
        }
        progress = newProgress;
        store.put(PROGRESS_KEY, encodeCounters(newProgress));
    }

    /** Format 1: byte 1, int partition, long next offset, long applied, long dead-lettered (big-endian). */
    static byte[] encodeCounters(PartitionProgress p) {
        return ByteBuffer.allocate(COUNTERS_BYTES).put(COUNTERS_FORMAT).putInt(p.partition()).putLong(p.nextOffset())
                .putLong(p.applied()).putLong(p.deadLettered()).array();
    }

    private static PartitionProgress decodeProgress(byte[] bytes, List<String> schema) {
        if (bytes.length > 0 && bytes[0] == '{') {
            return SerdeFactory.partitionProgress().deserializer().deserialize(null, bytes); // earlier layout
        }
        if (bytes.length != COUNTERS_BYTES || bytes[0] != COUNTERS_FORMAT) {
            throw new IllegalArgumentException("expected " + COUNTERS_BYTES + " bytes of format " + COUNTERS_FORMAT
                    + ", got " + bytes.length + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 1, COUNTERS_BYTES - 1);
        return new PartitionProgress(buffer.getInt(), buffer.getLong(), buffer.getLong(), buffer.getLong(),
                schema == null ? List.of() : schema);
    }
}
