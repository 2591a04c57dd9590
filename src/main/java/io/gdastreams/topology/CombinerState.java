package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What the model combiner keeps, and its store layout ({@link TrainingTopology#COMBINER_STORE}): the newest
 * snapshot of each source partition, the schema, and the version, lineage and summary of the last published model.
 *
 * <p>Store layout (changelogs of earlier versions load unchanged): {@code partial:<p>} → snapshot bytes as they
 * came, {@code schema} → feature names (JSON array), {@code version} → 8-byte big-endian version of the last
 * published model, {@code published} → its {@code sources} (JSON object), {@code model} → its
 * {@link PublishedModel} summary (lineage, count, labels, digest; a few hundred bytes whatever the model's size),
 * {@code settings:<p>} → the settings header ({@link StateSettings}) the newest snapshot of partition p came with
 * (absent when it came without). A snapshot is written when kept, its sender's settings when they change, the rest
 * when a model is published; the writes commit in the same transaction as the record that caused them.
 *
 * <p>Mutable; one per combiner task.
 */
final class CombinerState {

    static final String PARTIAL_PREFIX = "partial:";
    static final String SETTINGS_PREFIX = "settings:";
    static final String SCHEMA_KEY = "schema";
    static final String VERSION_KEY = "version";
    static final String PUBLISHED_KEY = "published";
    static final String MODEL_KEY = "model";

    /** A store entry that could not be used: already deleted from the store, to be dead-lettered by the caller. */
    record Discarded(String key, byte[] value, String problem) {
    }

    private static final Deserializer<PartialSnapshot> SNAPSHOTS = SerdeFactory.partialSnapshot().deserializer();

    private final KeyValueStore<String, byte[]> store;
    /** The kept snapshots, by source partition. */
    private final SortedMap<Integer, PartialSnapshot> partials = new TreeMap<>();
    /** Partition → the settings header its newest snapshot came with (none: it came without). */
    private final SortedMap<Integer, byte[]> senders = new TreeMap<>();
    /** The schema in force; empty until fixed (a fixed schema is never empty). */
    private List<String> schema;
    private long version;
    /** Lineage of the last published model: partition → next offset. */
    private Map<String, Long> published = Map.of();
    /** The last published model (absent before the first, and in stores of versions that did not keep it). */
    private PublishedModel lastPublished;

    private CombinerState(KeyValueStore<String, byte[]> store, List<String> schema) {
        this.store = store;
        this.schema = schema;
    }

    /**
     * The state in {@code store}. The configured features, when there are any, are the schema; otherwise the
     * stored one is. Unreadable entries, and kept snapshots of another schema than the one in force, are deleted
     * from the store and added to {@code discarded} (in store order, then the schema conflicts).
     */
    static CombinerState load(KeyValueStore<String, byte[]> store, String modelId, List<String> configuredFeatures,
                              List<Discarded> discarded) {
        CombinerState state = new CombinerState(store, configuredFeatures);
        List<KeyValue<String, byte[]>> entries = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            all.forEachRemaining(entries::add);
        }
        for (KeyValue<String, byte[]> entry : entries) {
            try {
                state.read(entry, configuredFeatures.isEmpty());
            } catch (RuntimeException e) {
                // A damaged snapshot heals itself: the next (cumulative) snapshot of that partition replaces it.
                discarded.add(state.discard(entry.key, entry.value,
                        "unreadable entry '" + entry.key + "' (" + e.getMessage() + "); discarded"));
            }
        }
        // A kept snapshot of another schema (the configured features changed since it was stored) must not be
        // merged: its statistics are over other coordinates, and of another dimension they cannot be merged at all.
        for (PartialSnapshot kept : List.copyOf(state.partials.values())) {
            if (!state.fitsSchema(kept.progress().features())) {
                int partition = kept.progress().partition();
                state.partials.remove(partition);
                // Who sent it is known under the old schema only: the next snapshot under the new one tells again.
                state.sender(partition, null);
                discarded.add(state.discard(PARTIAL_PREFIX + partition, store.get(PARTIAL_PREFIX + partition),
                        "schema conflict: kept snapshot of partition " + partition + " has features "
                                + kept.progress().features() + " but model '" + modelId + "' has " + state.schema
                                + "; discarded"));
            }
        }
        return state;
    }

    private void read(KeyValue<String, byte[]> entry, boolean schemaFromStore) {
        switch (entry.key) {
            case VERSION_KEY -> version = ByteBuffer.wrap(entry.value).getLong();
            case PUBLISHED_KEY -> published = decodeSources(entry.value);
            case MODEL_KEY -> lastPublished = PublishedModel.fromStoreBytes(entry.value);
            case SCHEMA_KEY -> {
                if (schemaFromStore) {
                    schema = Json.stringList(entry.value);
                }
            }
            default -> {
                if (entry.key.startsWith(SETTINGS_PREFIX)) {
                    senders.put(Integer.parseInt(entry.key.substring(SETTINGS_PREFIX.length())), entry.value);
                    return;
                }
                if (!entry.key.startsWith(PARTIAL_PREFIX)) {
                    throw new IllegalArgumentException("unknown key");
                }
                PartialSnapshot partial = SNAPSHOTS.deserialize(null, entry.value);
                partials.put(partial.progress().partition(), partial);
            }
        }
    }

    private Discarded discard(String key, byte[] value, String problem) {
        store.delete(key);
        return new Discarded(key, value, problem);
    }

    /** The schema in force, in model order; empty until the first snapshot with features fixes it. */
    List<String> schema() {
        return schema;
    }

    /** Whether statistics over {@code features} may be merged under the schema (no features: nothing to merge). */
    boolean fitsSchema(List<String> features) {
        return features.isEmpty() || schema.isEmpty() || features.equals(schema);
    }

    /** The kept snapshot of {@code partition}. */
    Optional<PartialSnapshot> kept(int partition) {
        return Optional.ofNullable(partials.get(partition));
    }

    /** The partitions with a kept snapshot (a view). */
    Set<Integer> keptPartitions() {
        return Collections.unmodifiableSet(partials.keySet());
    }

    /** The kept snapshots in partition order (a view). */
    Collection<PartialSnapshot> snapshots() {
        return Collections.unmodifiableCollection(partials.values());
    }

    /**
     * Keeps {@code snapshot} (received as {@code bytes}) in place of its partition's, and fixes the schema from it
     * when none is. The caller has checked that it fits the schema and is newer than the kept one.
     */
    void keep(PartialSnapshot snapshot, byte[] bytes) {
        if (schema.isEmpty() && !snapshot.progress().features().isEmpty()) {
            schema = snapshot.progress().features();
            store.put(SCHEMA_KEY, Json.toBytes(schema));
        }
        int partition = snapshot.progress().partition();
        partials.put(partition, snapshot);
        store.put(PARTIAL_PREFIX + partition, bytes);
    }

    /**
     * The newest snapshot of {@code partition} came with settings header {@code header} (null: none): kept, and
     * written to the store when it differs from the partition's last (in steady state it never does). Returns
     * whether it did.
     */
    boolean sender(int partition, byte[] header) {
        if (Arrays.equals(senders.get(partition), header)) {
            return false;
        }
        if (header == null) {
            senders.remove(partition);
            store.delete(SETTINGS_PREFIX + partition);
        } else {
            senders.put(partition, header);
            store.put(SETTINGS_PREFIX + partition, header);
        }
        return true;
    }

    /** Partition → the settings header its newest snapshot came with (a view; partitions without one absent). */
    Map<Integer, byte[]> senders() {
        return Collections.unmodifiableMap(senders);
    }

    /** The version of the last published model (0 before the first). */
    long version() {
        return version;
    }

    /** The summary of the last published model. */
    Optional<PublishedModel> lastPublished() {
        return Optional.ofNullable(lastPublished);
    }

    /** Records that {@code model}, summarised by {@code summary}, was published. */
    void published(ModelParameters model, PublishedModel summary) {
        version = model.version();
        published = model.sources();
        lastPublished = summary;
        store.put(VERSION_KEY, ByteBuffer.allocate(Long.BYTES).putLong(version).array());
        store.put(PUBLISHED_KEY, Json.toBytes(published));
        store.put(MODEL_KEY, summary.toStoreBytes());
    }

    /**
     * True when a kept snapshot is newer than what the last published model absorbed. A snapshot that was only
     * discarded (damaged or of another schema) does not count: the published model still holds its data, which
     * is better than a model without that partition until the partition's next snapshot arrives.
     */
    boolean hasUnpublishedSnapshot() {
        for (PartialSnapshot kept : partials.values()) {
            Long absorbed = published.get(Integer.toString(kept.progress().partition()));
            if (absorbed == null || kept.progress().nextOffset() > absorbed) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Long> decodeSources(byte[] bytes) {
        try {
            return Map.copyOf(Json.mapper().readerForMapOf(Long.class).readValue(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
