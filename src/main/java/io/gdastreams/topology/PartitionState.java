package io.gdastreams.topology;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.Forgetting;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ResetGeneration;
import io.gdastreams.serde.Json;
import io.gdastreams.topology.PartitionStateReader.StoredGeneration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
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
 * (partition, next offset, applied, dead-lettered; 29 bytes, see {@link ProgressCounters}), followed under
 * {@code gda.prequential} by the partition's prequential state ({@link PrequentialStateBytes}: open window and
 * drift test), so that test-then-train adds no write per event of its own; {@code schema} → the
 * feature names as a JSON array, written when the schema is fixed; {@code categories:<label>} →
 * {@link CategoryCounts#toBytes()}, only when categorical features are configured (a store written without them
 * has no such key, and loads as before); {@code generation} → the {@link ResetGeneration} and the input offset it
 * began at (24 bytes: number, dropped events, start offset; 16 without the start offset from earlier releases), only
 * after a drift reset, and then applied = dropped + Σ (count + 2·retractions). A class
 * touched by a weight, a retraction or forgetting is stored in the weighted form of {@link RunningGaussian} (its
 * version 2); the progress counts every applied event, so the check on load is applied = Σ (count +
 * 2·retractions) over the classes. Not thread-safe (one stream thread owns a task).
 *
 * <p>Its parts: {@link PartitionStateReader} reads and checks the store on load, {@link ProgressCounters} is the
 * binary form of the counters, {@link CategoryVocabulary} the values seen per categorical feature; this class keeps
 * the state that every event updates, and writes it through.
 */
final class PartitionState {

    static final String PROGRESS_KEY = "progress";
    static final String SCHEMA_KEY = "schema";
    static final String CLASS_KEY_PREFIX = "class:";
    static final String CATEGORIES_KEY_PREFIX = "categories:";
    /** The reset generation (docs/TRAINING.md, "Drift detection"): absent until the first reset. */
    static final String GENERATION_KEY = "generation";

    private final KeyValueStore<String, byte[]> store;
    private final SortedMap<String, RunningGaussian> classes = new TreeMap<>();
    /** label → value counts of the categorical features; empty when none is configured. */
    private final SortedMap<String, CategoryCounts> categories = new TreeMap<>();
    private final List<String> categoricalFeatures;
    /** What a new class keeps ({@code gda.statistics}). */
    private final Statistics statistics;
    private final CategoryVocabulary vocabulary;
    private PartitionProgress progress;
    /** The reset generation and the input offset at which this partition began it. */
    private StoredGeneration generation = StoredGeneration.NONE;
    /** The schema entry holds {@code progress.features()}. */
    private boolean schemaPersisted;
    /**
     * What is written after the counters ({@link #attachTail}); until something is attached, what was stored there
     * when the state was loaded, kept as it was (the prequential state while gda.prequential is off), or null.
     */
    private ProgressCounters.Tail tail;
    /** What was stored after the counters when the state was loaded, or null. */
    private byte[] loadedTail;

    private PartitionState(KeyValueStore<String, byte[]> store, List<String> categoricalFeatures,
                           Statistics statistics) {
        this.store = store;
        this.statistics = statistics;
        this.categoricalFeatures = List.copyOf(categoricalFeatures);
        this.vocabulary = new CategoryVocabulary(categoricalFeatures.size());
    }

    /**
     * Reads the state of a partition from {@code store} ({@link PartitionStateReader}, which says why a store that
     * does not hold what was committed is refused rather than mended), keeping {@code statistics} per class
     * ({@code gda.statistics}). Under {@link Statistics#DIAGONAL} a stored full statistic (kept from before the key
     * changed) goes on as its diagonal, which loses nothing naive Bayes reads; under {@link Statistics#FULL} a stored
     * diagonal one is refused, because the off-diagonal scatter it never kept cannot be recovered.
     *
     * @param store the task's store (not modified, except that a progress of the earlier JSON layout is rewritten)
     * @param partition the task's input partition (for a fresh progress)
     * @param configuredFeatures the schema to start with when nothing is persisted (may be empty)
     * @param categoricalFeatures the configured categorical features: every class must have their counts (and
     *                            none when there are none), else the configuration changed under a running training
     * @throws TrainingStateException when the store does not hold a consistent state, or holds diagonal statistics
     *                                and {@code statistics} is FULL
     */
    static PartitionState load(KeyValueStore<String, byte[]> store, int partition, List<String> configuredFeatures,
                               List<String> categoricalFeatures, Statistics statistics) {
        PartitionState state = new PartitionState(store, categoricalFeatures, statistics);
        PartitionStateReader.Contents stored = PartitionStateReader.read(store, partition, configuredFeatures,
                state.categoricalFeatures);
        state.progress = stored.progress();
        state.schemaPersisted = stored.schemaPersisted();
        for (Map.Entry<String, RunningGaussian> entry : stored.classes().entrySet()) {
            RunningGaussian g = entry.getValue();
            if (g.isDiagonal() && statistics == Statistics.FULL) {
                throw TrainingStateException.configurationConflict("partition " + partition + ": class '"
                        + entry.getKey() + "' has"
                        + " diagonal statistics (gda.statistics=diagonal) but gda.statistics=full: the covariances"
                        + " they never kept cannot be recovered; set gda.statistics=diagonal, or reset the training"
                        + " (gda-streams reset) to start over with full statistics");
            }
            state.classes.put(entry.getKey(), statistics == Statistics.DIAGONAL && !g.isDiagonal()
                    ? g.diagonalCopy() : g);
        }
        state.loadedTail = stored.progressTail();
        state.tail = state.loadedTail == null ? null : new ProgressCounters.KeptTail(state.loadedTail);
        state.categories.putAll(stored.categories());
        state.generation = stored.generation();
        for (CategoryCounts counts : state.categories.values()) {
            state.vocabulary.addAll(counts);
        }
        if (stored.earlierLayout()) {
            state.setProgress(state.progress); // rewrite a progress of the earlier (JSON) layout in the current one
        }
        return state;
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
        return vocabulary.contains(j, value);
    }

    /** The distinct values of categorical feature j over the classes of this partition (a read-only view). */
    Set<String> values(int j) {
        return vocabulary.of(j);
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
        checkValues(values);
        // The values are checked above and the point by stats.update before it changes anything, so the counts
        // change only with the statistics.
        RunningGaussian stats = statisticsOf(label);
        stats.update(point);
        if (values != null) {
            CategoryCounts counts = countsOf(label);
            counts.update(values);
            keep(label, counts, values);
        }
        keep(label, stats);
    }

    /**
     * The statistics of {@code label}, or new ones that join the cache only by {@link #keep}: an update that throws
     * must not leave a class of no event in the cache (the store would not have it, the next snapshot would).
     */
    private RunningGaussian statisticsOf(String label) {
        RunningGaussian stats = classes.get(label);
        return stats != null ? stats : statistics.create(progress.features().size());
    }

    private CategoryCounts countsOf(String label) {
        CategoryCounts counts = categories.get(label);
        return counts != null ? counts : new CategoryCounts(categoricalFeatures);
    }

    private void keep(String label, RunningGaussian stats) {
        classes.put(label, stats);
        store.put(CLASS_KEY_PREFIX + label, stats.toBytes());
    }

    private void keep(String label, CategoryCounts counts, String[] values) {
        vocabulary.add(values);
        categories.put(label, counts);
        store.put(CATEGORIES_KEY_PREFIX + label, counts.toBytes());
    }

    /**
     * Adds {@code point} with sample weight {@code weight} and event time {@code time} to the statistics of
     * {@code label} (created if new) and writes them through: with {@code forgetting} (not null) the weight decays
     * by event time ({@link Forgetting#update}), else it is the weight alone. {@code values}: the categorical values
     * in their configured order, null exactly when none is configured; their counts take the same weight.
     */
    void updateWeighted(String label, double[] point, String[] values, double weight, long time,
                        Forgetting forgetting) {
        checkValues(values);
        RunningGaussian stats = statisticsOf(label);
        // The point is checked by the Gaussian update before anything changes, the values above.
        if (forgetting != null) {
            forgetting.update(stats, point, weight, time);
        } else {
            stats.update(point, weight);
        }
        if (values != null) {
            CategoryCounts counts = countsOf(label);
            if (forgetting != null) {
                forgetting.update(counts, values, weight, time);
            } else {
                counts.update(values, weight);
            }
            keep(label, counts, values);
        }
        keep(label, stats);
    }

    /**
     * Removes one earlier observation ({@code point}, categorical {@code values} or null, {@code weight}, original
     * event time {@code time}) from the statistics of {@code label} and writes them through; returns why it cannot
     * (nothing changes then), or null.
     */
    String retract(String label, double[] point, String[] values, double weight, long time, Forgetting forgetting) {
        checkValues(values);
        RunningGaussian stats = classes.get(label);
        if (stats == null) {
            return "retraction: class '" + label + "' has no observation in partition " + progress.partition()
                    + " (its count would become negative)";
        }
        CategoryCounts counts = values == null ? null : categories.get(label);
        double countsWeight = counts == null ? 0 : forgetting != null ? forgetting.decayedWeight(counts, weight, time)
                : weight;
        String refused = counts == null ? null : counts.retractionProblem(values, countsWeight);
        if (refused == null) {
            refused = forgetting != null ? forgetting.retract(stats, point, weight, time)
                    : stats.retract(point, weight);
        }
        if (refused != null) {
            return "retraction refused for class '" + label + "': " + refused;
        }
        if (counts != null) {
            counts.retract(values, countsWeight);
            keep(label, counts, values);
        }
        keep(label, stats);
        return null;
    }

    private void checkValues(String[] values) {
        if ((values == null) != categoricalFeatures.isEmpty()
                || (values != null && (values.length != categoricalFeatures.size()
                        || Arrays.asList(values).contains(null)))) {
            throw new IllegalArgumentException("expected a value of each of " + categoricalFeatures);
        }
    }

    PartitionProgress progress() {
        return progress;
    }

    /** The reset generation the classes belong to. */
    ResetGeneration generation() {
        return generation.generation();
    }

    /** The input offset at which this partition began its generation, or {@link StoredGeneration#UNKNOWN_START}. */
    long generationStart() {
        return generation.startOffset();
    }

    /**
     * Starts reset generation {@code number} (above the current one) at input offset {@code startOffset}: the class
     * statistics and category counts are deleted from the store and their events counted as dropped, so that the next
     * event applied (that offset's, or a later one) is the first of the new statistics. Schema and progress stay.
     */
    void startGeneration(long number, long startOffset) {
        if (startOffset < 0) {
            throw new IllegalArgumentException("negative start offset " + startOffset);
        }
        generation = new StoredGeneration(generation.generation().next(number,
                progress.applied()), startOffset);
        for (String label : classes.keySet()) {
            store.delete(CLASS_KEY_PREFIX + label);
        }
        for (String label : categories.keySet()) {
            store.delete(CATEGORIES_KEY_PREFIX + label);
        }
        classes.clear();
        categories.clear();
        vocabulary.clear();
        store.put(GENERATION_KEY, PartitionStateReader.encodeGeneration(generation));
    }

    /**
     * Sets and writes through the progress, with the tail ({@link #attachTail}) as it is now; the schema entry only
     * when the schema changes.
     */
    void setProgress(PartitionProgress newProgress) {
        List<String> features = newProgress.features();
        if (!schemaPersisted || (features != progress.features() && !features.equals(progress.features()))) {
            store.put(SCHEMA_KEY, Json.toBytes(features));
            schemaPersisted = true;
        }
        progress = newProgress;
        store.put(PROGRESS_KEY, ProgressCounters.encode(newProgress, tail));
    }

    /** What was stored after the counters when this state was loaded (the prequential state), or null. */
    byte[] loadedTail() {
        return loadedTail;
    }

    /**
     * From now on every progress write ({@link #setProgress}) stores {@code attached} after the counters, as it is
     * at that write: a change of it made while an event is processed commits with that event's offset, as the
     * processor writes the progress after every record.
     */
    void attachTail(ProgressCounters.Tail attached) {
        tail = attached;
    }
}
