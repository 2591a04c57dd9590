package io.gdastreams.topology;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per input partition (one task each): decodes labelled events, updates the running statistics of their class,
 * and every publish interval (wall clock) emits a cumulative {@link PartialSnapshot} if anything changed.
 *
 * <p>Every record read is either applied or dead-lettered, never both and never neither; the snapshot carries
 * both counts and the next offset, so {@code applied + deadLettered = records read} can be checked downstream.
 * A record is dead-lettered when it is not a valid labelled event, or when its feature set differs from the
 * schema (configured, or fixed by the first valid event of the partition as its sorted feature names). No
 * exception escapes {@link #process}: an unexpected failure dead-letters the record with the reason.
 */
final class PartialStatsProcessor implements Processor<byte[], byte[], String, TrainingOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(PartialStatsProcessor.class);

    private final TrainingSettings settings;
    private final Serializer<PartialSnapshot> snapshotSerializer = SerdeFactory.partialSnapshot().serializer();
    private ProcessorContext<String, TrainingOutput> context;
    private PartialStatsStore store;
    /** Scratch for one event in schema order; allocated when the schema is known. */
    private double[] point;
    /** Set by every record read; a restart sets it too (re-sending a cumulative snapshot is harmless). */
    private boolean changedSinceSnapshot;

    PartialStatsProcessor(TrainingSettings settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<String, TrainingOutput> processorContext) {
        this.context = processorContext;
        this.store = processorContext.getStateStore(TrainingTopology.CLASS_STATS_STORE);
        // A task may be re-initialised over a store that outlived it (standby promoted to active): start from
        // what is persisted, not from live objects of an earlier incarnation.
        store.clearCache();
        point = null;
        changedSinceSnapshot = true;
        processorContext.schedule(settings.publishInterval(), PunctuationType.WALL_CLOCK_TIME, this::emitSnapshot);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("labelled events must come from a topic"));
        loadState();
        String reason;
        try {
            reason = apply(record.value());
        } catch (RuntimeException e) {
            LOG.error("Unexpected failure applying {}-{}@{}; it goes to dead letters", source.topic(),
                    source.partition(), source.offset(), e);
            reason = "internal error: " + e;
        }
        store.setProgress(store.progress().afterRecord(source.offset(), reason == null));
        changedSinceSnapshot = true;
        if (reason != null) {
            DeadLetter letter = DeadLetters.of(reason, source.topic(), source.partition(), source.offset(),
                    record.key(), record.value());
            context.forward(record.withKey(settings.modelId())
                    .withValue(new TrainingOutput.Rejected(OutputKey.of(record.key()), letter)));
        }
    }

    /** Applies one event to its class statistics; returns why it cannot be applied, or null when it was. */
    private String apply(byte[] value) {
        Decoded<LabelledEvent> decoded = EventDecoder.decodeLabelled(value, settings.maxFeatures());
        if (!decoded.isOk()) {
            return decoded.error();
        }
        LabelledEvent event = decoded.value();
        List<String> schema = store.progress().features();
        if (schema.isEmpty()) {
            schema = event.features().keySet().stream().sorted().toList();
            store.setProgress(store.progress().withFeatures(schema));
        }
        String mismatch = schemaMismatch(event.features(), schema);
        if (mismatch != null) {
            return mismatch;
        }
        if (point == null || point.length != schema.size()) {
            point = new double[schema.size()];
        }
        for (int i = 0; i < point.length; i++) {
            point[i] = event.features().get(schema.get(i));
        }
        String label = event.label();
        Map<String, RunningGaussian> classes = store.classes();
        if (classes.size() >= settings.maxClasses() && !classes.containsKey(label)) {
            return "too many classes: label '" + label + "' would be class " + (classes.size() + 1)
                    + " of partition " + context.taskId().partition() + " (at most " + settings.maxClasses()
                    + ", gda.max.classes)";
        }
        RunningGaussian stats = store.statisticsFor(label);
        stats.update(point);
        store.markUpdated(label);
        return null;
    }

    private static String schemaMismatch(Map<String, Double> features, List<String> schema) {
        List<String> missing = new ArrayList<>();
        for (String name : schema) {
            if (!features.containsKey(name)) {
                missing.add(name);
            }
        }
        int extra = features.size() - (schema.size() - missing.size());
        if (missing.isEmpty() && extra == 0) {
            return null;
        }
        List<String> unexpected = features.keySet().stream().filter(f -> !schema.contains(f)).sorted().toList();
        return "feature set differs from the schema " + abbreviate(schema) + ": missing " + abbreviate(missing)
                + ", unexpected " + abbreviate(unexpected);
    }

    private void emitSnapshot(long timestamp) {
        if (!changedSinceSnapshot) {
            return;
        }
        loadState();
        changedSinceSnapshot = false;
        if (store.progress().recordsRead() == 0) {
            return;
        }
        PartialSnapshot snapshot = new PartialSnapshot(settings.modelId(), store.progress(), store.classes());
        context.forward(new Record<>(settings.modelId(),
                new TrainingOutput.Partial(snapshotSerializer.serialize(null, snapshot)), timestamp));
    }

    private void loadState() {
        int partition = context.taskId().partition();
        for (PartialStatsStore.UnreadableEntry entry : store.loadIfNeeded(partition, settings.features())) {
            String reason = "state store " + store.name() + ": " + entry.reason()
                    + "; the entry is discarded and the partition's statistics no longer include it";
            LOG.error("{} (task {})", reason, context.taskId());
            DeadLetter letter = DeadLetters.ofStoreEntry(reason, context.applicationId(), store.name(), partition,
                    entry.key(), entry.value());
            context.forward(new Record<>(settings.modelId(), new TrainingOutput.Rejected(
                    entry.key().getBytes(StandardCharsets.UTF_8), letter), context.currentSystemTimeMs()));
        }
    }

    private static String abbreviate(List<String> names) {
        String text = names.toString();
        return text.length() <= 200 ? text : text.substring(0, 197) + "...";
    }
}
