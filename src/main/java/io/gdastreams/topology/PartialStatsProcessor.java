package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.EventFields;
import io.gdastreams.serde.EventReader;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.LabelledEventCheck.Refusal;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.KeyValueStore;
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
 * and every publish interval (wall clock, on the ticks all tasks share: {@link SnapshotTicks}) emits a cumulative
 * {@link PartialSnapshot} if anything changed, and asks for a commit so that the combiner sees it at once rather
 * than up to {@code commit.interval.ms} later (under exactly-once it is invisible until committed). At the first
 * tick with nothing new after a tick that had a snapshot, it sends that same snapshot once more: the combiner,
 * which waits for every partition of the previous round, then knows this one went quiet and publishes the round
 * without waiting half an interval for it ({@link PublishSchedule}); the combiner keeps an equal snapshot as it
 * was, so the re-sent one changes no statistics.
 *
 * <p>Every record read is either applied or dead-lettered, never both and never neither; the snapshot carries
 * both counts and the next offset, so {@code applied + deadLettered = records read} can be checked downstream.
 * A record is dead-lettered when it is not a valid labelled event, or when its feature set differs from the
 * partition's schema (how it is chosen: {@link LabelledEventCheck}). No
 * exception escapes {@link #process}: an unexpected failure dead-letters the record with the reason.
 */
final class PartialStatsProcessor implements Processor<byte[], byte[], String, TrainingOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(PartialStatsProcessor.class);
    /**
     * The largest snapshot re-sent as a quiet word (1 MiB: about K = 10 classes at d = 150). A larger one would
     * cost its serialisation, a transaction and the combiner's decoding for a word; such a partition says nothing,
     * and a round waits at most half an interval for it.
     */
    static final int QUIET_WORD_MAX_BYTES = 1 << 20;

    private final TrainingSettings settings;
    private final CommittedInput.Source committedInput;
    /** {@code settings.categorical().features()} as a set, for the decoder. */
    private final Set<String> categoricalSet;
    private final CategoricalChecks categoricalChecks;
    /** The general path of reading an event, with the reasons of its refusals. */
    private final LabelledEventCheck eventCheck;
    private final Serializer<PartialSnapshot> snapshotSerializer = SerdeFactory.partialSnapshot().serializer();
    /** This instance's state-shaping settings, sent with every snapshot for the combiner to compare. */
    private final byte[] stateSettings;
    private ProcessorContext<String, TrainingOutput> context;
    private KeyValueStore<String, byte[]> store;
    /** The partition's state, loaded from the store at the first record or punctuation after init. */
    private PartitionState state;
    /** Reads events of the known schema straight into {@link #fields} (null until then, and after init). */
    private EventReader reader;
    private EventFields fields;
    /** The schema {@link #reader} was made for (the same list instance while the schema does not change). */
    private List<String> readerSchema;
    /** The newest model on the model topic: labels, values and lineage this task checks against. */
    private PublishedModelView publishedModel;
    /** Set by every record read; a restart sets it too (re-sending a cumulative snapshot is harmless). */
    private boolean changedSinceSnapshot;
    /** When to snapshot: the first check of each new publish-interval tick. */
    private SnapshotTicks ticks;
    /** Set by every record read, not by a restart: whether the next snapshot carries news. */
    private boolean newsSinceSnapshot;
    /** The tick of this task's last snapshot with news from a record (none yet: a value no tick follows). */
    private long lastNewsTick = Long.MIN_VALUE;
    /** The size of the last snapshot sent, in bytes: a quiet word is a re-send, so it is sent only when small. */
    private int lastSnapshotBytes;
    private final StreamObserver observer;
    /** Test-then-train evaluation (gda.prequential) and reset generations, made at init. */
    private TestThenTrain testThenTrain;
    private final PrequentialModel prequentialModel;

    PartialStatsProcessor(TrainingSettings settings, CommittedInput.Source committedInput) {
        this(settings, committedInput, StreamObserver.NONE);
    }

    PartialStatsProcessor(TrainingSettings settings, CommittedInput.Source committedInput, StreamObserver observer) {
        this.observer = observer;
        this.settings = settings;
        this.committedInput = committedInput;
        this.categoricalSet = settings.categorical().featureSet();
        this.categoricalChecks = new CategoricalChecks(settings.categorical());
        this.eventCheck = new LabelledEventCheck(settings, categoricalChecks);
        this.stateSettings = StateSettings.of(settings).encoded();
        this.prequentialModel = settings.prequential() == null ? null
                : new PrequentialModel(settings.modelId(), settings.prequential());
    }

    @Override
    public void init(ProcessorContext<String, TrainingOutput> processorContext) {
        this.context = processorContext;
        this.store = processorContext.getStateStore(TrainingTopology.CLASS_STATS_STORE);
        this.publishedModel = new PublishedModelView(settings,
                processorContext.getStateStore(TrainingTopology.PUBLISHED_STORE), processorContext.applicationId());
        // Kafka Streams calls init after every restore, revival or recycling of the task: whatever was decoded
        // before may no longer be what the store holds, so the state is read again from the store.
        state = null;
        reader = null;
        changedSinceSnapshot = true;
        // The first snapshot after init re-sends the stored state: news read before a revival of this instance is
        // in it or was rolled back with the store, and either way is no news of this incarnation.
        newsSinceSnapshot = false;
        testThenTrain = new TestThenTrain(settings, processorContext, publishedModel, prequentialModel);
        ticks = new SnapshotTicks(settings.publishInterval(), processorContext.currentSystemTimeMs());
        processorContext.schedule(ticks.checkPeriod(), PunctuationType.WALL_CLOCK_TIME, now -> {
            if (ticks.crossed(now)) {
                emitSnapshot(now, ticks.tick());
            }
        });
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("labelled events must come from a topic"));
        loadState();
        // One read of the model topic's store per event: its generation, bounds and (under test-then-train) the
        // model the event is tested with all come from this record.
        PublishedRecord published = publishedModel.refresh();
        testThenTrain.followPublishedGeneration(state, source.offset());
        Refusal refusal;
        try {
            // Forgetting weighs the event by its own time, which it may lack (TimelessRecordInterceptor); the rest
            // takes the time it is processed under.
            long eventTime = settings.forgetting() == null ? record.timestamp()
                    : TimelessRecordInterceptor.own(record.timestamp(), record.headers());
            refusal = apply(record.value(), eventTime, source.offset(), published);
        } catch (StreamsException | TrainingStateException e) {
            throw e; // the store and Kafka Streams' own failures (a migrated or corrupted task) are not the event's
        } catch (RuntimeException e) {
            LOG.error("Unexpected failure applying {}-{}@{}; it goes to dead letters", source.topic(),
                    source.partition(), source.offset(), e);
            refusal = new Refusal(DeadLetterCategory.INTERNAL_ERROR, "internal error: " + e);
        }
        state.setProgress(state.progress().afterRecord(source.offset(), refusal == null));
        changedSinceSnapshot = true;
        newsSinceSnapshot = true;
        if (refusal == null) {
            observer.eventApplied();
        } else {
            observer.deadLettered(refusal.category());
            DeadLetter letter = DeadLetters.of(refusal.reason(), source.topic(), source.partition(), source.offset(),
                    record.key(), record.value());
            context.forward(new Record<String, TrainingOutput>(settings.modelId(),
                    new TrainingOutput.Rejected(OutputKey.of(record.key()), letter), record.timestamp(),
                    CarriedHeaders.of(record.headers())));
        }
    }

    /**
     * Applies one event to its class statistics; returns why it cannot be applied, or null when it was.
     * {@code timestamp}: the record's timestamp, the event time of forgetting; {@code offset}: its input offset;
     * {@code published}: the model topic's record this event is checked and tested against.
     */
    private Refusal apply(byte[] value, long timestamp, long offset, PublishedRecord published) {
        List<String> known = state.progress().features();
        // Under test-then-train, the model this event is tested with (null: none yet, or no test-then-train).
        CompiledModel tested = testThenTrain.modelInForce(published);
        // The fast path: once the schema is known, a plain valid event of exactly the schema is read straight into
        // the point, and tested from that point when the model's features are the schema (or there is no model).
        // Anything else goes through EventDecoder and the checks below, whose reasons are the ones a refusal
        // carries, and is tested by its feature names.
        if (!known.isEmpty() && (tested == null || testThenTrain.testsPoints(tested, known))) {
            if (readerFor(known).readLabelled(value, fields)) {
                double[] x = fields.point();
                // The reader leaves an event with a retractsOffset to the decoder: this one names none.
                return applyPoint(fields.label(), x, categoricalSet.isEmpty() ? null : fields.categories(),
                        fields.weight(), fields.retract(), LabelledEvent.NO_OFFSET, known, timestamp, offset, tested,
                        model -> testThenTrain.pointPosterior(model, x));
            }
        }
        LabelledEventCheck.Checked checked = eventCheck.check(value, state, publishedModel.ownSchema());
        if (checked.refusal() != null) {
            return checked.refusal();
        }
        LabelledEvent event = checked.event();
        return applyPoint(event.label(), checked.point(), checked.values(), event.weight(), event.retract(),
                event.retractsOffset(), checked.schema(), timestamp, offset, tested,
                model -> model.posterior(event.features(), event.categories()));
    }

    /** The reader of events of {@code schema}, made once per schema (and again after init). */
    private EventReader readerFor(List<String> schema) {
        if (reader == null || (schema != readerSchema && !schema.equals(readerSchema))) {
            reader = new EventReader(schema, settings.categorical().features(), settings.maxFeatures());
            fields = reader.newFields();
            readerSchema = schema;
        }
        return reader;
    }

    /**
     * Applies one read event (its {@code point} in {@code schema} order, its categorical {@code values} in their
     * configured order or null when none is configured); under test-then-train it is first tested with
     * {@code tested} (null: no model yet) by {@code scorer}. A retraction naming {@code retractsOffset} is first
     * checked against the partition's reset generation ({@link RetractionScope}). Returns why it cannot be applied,
     * or null when it was.
     */
    private Refusal applyPoint(String label, double[] point, String[] values, double weight, boolean retract,
                               long retractsOffset, List<String> schema, long timestamp, long offset,
                               CompiledModel tested, PrequentialEvaluator.Scorer scorer) {
        boolean weighted = weight != LabelledEvent.DEFAULT_WEIGHT || retract;
        // A record without a valid timestamp (TimelessRecordInterceptor) has no time to be weighed by.
        if (settings.forgetting() != null && timestamp < 0) {
            return new Refusal(DeadLetterCategory.INVALID_EVENT, "no event time: the record timestamp is " + timestamp
                    + " but " + ConfigKey.FORGETTING_HALF_LIFE_MS.key() + " weighs events by it");
        }
        if (retract) {
            String refused = RetractionScope.refusal(retractsOffset, offset, state);
            if (refused == null) {
                refused = state.retract(label, point, values, weight, timestamp, settings.forgetting());
            }
            return refused == null ? null : new Refusal(DeadLetterCategory.INVALID_EVENT, refused);
        }
        String overSize = publishedModel.sizeLimit(label, schema, state.classes().keySet());
        if (overSize != null) {
            return new Refusal(DeadLetterCategory.MODEL_BOUND, overSize);
        }
        if (state.classCount() >= settings.maxClasses() && !state.hasClass(label)) {
            return new Refusal(DeadLetterCategory.MODEL_BOUND, "too many classes: label '" + label
                    + "' would be class " + (state.classCount() + 1) + " of partition " + context.taskId().partition()
                    + " (at most " + settings.maxClasses() + ", gda.max.classes)");
        }
        if (values != null) {
            String tooMany = categoricalChecks.vocabularyLimit(values, state, publishedModel.values());
            if (tooMany != null) {
                return new Refusal(DeadLetterCategory.MODEL_BOUND, tooMany);
            }
        }
        if (testThenTrain.evaluates()) {
            testThenTrain.testBeforeTraining(label, tested, scorer, timestamp, offset, state);
        }
        if (weighted || settings.forgetting() != null) {
            state.updateWeighted(label, point, values, weight, timestamp, settings.forgetting());
        } else {
            state.update(label, point, values);
        }
        return null;
    }

    /**
     * At tick {@code tick}: the cumulative snapshot when anything changed since the last one; else, once, the same
     * snapshot again when the previous tick had one (this partition was in the previous round and is quiet now).
     */
    private void emitSnapshot(long timestamp, long tick) {
        if (!changedSinceSnapshot) {
            if (lastNewsTick == tick - 1 && lastSnapshotBytes <= QUIET_WORD_MAX_BYTES) {
                forwardSnapshot(timestamp);
            }
            return;
        }
        changedSinceSnapshot = false;
        if (newsSinceSnapshot) {
            // Not after a restart's snapshot (no record read since): that one is already an equal re-send.
            newsSinceSnapshot = false;
            lastNewsTick = tick;
        }
        forwardSnapshot(timestamp);
    }

    /** The cumulative snapshot of the state now (none before the first record), and a commit request. */
    private void forwardSnapshot(long timestamp) {
        loadState();
        if (state.progress().recordsRead() == 0) {
            return;
        }
        PartialSnapshot snapshot = new PartialSnapshot(settings.modelId(), state.progress(), state.classes(),
                state.categories(), state.generation());
        byte[] bytes = snapshotSerializer.serialize(null, snapshot);
        lastSnapshotBytes = bytes.length;
        context.forward(new Record<>(settings.modelId(), new TrainingOutput.Partial(bytes), timestamp,
                new RecordHeaders().add(StateSettings.HEADER, stateSettings)));
        context.commit();
        // For tracing when a model includes what (docs/TRAINING.md, "Tracing publication"); the combiner logs its side.
        LOG.debug("Snapshot of partition {} to offset {} sent at {}", state.progress().partition(),
                state.progress().nextOffset(), timestamp);
    }

    @Override
    public void close() {
        state = null;
    }

    private void loadState() {
        if (state != null) {
            return;
        }
        int partition = context.taskId().partition();
        state = PartitionState.load(store, partition, settings.features(), settings.categorical().features(),
                settings.statistics());
        checkAgainstPublishedLineage(partition);
        checkAgainstCommittedInput();
        testThenTrain.attach(state);
    }

    /**
     * Before the state is used or written: is it the state the committed input offset stands for? Kafka Streams
     * can start a task from an old, partial store (see {@link RestoreCheck}); going on would lose events and then
     * overwrite the complete state in the changelog.
     */
    private void checkAgainstCommittedInput() {
        RecordMetadata source = context.recordMetadata().orElse(null);
        String topic = source != null && source.topic() != null ? source.topic() : settings.topics().labelled().name();
        boolean exactlyOnce = StreamsConfig.EXACTLY_ONCE_V2.equals(
                context.appConfigs().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
        try (CommittedInput input = committedInput.open(context.appConfigs())) {
            RestoreCheck.problem(topic, state.progress(), exactlyOnce, input).ifPresent(problem -> {
                state = null;
                throw new TrainingStateException(problem + " (see docs/RELIABILITY.md, 'Recovering from lost"
                        + " training state')");
            });
        }
    }

    /**
     * Under exactly-once, a model this application published can only hold what this partition's state had
     * committed before: a state that is behind such a model lost events; refuse to go on instead of publishing a
     * model that lost them.
     */
    private void checkAgainstPublishedLineage(int partition) {
        Object guarantee = context.appConfigs().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        if (!StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee)) {
            return; // at-least-once may re-read what a published model absorbed: no such guarantee to check
        }
        publishedModel.lineageProblem(context.applicationId(), partition, state.progress().nextOffset())
                .ifPresent(problem -> {
                    throw new TrainingStateException(problem);
                });
    }
}
