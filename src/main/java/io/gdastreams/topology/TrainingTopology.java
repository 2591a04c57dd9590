package io.gdastreams.topology;

import io.gdastreams.serde.SerdeFactory;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The training topology: partition-local statistics, merged into one versioned model.
 *
 * <pre>
 * labelled-events ──► [partial-stats] one task per input partition; store "class-stats" (record cache, written
 *        (raw bytes)        │          through per event): label → RunningGaussian, plus the partition's progress
 *                           │ every publish interval: cumulative PartialSnapshot (binary), key = model id
 *                           ▼
 *        internal topic &lt;application.id&gt;-class-stats-partials-repartition (1 partition)
 *                           ▼
 *                    [model-combiner] store "model-combiner": newest snapshot per source partition, schema,
 *                           │          version → Chan merge → ModelParameters
 *                           ▼
 *                  model-parameters (key = model id)
 * with gda.prequential, [partial-stats] also scores each event with the published model before applying it
 *        (store "prequential-window") and sends each closed window ──► model-metrics (key = model id)
 * anything unusable (bad event, feature-set or schema conflict, unreadable partial) ──► dead-letters
 * (a damaged or incomplete class-stats store is no input: it stops the task, see RestoreCheck and PartitionState)
 * </pre>
 *
 * Raw events are never repartitioned: only K·d² numbers per partition per interval cross the broker again,
 * and a skewed label distribution still runs on every input partition's task. docs/ARCHITECTURE.md follows one
 * labelled event through it, class by class.
 */
public final class TrainingTopology {

    /** Per-task store of the live class statistics (changelog-backed). */
    public static final String CLASS_STATS_STORE = "class-stats";
    /** The combiner's store: newest partial per source partition, schema, model version (changelog-backed). */
    public static final String COMBINER_STORE = "model-combiner";
    /** Global store: the newest record under the model id on the model topic, as raw bytes. */
    public static final String PUBLISHED_STORE = "published-model";
    /**
     * Per-task store where earlier releases kept the open prequential window (gda.prequential; changelog-backed):
     * read when the progress entry holds no prequential state, and emptied at the first progress write.
     */
    public static final String PREQUENTIAL_STORE = "prequential-window";
    /** Name of the internal partials topic: {@code <application.id>-class-stats-partials-repartition}. */
    public static final String PARTIALS_TOPIC_NAME = "class-stats-partials";

    /**
     * The internal partials topic: key = model id, value = a {@link io.gdastreams.model.PartialSnapshot} in its
     * binary layout ({@link io.gdastreams.serde.PartialSnapshotSerde}), carried as bytes because the trainer
     * serialises it to check its size and the combiner dead-letters one it cannot read.
     */
    private static final Topic<String, byte[]> PARTIALS = new Topic<>(PARTIALS_TOPIC_NAME, SerdeFactory.string(),
            SerdeFactory.rawBytes());

    static final String SOURCE = "labelled-source";
    static final String PARTIAL_STATS = "partial-stats";
    static final String COMBINER = "model-combiner";

    private TrainingTopology() {
    }

    /** The internal partials topic of an application id, {@code <application.id>-class-stats-partials-repartition}. */
    public static Topic<String, byte[]> partials(String applicationId) {
        return PARTIALS.named(InternalTopics.repartition(applicationId, PARTIALS_TOPIC_NAME));
    }

    /**
     * The topology with {@code committedInput} as the reference for restored states: services pass
     * {@code service.GroupCommittedInput::open} (the group's committed offsets, asked of the broker), topology tests,
     * which have no consumer group, fixed answers.
     */
    public static Topology build(TrainingSettings settings, CommittedInput.Source committedInput) {
        return build(settings, committedInput, StreamObserver.NONE);
    }

    /** As {@link #build(TrainingSettings, CommittedInput.Source)}, telling {@code observer} what it does. */
    public static Topology build(TrainingSettings settings, CommittedInput.Source committedInput,
                                 StreamObserver observer) {
        Topics topics = settings.topics();
        StreamsBuilder builder = new StreamsBuilder();
        // The record cache makes the per-event write-through of PartitionState cost one changelog record per
        // class and commit, not one per event.
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CLASS_STATS_STORE),
                SerdeFactory.string(), SerdeFactory.rawBytes()).withCachingEnabled());
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(COMBINER_STORE),
                SerdeFactory.string(), SerdeFactory.rawBytes()));

        // The trainer reads the model topic too: to continue above the versions on it, to compare its state with
        // the lineage it published, and to re-send its model when the topic loses it (ModelCombiner).
        builder.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(PUBLISHED_STORE),
                        SerdeFactory.string(), SerdeFactory.rawBytes()).withLoggingDisabled(),
                topics.modelRecords().name(), topics.modelRecords().consumed().withName("published-model-source"),
                () -> new PublishedModelTracker(settings.modelId(), settings.signing(), observer));

        String[] taskStores = {CLASS_STATS_STORE};
        if (settings.prequential() != null) {
            // Test-then-train keeps its state in the class-stats store's progress entry (PrequentialEvaluator); this
            // store is where earlier releases kept it, read (and emptied) so that their state carries over.
            builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PREQUENTIAL_STORE),
                    SerdeFactory.string(), SerdeFactory.rawBytes()).withCachingEnabled());
            taskStores = new String[] {CLASS_STATS_STORE, PREQUENTIAL_STORE};
        }
        KStream<String, TrainingOutput> partialStats = builder
                .stream(topics.labelled().name(), topics.labelled().consumed().withName(SOURCE)
                        .withOffsetResetPolicy(Topic.RESET))
                .process(() -> new PartialStatsProcessor(settings, committedInput, observer), Named.as(PARTIAL_STATS),
                        taskStores);
        sendDeadLetters(partialStats, topics, PARTIAL_STATS);
        if (settings.prequential() != null) {
            partialStats
                    .filter((modelId, out) -> out instanceof TrainingOutput.Metrics, Named.as("prequential"))
                    .mapValues(out -> ((TrainingOutput.Metrics) out).record(), Named.as("prequential-values"))
                    .to(topics.metrics().name(), topics.metrics().produced().withName("metrics-sink"));
        }

        KStream<String, TrainingOutput> combined = partialStats
                .filter((modelId, out) -> out instanceof TrainingOutput.Partial, Named.as("partials"))
                .mapValues(out -> ((TrainingOutput.Partial) out).snapshot(), Named.as("partial-bytes"))
                .repartition(Repartitioned.<String, byte[]>as(PARTIALS_TOPIC_NAME)
                        .withKeySerde(PARTIALS.keySerde())
                        .withValueSerde(PARTIALS.valueSerde())
                        .withNumberOfPartitions(1))
                .process(() -> new ModelCombiner(settings, observer), Named.as(COMBINER), COMBINER_STORE);
        combined
                .filter((modelId, out) -> out instanceof TrainingOutput.Model, Named.as("models"))
                .mapValues(out -> ((TrainingOutput.Model) out).model(), Named.as("model-values"))
                .to(topics.modelRecords().name(), topics.modelRecords().produced().withName("model-sink"));
        sendDeadLetters(combined, topics, COMBINER);
        return builder.build();
    }

    private static void sendDeadLetters(KStream<String, TrainingOutput> outputs, Topics topics, String from) {
        outputs
                .filter((modelId, out) -> out instanceof TrainingOutput.Rejected, Named.as(from + "-rejected"))
                .map((modelId, out) -> {
                    TrainingOutput.Rejected rejected = (TrainingOutput.Rejected) out;
                    return KeyValue.pair(rejected.key(), rejected.deadLetter());
                }, Named.as(from + "-dead-letters"))
                .to(topics.deadLetters().name(), topics.deadLetters().produced().withName(from + "-dead-letter-sink"));
    }
}
