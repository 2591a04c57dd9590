package io.gdastreams.topology;

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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
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
 * ignored, so replaying snapshots never changes the model. A model version is the Chan merge of the kept
 * snapshots, with per-class count, prior n_k/n, mean and MLE covariance S_k/n_k, and the lineage {@code sources}
 * (partition → next offset absorbed). Versions only grow (persisted).
 *
 * <p>Publishing is coalesced: at most one version per publish interval, however many partitions send snapshots
 * (each version is megabytes at large d, and every scorer compiles it). An accepted snapshot publishes at once
 * when the last publish is at least an interval old (the first snapshot after a quiet period is not delayed);
 * otherwise it waits for a wall-clock punctuator, which publishes as soon as the interval has passed. Whether a
 * publish is pending is derived from the store (a kept snapshot newer than the published {@code sources}), so a
 * snapshot accepted just before a crash is published after the restart.
 *
 * <p>Schema: the configured features, or else the schema of the first snapshot that has one. A snapshot with
 * another schema is rejected: logged and dead-lettered with a description of the conflict, and the model keeps
 * the last accepted snapshot of that partition. Unreadable snapshots and unreadable store entries are
 * dead-lettered too; nothing here stops the topology.
 *
 * <p>Store layout ({@link TrainingTopology#COMBINER_STORE}): {@code partial:<p>} → snapshot bytes,
 * {@code schema} → feature names (JSON array), {@code version} → 8-byte version of the last published model,
 * {@code published} → its {@code sources} (JSON object), {@code model} → its {@link PublishedModel} summary (lineage,
 * count, labels, digest; a few hundred bytes whatever the model's size). A snapshot is written when accepted (once
 * per partition per interval at most), the rest when a model is published; store writes and the model record
 * commit in the same transaction.
 */
final class ModelCombiner implements Processor<String, byte[], String, TrainingOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(ModelCombiner.class);
    private static final String PARTIAL_PREFIX = "partial:";
    private static final String SCHEMA_KEY = "schema";
    private static final String VERSION_KEY = "version";
    private static final String PUBLISHED_KEY = "published";
    private static final String MODEL_KEY = "model";
    /** How many times per interval the punctuator looks for a due publish: bounds the extra delay to 1/10. */
    private static final int CHECKS_PER_INTERVAL = 10;
    private static final long NEVER = Long.MIN_VALUE;

    private final TrainingSettings settings;
    private final Deserializer<PartialSnapshot> snapshotDeserializer = SerdeFactory.partialSnapshot().deserializer();
    private final Serializer<ModelParameters> modelSerializer = SerdeFactory.model().serializer();
    private PublicationChecks checks;
    private ProcessorContext<String, TrainingOutput> context;
    private KeyValueStore<String, byte[]> store;
    /** The latest record under the model id on the model topic (global store, read-only here). */
    private KeyValueStore<String, byte[]> onTopic;
    /** Decoded copies of the stored snapshots, by source partition; null until loaded. */
    private SortedMap<Integer, PartialSnapshot> partials;
    private List<String> schema;
    private long version;
    /** Lineage of the last published model: partition → next offset. */
    private Map<String, Long> published;
    /** An accepted snapshot is not in a published model yet. */
    private boolean pending;
    /** Wall clock of this incarnation's last publish; NEVER after a (re)start, so a pending publish goes at once. */
    private long lastPublishMs;
    /** The last published model with its exact bytes (null before the first). */
    private PublishedModel lastPublished;
    /** The newest record on the model topic as last read, and its decoding (decoded once per record). */
    private byte[] topicRecord;
    private Optional<PublishedModel> topicModel = Optional.empty();
    /** Publish the current statistics again at the first check after a (re)start. */
    private boolean republishAtStart;
    /** The last reason logged for holding or not re-publishing, so that a waiting state is logged once. */
    private String lastNotice;

    ModelCombiner(TrainingSettings settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<String, TrainingOutput> processorContext) {
        this.context = processorContext;
        this.store = processorContext.getStateStore(TrainingTopology.COMBINER_STORE);
        this.onTopic = processorContext.getStateStore(TrainingTopology.PUBLISHED_STORE);
        this.checks = new PublicationChecks(settings.modelId(), processorContext.applicationId());
        this.partials = null;
        this.lastPublishMs = NEVER;
        this.republishAtStart = true;
        this.lastNotice = null;
        long interval = settings.publishInterval().toMillis();
        processorContext.schedule(Duration.ofMillis(Math.max(1, interval / CHECKS_PER_INTERVAL)),
                PunctuationType.WALL_CLOCK_TIME, this::publishIfDue);
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
            store.put(SCHEMA_KEY, Json.toBytes(schema));
        }
        partials.put(partition, partial);
        store.put(PARTIAL_PREFIX + partition, record.value());
        pending = true;
        publishIfDue(context.currentSystemTimeMs());
    }

    /**
     * Publishes the pending model if the last publish is at least one interval old (wall clock), unless it would
     * go backwards from a model this application published (then the application stops: see
     * {@link TrainingStateException}) or lacks a partition such a model had (then it waits for that partition's
     * snapshot). Otherwise it checks whether the model topic still holds this trainer's last model.
     */
    private void publishIfDue(long now) {
        loadState();
        boolean due = pending && (lastPublishMs == NEVER || now - lastPublishMs >= settings.publishInterval().toMillis());
        if (due) {
            republishAtStart = false; // the new version is the re-publication
            publish(now);
        } else {
            republishIfLost(now);
        }
    }

    /** Publishes the merged model; false when there is nothing to publish yet or it must wait for a partition. */
    private boolean publish(long now) {
        Optional<PublishedModel> latest = latestOnTopic();
        long newVersion = Math.max(version, latest.map(PublishedModel::version).orElse(0L)) + 1;
        Set<String> leftOut = new TreeSet<>();
        ModelParameters model = combine(newVersion, leftOut);
        if (model.totalCount() == 0) {
            pending = false;
            return false; // snapshots of dead letters only: nothing to model yet
        }
        byte[] bytes = modelSerializer.serialize(null, model);
        // The partition tasks refuse new classes beyond ModelSizeBound, but tasks adding different classes within
        // one interval can still overshoot together: leave out the newest classes rather than fail to publish.
        Set<String> publishedLabels = new HashSet<>();
        if (lastPublished != null) {
            publishedLabels.addAll(lastPublished.labels());
        }
        while (bytes.length > settings.maxModelBytes()) {
            Optional<String> newest = model.classes().stream().map(ClassParameters::label)
                    .filter(label -> !publishedLabels.contains(label)).reduce((a, b) -> b);
            if (newest.isEmpty()) {
                notice("model '" + settings.modelId() + "' would be " + bytes.length + " bytes, over the record limit "
                        + settings.maxModelBytes() + ", with only the classes it already published; not published");
                return false;
            }
            leftOut.add(newest.get());
            model = combine(newVersion, leftOut);
            bytes = modelSerializer.serialize(null, model);
        }
        if (!leftOut.isEmpty()) {
            LOG.error("Classes {} are left out of version {} of model '{}': with them it would exceed the record limit"
                    + " of {} bytes", leftOut, newVersion, settings.modelId(), settings.maxModelBytes());
        }
        String hold = checks.holdReason(checks.references(lastPublished, latest), model);
        if (hold != null) {
            notice(hold);
            return false;
        }
        pending = false;
        version = model.version();
        published = model.sources();
        lastPublished = PublishedModel.of(model, bytes);
        lastPublishMs = now;
        lastNotice = null;
        store.put(VERSION_KEY, ByteBuffer.allocate(Long.BYTES).putLong(version).array());
        store.put(PUBLISHED_KEY, Json.toBytes(published));
        store.put(MODEL_KEY, lastPublished.toStoreBytes());
        context.forward(new Record<>(settings.modelId(), new TrainingOutput.Model(bytes), now));
        return true;
    }

    /**
     * Publishes the current statistics again, as a new version, once after a (re)start and whenever the newest
     * record under the model id is not this trainer's last model: garbage, a tombstone, nothing (after
     * compaction), or another content at or above its version. So a scorer started later always finds a valid
     * model, and valid versions on the topic only grow. A model published by another application is logged, not
     * fought over (this trainer publishes above it at its next change).
     */
    private void republishIfLost(long now) {
        boolean started = republishAtStart;
        republishAtStart = false;
        // Right after a publish the global store may not have read it back yet: give it an interval.
        if (lastPublished == null
                || (!started && lastPublishMs != NEVER && now - lastPublishMs < settings.publishInterval().toMillis())) {
            return;
        }
        PublicationChecks.TopicVerdict verdict = started ? new PublicationChecks.TopicVerdict("the trainer started", null)
                : checks.judgeTopic(topicRecordNow(), latestOnTopic(), lastPublished);
        if (verdict.conflict() != null) {
            notice(verdict.conflict());
        }
        String reason = verdict.republishReason();
        if (reason != null) {
            LOG.info("Publishing model '{}' again as a new version: {}", settings.modelId(), reason);
            pending = true;
            publish(now);
        }
    }

    /** Logs a waiting or conflicting state once (until it changes). */
    private void notice(String message) {
        if (!message.equals(lastNotice)) {
            LOG.warn(message);
            lastNotice = message;
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

    private byte[] topicRecordNow() {
        return onTopic.get(settings.modelId());
    }

    /** The newest record on the model topic as a model; decoded again only when the record changes. */
    private Optional<PublishedModel> latestOnTopic() {
        byte[] record = topicRecordNow();
        if (record != topicRecord) { // the global store hands out the stored array: identity means unchanged
            topicRecord = record;
            topicModel = PublishedModel.parse(settings.modelId(), record);
        }
        return topicModel;
    }

    /** The merge of the kept snapshots, without the classes in {@code leftOut}. */
    private ModelParameters combine(long newVersion, Set<String> leftOut) {
        return PartialMerge.model(partials.values(), leftOut, schema != null ? schema : List.of(), settings.modelId(),
                newVersion, Instant.ofEpochMilli(context.currentSystemTimeMs()).toString(), context.applicationId());
    }

    private void loadState() {
        if (partials != null) {
            return;
        }
        partials = new TreeMap<>();
        schema = settings.features().isEmpty() ? null : settings.features();
        version = 0;
        published = Map.of();
        lastPublished = null;
        List<KeyValue<String, byte[]>> entries = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            all.forEachRemaining(entries::add);
        }
        for (KeyValue<String, byte[]> entry : entries) {
            try {
                if (entry.key.equals(VERSION_KEY)) {
                    version = ByteBuffer.wrap(entry.value).getLong();
                } else if (entry.key.equals(PUBLISHED_KEY)) {
                    published = decodeSources(entry.value);
                } else if (entry.key.equals(MODEL_KEY)) {
                    lastPublished = PublishedModel.fromStoreBytes(entry.value);
                } else if (entry.key.equals(SCHEMA_KEY)) {
                    if (settings.features().isEmpty()) {
                        schema = Json.stringList(entry.value);
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
        pending = hasUnpublishedSnapshot();
    }

    /**
     * True when a kept snapshot is newer than what the last published model absorbed. A snapshot that was only
     * discarded (damaged or of another schema) does not count: the published model still holds its data, which
     * is better than a model without that partition until the partition's next snapshot arrives.
     */
    private boolean hasUnpublishedSnapshot() {
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
