package io.gdastreams.topology;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.SerdeFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * The training state of one input partition (class statistics and {@link PartitionProgress}) kept as live
 * objects between commits, and written to a changelog-backed inner key-value store once per commit.
 *
 * <p>Why: the scatter matrix of a class is d² doubles (256 KB at d = 256); reading and re-serialising it for
 * every event would cost far more than the O(d²) update itself (DESIGN §6).
 *
 * <p>When: Kafka Streams 4.3 calls {@code StateStore.flush()} / {@code commit(Map)} only when it writes a
 * checkpoint, which happens after the offsets are committed, and under exactly_once_v2 not at every commit at
 * all. The one store hook inside {@code StreamTask.prepareCommit()}, before the offsets and the transaction are
 * committed, is {@link CachedStateStore#flushCache()} (the hook of Kafka Streams' own record caches; an internal
 * interface, checked against the pinned 4.3.1). So dirty entries are written there: the changelog records then
 * belong to the same transaction as the consumed offsets and the emitted partial snapshots, and a crash can
 * neither lose an update nor count one twice. {@link #commit(Map)} also writes anything still dirty, as a
 * safety net should a future version call only that.
 *
 * <p>Live objects are dropped whenever the store is (re)initialised, closed, or its task is recycled
 * ({@link #clearCache()}), and reloaded lazily from the inner store: after a restore the inner store is the
 * truth. Not thread-safe (one stream thread owns a task).
 */
final class PartialStatsStore implements StateStore, CachedStateStore<String, byte[]> {

    static final String PROGRESS_KEY = "progress";
    private static final String CLASS_KEY_PREFIX = "class:";

    /** An inner-store entry that could not be read; it has been removed from the store. */
    record UnreadableEntry(String key, byte[] value, String reason) {
    }

    private final KeyValueStore<String, byte[]> inner;
    private final Serde<PartitionProgress> progressSerde = SerdeFactory.partitionProgress();
    private final SortedMap<String, RunningGaussian> classes = new TreeMap<>();
    private final Set<String> dirtyClasses = new HashSet<>();
    private PartitionProgress progress;
    private boolean progressDirty;
    private boolean loaded;

    PartialStatsStore(KeyValueStore<String, byte[]> inner) {
        this.inner = inner;
    }

    /**
     * Loads the persisted state into live objects, once per incarnation of the store. Entries that cannot be
     * read are removed and returned, so that the caller can report them; a class whose statistics are lost
     * this way is rebuilt from later events only.
     *
     * @param partition the task's input partition (for a fresh progress)
     * @param configuredFeatures the schema to start with when nothing is persisted (may be empty)
     */
    List<UnreadableEntry> loadIfNeeded(int partition, List<String> configuredFeatures) {
        if (loaded) {
            return List.of();
        }
        List<UnreadableEntry> unreadable = new ArrayList<>();
        List<KeyValue<String, byte[]>> entries = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = inner.all()) {
            all.forEachRemaining(entries::add);
        }
        PartitionProgress restored = null;
        for (KeyValue<String, byte[]> entry : entries) {
            if (PROGRESS_KEY.equals(entry.key)) {
                try {
                    restored = progressSerde.deserializer().deserialize(null, entry.value);
                } catch (RuntimeException e) {
                    unreadable.add(new UnreadableEntry(entry.key, entry.value, "unreadable progress: " + e.getMessage()));
                }
            }
        }
        progress = restored != null ? restored : PartitionProgress.start(partition, configuredFeatures);
        int dimension = progress.features().size();
        for (KeyValue<String, byte[]> entry : entries) {
            if (entry.key.startsWith(CLASS_KEY_PREFIX)) {
                String label = entry.key.substring(CLASS_KEY_PREFIX.length());
                try {
                    RunningGaussian stats = RunningGaussian.fromBytes(entry.value);
                    if (stats.dimension() != dimension) {
                        throw new IllegalArgumentException("dimension " + stats.dimension() + " but the schema has "
                                + dimension + " features");
                    }
                    classes.put(label, stats);
                } catch (RuntimeException e) {
                    unreadable.add(new UnreadableEntry(entry.key, entry.value,
                            "unreadable statistics of class '" + label + "': " + e.getMessage()));
                }
            } else if (!PROGRESS_KEY.equals(entry.key)) {
                unreadable.add(new UnreadableEntry(entry.key, entry.value, "unknown key"));
            }
        }
        for (UnreadableEntry entry : unreadable) {
            inner.delete(entry.key());
        }
        long classTotal = 0;
        for (RunningGaussian stats : classes.values()) {
            classTotal += stats.count();
        }
        if (classTotal != progress.applied()) {
            // Events whose statistics were discarded count as dead-lettered (the dead letter of the store entry
            // stands for them), so that applied = Σ class counts and applied + deadLettered = records read.
            long lost = progress.applied() - classTotal;
            progress = new PartitionProgress(progress.partition(), progress.nextOffset(), classTotal,
                    Math.max(0, progress.deadLettered() + lost), progress.features());
            progressDirty = true;
        }
        loaded = true;
        return unreadable;
    }

    /** Read-only view of the live statistics by label. */
    SortedMap<String, RunningGaussian> classes() {
        requireLoaded();
        return Collections.unmodifiableSortedMap(classes);
    }

    /** The live statistics of {@code label}, created empty if new; call {@link #markUpdated} after changing them. */
    RunningGaussian statisticsFor(String label) {
        requireLoaded();
        return classes.computeIfAbsent(label, l -> new RunningGaussian(progress.features().size()));
    }

    void markUpdated(String label) {
        dirtyClasses.add(label);
    }

    PartitionProgress progress() {
        requireLoaded();
        return progress;
    }

    void setProgress(PartitionProgress newProgress) {
        requireLoaded();
        progress = newProgress;
        progressDirty = true;
    }

    /** What the inner (persisted) store holds for a class right now; for tests. */
    byte[] persistedStatistics(String label) {
        return inner.get(CLASS_KEY_PREFIX + label);
    }

    byte[] persistedProgress() {
        return inner.get(PROGRESS_KEY);
    }

    @Override
    public void flushCache() {
        writeDirtyEntries();
        if (inner instanceof CachedStateStore<?, ?> cached) {
            cached.flushCache();
        }
    }

    @Override
    public void clearCache() {
        discardLiveState();
        if (inner instanceof CachedStateStore<?, ?> cached) {
            cached.clearCache();
        }
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<String, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        writeDirtyEntries();
        inner.commit(changelogOffsets);
    }

    @Override
    @SuppressWarnings("deprecation") // still part of the StateStore contract in 4.3; kept equivalent to commit
    public void flush() {
        writeDirtyEntries();
        inner.flush();
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        discardLiveState();
        inner.init(context, root);
    }

    @Override
    public void close() {
        discardLiveState();
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    @SuppressWarnings("deprecation") // the inner RocksDB store manages its changelog offsets (KIP-1035)
    public boolean managesOffsets() {
        return inner.managesOffsets();
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return inner.committedOffset(partition);
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return inner.query(query, positionBound, config);
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }

    private void writeDirtyEntries() {
        if (!loaded) {
            return;
        }
        for (String label : dirtyClasses) {
            inner.put(CLASS_KEY_PREFIX + label, classes.get(label).toBytes());
        }
        dirtyClasses.clear();
        if (progressDirty) {
            inner.put(PROGRESS_KEY, progressSerde.serializer().serialize(null, progress));
            progressDirty = false;
        }
    }

    private void discardLiveState() {
        classes.clear();
        dirtyClasses.clear();
        progress = null;
        progressDirty = false;
        loaded = false;
    }

    private void requireLoaded() {
        if (!loaded) {
            throw new IllegalStateException("store " + name() + " used before loadIfNeeded");
        }
    }
}
