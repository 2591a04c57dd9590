package io.gdastreams.topology;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges the partial snapshots of all input partitions into the published model (runs on the single partition
 * of the internal partials topic, so it sees every partial).
 *
 * <p>It keeps the newest snapshot per source partition (newest = largest next offset); an older or equal one is
 * ignored, so replaying snapshots never changes the model. Every accepted snapshot publishes a new model version:
 * the Chan merge of the kept snapshots, with per-class count, prior n_k/n, mean and MLE covariance S_k/n_k, and
 * the lineage {@code sources} (partition → next offset absorbed). Versions only grow (persisted).
 *
 * <p>Schema: the configured features, or else the schema of the first snapshot that has one. A snapshot with
 * another schema is rejected: logged and dead-lettered with a description of the conflict, and the model keeps
 * the last accepted snapshot of that partition. Unreadable snapshots and unreadable store entries are
 * dead-lettered too; nothing here stops the topology.
 *
 * <p>Store layout ({@link TrainingTopology#COMBINER_STORE}): {@code partial:<p>} → snapshot bytes,
 * {@code schema} → feature names (JSON array), {@code version} → 8-byte version. Written per accepted
 * snapshot, which arrives once per partition per interval at most.
 */
final class ModelCombiner implements Processor<String, byte[], String, TrainingOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(ModelCombiner.class);
    private static final String PARTIAL_PREFIX = "partial:";
    private static final String SCHEMA_KEY = "schema";
    private static final String VERSION_KEY = "version";

    private final TrainingSettings settings;
    private final Deserializer<PartialSnapshot> snapshotDeserializer = SerdeFactory.partialSnapshot().deserializer();
    private ProcessorContext<String, TrainingOutput> context;
    private KeyValueStore<String, byte[]> store;
    /** Decoded copies of the stored snapshots, by source partition; null until loaded. */
    private SortedMap<Integer, PartialSnapshot> partials;
    private List<String> schema;
    private long version;

    ModelCombiner(TrainingSettings settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<String, TrainingOutput> processorContext) {
        this.context = processorContext;
        this.store = processorContext.getStateStore(TrainingTopology.COMBINER_STORE);
        this.partials = null;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("partials must come from a topic"));
        loadState();
        PartialSnapshot partial;
        try {
            partial = snapshotDeserializer.deserialize(source.topic(), record.value());
        } catch (RuntimeException e) {
            reject(record, source, "unreadable partial snapshot: " + e.getMessage());
            return;
        }
        if (partial == null) {
            reject(record, source, "null partial snapshot");
            return;
        }
        String conflict = conflict(partial);
        if (conflict != null) {
            LOG.warn("Rejecting a partial snapshot: {}", conflict);
            reject(record, source, conflict);
            return;
        }
        int partition = partial.progress().partition();
        PartialSnapshot kept = partials.get(partition);
        if (kept != null && kept.progress().nextOffset() >= partial.progress().nextOffset()) {
            LOG.debug("Ignoring a snapshot of partition {} at offset {}: already have offset {}", partition,
                    partial.progress().nextOffset(), kept.progress().nextOffset());
            return;
        }
        if (schema == null && !partial.progress().features().isEmpty()) {
            schema = partial.progress().features();
            store.put(SCHEMA_KEY, encodeSchema(schema));
        }
        partials.put(partition, partial);
        store.put(PARTIAL_PREFIX + partition, record.value());
        ModelParameters model = combine();
        if (model.totalCount() > 0) {
            version = model.version();
            store.put(VERSION_KEY, ByteBuffer.allocate(Long.BYTES).putLong(version).array());
            context.forward(new Record<>(settings.modelId(), new TrainingOutput.Model(model), record.timestamp()));
        }
    }

    /** Why {@code partial} cannot be merged into this model, or null. */
    private String conflict(PartialSnapshot partial) {
        int partition = partial.progress().partition();
        if (!settings.modelId().equals(partial.modelId())) {
            return "partial snapshot of partition " + partition + " is for model '" + partial.modelId()
                    + "', this combiner builds model '" + settings.modelId() + "'";
        }
        List<String> features = partial.progress().features();
        if (!features.isEmpty() && schema != null && !features.equals(schema)) {
            return "schema conflict: partition " + partition + " has features " + features + " but model '"
                    + settings.modelId() + "' has " + schema + "; its " + partial.progress().applied()
                    + " events up to offset " + partial.progress().nextOffset() + " are left out of the model";
        }
        return null;
    }

    private ModelParameters combine() {
        SortedMap<String, RunningGaussian> merged = new TreeMap<>();
        Map<String, Long> sources = new LinkedHashMap<>();
        for (PartialSnapshot partial : partials.values()) {
            sources.put(Integer.toString(partial.progress().partition()), partial.progress().nextOffset());
            for (Map.Entry<String, RunningGaussian> entry : partial.classes().entrySet()) {
                merged.computeIfAbsent(entry.getKey(), l -> new RunningGaussian(entry.getValue().dimension()))
                        .merge(entry.getValue());
            }
        }
        long total = 0;
        for (RunningGaussian g : merged.values()) {
            total += g.count();
        }
        List<ClassParameters> classes = new ArrayList<>(merged.size());
        for (Map.Entry<String, RunningGaussian> entry : merged.entrySet()) {
            RunningGaussian g = entry.getValue();
            double[][] covariance = g.scatter();
            for (double[] row : covariance) {
                for (int j = 0; j < row.length; j++) {
                    row[j] /= g.count();
                }
            }
            classes.add(new ClassParameters(entry.getKey(), g.count(), (double) g.count() / total, g.mean(),
                    covariance));
        }
        List<String> features = schema != null ? schema : List.of();
        String updatedAt = Instant.ofEpochMilli(context.currentSystemTimeMs()).toString();
        return new ModelParameters(settings.modelId(), version + 1, features, total, classes, sources, updatedAt);
    }

    private void loadState() {
        if (partials != null) {
            return;
        }
        partials = new TreeMap<>();
        schema = settings.features().isEmpty() ? null : settings.features();
        version = 0;
        List<KeyValue<String, byte[]>> entries = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            all.forEachRemaining(entries::add);
        }
        for (KeyValue<String, byte[]> entry : entries) {
            try {
                if (entry.key.equals(VERSION_KEY)) {
                    version = ByteBuffer.wrap(entry.value).getLong();
                } else if (entry.key.equals(SCHEMA_KEY)) {
                    if (settings.features().isEmpty()) {
                        schema = decodeSchema(entry.value);
                    }
                } else if (entry.key.startsWith(PARTIAL_PREFIX)) {
                    PartialSnapshot partial = snapshotDeserializer.deserialize(null, entry.value);
                    partials.put(partial.progress().partition(), partial);
                } else {
                    throw new IllegalArgumentException("unknown key");
                }
            } catch (RuntimeException e) {
                // A damaged snapshot heals itself: the next (cumulative) snapshot of that partition replaces it.
                discardStoreEntry(entry, "unreadable entry '" + entry.key + "' (" + e.getMessage() + "); discarded");
            }
        }
        // A kept snapshot of another schema (the configured features changed since it was stored) must not be
        // merged: its statistics are over other coordinates, and of another dimension they cannot be merged at all.
        if (schema != null) {
            for (PartialSnapshot kept : List.copyOf(partials.values())) {
                List<String> features = kept.progress().features();
                if (!features.isEmpty() && !features.equals(schema)) {
                    int partition = kept.progress().partition();
                    partials.remove(partition);
                    discardStoreEntry(KeyValue.pair(PARTIAL_PREFIX + partition, store.get(PARTIAL_PREFIX + partition)),
                            "schema conflict: kept snapshot of partition " + partition + " has features " + features
                                    + " but model '" + settings.modelId() + "' has " + schema + "; discarded");
                }
            }
        }
    }

    /** A JSON array: any JSON key is a valid feature name, line breaks included. */
    private static byte[] encodeSchema(List<String> features) {
        try {
            return Json.mapper().writeValueAsBytes(features);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> decodeSchema(byte[] bytes) {
        try {
            return List.of(Json.mapper().readValue(bytes, String[].class));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void discardStoreEntry(KeyValue<String, byte[]> entry, String problem) {
        String reason = "state store " + store.name() + ": " + problem;
        LOG.error(reason);
        store.delete(entry.key);
        DeadLetter letter = DeadLetters.ofStoreEntry(reason, context.applicationId(), store.name(),
                context.taskId().partition(), entry.key, entry.value);
        context.forward(new Record<>(settings.modelId(), new TrainingOutput.Rejected(
                entry.key.getBytes(StandardCharsets.UTF_8), letter), context.currentSystemTimeMs()));
    }

    private void reject(Record<String, byte[]> record, RecordMetadata source, String reason) {
        byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        context.forward(record.withValue(new TrainingOutput.Rejected(OutputKey.of(key),
                DeadLetters.of(reason, source.topic(), source.partition(), source.offset(), key, record.value()))));
    }
}
