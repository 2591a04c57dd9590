package io.gdastreams.topology;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.EventFields;
import io.gdastreams.serde.EventReader;
import io.gdastreams.serde.PosteriorWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scores unlabelled events against the model in force: exactly one record on the predictions topic per input
 * (scored or unscored with a reason), plus a dead letter for input that cannot be read.
 *
 * <p>Events that arrive while no model can score them (none published yet, or the one in force has no scorable
 * class: the first models of a stream often have every class below {@code gda.min.count}) are held, in arrival
 * order, in a changelog-backed store of at most {@code maxPending} events per task and scored by the first model
 * that can: a scorer started before its trainer loses nothing, and answers nothing before it can. They are
 * released by the next event that finds such a model, or by a wall-clock punctuator when no event comes. Beyond the
 * bound (or above {@link #MAX_HELD_VALUE_BYTES}) an event gets an unscored "no model yet" record straight away, so
 * memory stays bounded and the producer still hears about every event. A held event keeps its source coordinates
 * and original bytes: if the model cannot score it (unknown features), it is dead-lettered like an event that
 * arrived after the model.
 *
 * <p>Each event's fate is decided first, as a {@link ScoringOutcome} (scored, unscored with a typed
 * {@link UnscoredReason}, or pending), then written in one place: the reason decides whether a dead letter goes with
 * the answer. The output value type is {@code Object} because the two sinks take different records
 * ({@link io.gdastreams.model.Prediction}, {@link DeadLetter}) and because a common scored prediction
 * ({@link ScoringOutcome.ScoredPosterior}) is forwarded as the bytes this task's {@link PosteriorWriter} wrote.
 *
 * <p>No exception escapes {@link #process}: anything unexpected becomes an unscored record and a dead letter.
 */
final class ScoringProcessor implements Processor<byte[], byte[], byte[], Object> {

    private static final Logger LOG = LoggerFactory.getLogger(ScoringProcessor.class);

    /**
     * Longest id (UTF-8 bytes) an event may have, its own or its record key: the id is written again in the
     * prediction, so an unbounded one could push the output over the broker's record limit. Longer ids make the
     * event unscored (without id) and dead-lettered.
     */
    static final int MAX_ID_BYTES = 1024;

    /**
     * Largest event value held while no model exists: the held entry keeps the original bytes (to dead-letter the
     * event later if need be), and its changelog record must fit in a broker record too: 512 KiB as base64, with
     * the key (at most 64 KiB), the id and the kept headers (16 KiB counted, ~40 KiB at most as JSON), stays below
     * 1 MiB. Larger events get an unscored "no model yet" answer at once.
     */
    static final int MAX_HELD_VALUE_BYTES = DeadLetters.MAX_KEPT_VALUE_BYTES;

    private final ScoringSettings settings;
    /** {@code settings.categorical().features()} as a set, for the decoder. */
    private final Set<String> categoricalSet;
    private final CompiledModelCache cache;
    private final EventIntake intake;
    private final StreamObserver observer;
    /** The model {@link #reader} reads for; the reader and its fields are this task's (one thread). */
    private CompiledModel readerModel;
    private EventReader reader;
    private EventFields fields;
    private ProcessorContext<byte[], Object> context;
    private HeldEvents held;
    /** Writes this task's common scored predictions into one reused buffer (ScoringTopology.predictionOutput). */
    private final PosteriorWriter posteriorWriter = new PosteriorWriter();
    /** The time this task's stream thread may spend releasing held events now. */
    private final ReleaseBudget releaseBudget;
    /** Held events released since the model that scores them came (logged once they are all answered). */
    private long releasedInDrain;

    ScoringProcessor(ScoringSettings settings, CompiledModelCache cache) {
        this(settings, cache, StreamObserver.NONE);
    }

    ScoringProcessor(ScoringSettings settings, CompiledModelCache cache, StreamObserver observer) {
        this(settings, cache, observer, ReleaseBudget.perStreamThread());
    }

    /** {@code releaseBudget}: the time held events may be released in (tests: a clock of their own). */
    ScoringProcessor(ScoringSettings settings, CompiledModelCache cache, StreamObserver observer,
                     ReleaseBudget releaseBudget) {
        this.releaseBudget = releaseBudget;
        this.settings = settings;
        this.intake = new EventIntake(settings);
        this.categoricalSet = intake.categorical();
        this.cache = cache;
        this.observer = observer;
    }

    @Override
    public void init(ProcessorContext<byte[], Object> context) {
        this.context = context;
        adoptStoredModel(context);
        held = HeldEvents.open(context.getStateStore(ScoringTopology.PENDING_STORE), observer,
                context.taskId().toString(), context.applicationId(), context.taskId().partition());
        context.schedule(settings.pendingCheckInterval(), PunctuationType.WALL_CLOCK_TIME, now -> releasePending());
    }

    @Override
    public void close() {
        // The task's held events leave this process with it (they stay in the store and its changelog).
        if (held != null) {
            held.leave();
        }
    }

    /**
     * The global store is complete before tasks start; if its model never went through the cache (a store kept
     * across restarts without re-processing), compile it now rather than wait for the next model record. If there
     * is still no model, say so once, with the reason (nothing published, or only invalid records).
     */
    private void adoptStoredModel(ProcessorContext<byte[], Object> context) {
        if (cache.current().isPresent()) {
            return;
        }
        try {
            KeyValueStore<String, ModelParameters> models = context.getStateStore(ScoringTopology.MODEL_STORE);
            ModelParameters stored = models.get(settings.modelId());
            if (stored != null) {
                cache.offer(stored, "the global store");
            }
        } catch (RuntimeException e) {
            LOG.warn("Cannot read model '{}' from the global store: {}", settings.modelId(), e.getMessage());
        }
        if (cache.claimAbsenceReport()) {
            LOG.warn("No valid model to score with ({} on topic {}): unlabelled events are held, up to {} per input "
                    + "partition, until a valid model is published", cache.absence(), settings.topics().model(),
                    settings.maxPending());
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        ScoringOutcome outcome;
        try {
            outcome = outcome(record);
        } catch (StreamsException e) {
            throw e; // a store or Kafka Streams failure (a migrated or corrupted task) is not the event's
        } catch (RuntimeException e) {
            LOG.error("Unexpected failure scoring a record; it goes to dead letters", e);
            outcome = new ScoringOutcome.Unscored(idOrNull(keyText(record.key())),
                    new UnscoredReason.InternalError(e), ScoringOutcome.ModelStamp.of(cache.current()));
        }
        if (outcome instanceof ScoringOutcome.Pending pending) {
            held.hold(pending.event());
            reportUnscorable();
        } else if (outcome instanceof ScoringOutcome.Answer answer) {
            byte[] key = OutputKey.of(record.key());
            // One record rather than withKey(…).withValue(…), which copies the headers twice.
            Headers headers = CarriedHeaders.of(record.headers());
            context.forward(new Record<byte[], Object>(key, output(answer), record.timestamp(), headers),
                    ScoringTopology.PREDICTIONS_SINK);
            observed(answer, record.timestamp());
            answer.deadLetterReason().ifPresent(reason -> context.forward(new Record<byte[], Object>(key,
                    deadLetter(record, reason), record.timestamp(), headers), ScoringTopology.DEAD_LETTERS_SINK));
        }
    }

    /**
     * What goes to the predictions sink for {@code answer}: the bytes of a common scored prediction, written here by
     * the task's writer, or the {@link io.gdastreams.model.Prediction} record, which the sink writes.
     */
    private Object output(ScoringOutcome.Answer answer) {
        return answer instanceof ScoringOutcome.ScoredPosterior scored ? scored.write(posteriorWriter)
                : answer.prediction();
    }

    /** Tells the observer of an answer written for an input record of {@code inputTimestamp}. */
    private void observed(ScoringOutcome.Answer answer, long inputTimestamp) {
        observer.predicted(answer.status(), inputTimestamp);
        if (answer instanceof ScoringOutcome.Unscored unscored
                && unscored.reason() instanceof UnscoredReason.DeadLettered deadLettered) {
            observer.deadLettered(deadLettered.category());
        }
    }

    /**
     * What the event in {@code record} comes to: read, checked, then scored by the model in force (after the events
     * held for it), or held while no model can score it and it fits the bounds.
     */
    private ScoringOutcome outcome(Record<byte[], byte[]> record) {
        // One read of the model in force: whether it scores and what stamps the answer are of the same version.
        Optional<CompiledModel> inForce = cache.current();
        Optional<CompiledModel> model = inForce.filter(CompiledModel::canScore);
        ScoringOutcome.ModelStamp stamp = ScoringOutcome.ModelStamp.of(inForce);
        EventFields read = model.isPresent() ? read(record.value(), model.get()) : null;
        EventIntake.Checked checked = read != null ? intake.check(record.key(), read, stamp)
                : intake.check(record.key(), record.value(), stamp);
        if (checked.refused() != null) {
            return checked.refused();
        }
        String id = checked.id();
        if (model.isPresent()) {
            releasePending(model.get());
            if (held.count() == 0 || held.full(settings.maxPending()) || record.value().length > MAX_HELD_VALUE_BYTES) {
                return intake.score(model.get(), checked);
            }
            // Events still held from before the model came are answered first: this one waits behind them while the
            // hold has room (else it is answered now, as one too large to hold), so the hold never grows past it.
            return pending(record, id);
        }
        // A model in force that cannot score is named with its excluded classes, as its own answers would be.
        ScoringOutcome.ModelStamp notHeld = inForce.map(CompiledModel::stampWithExclusions).orElse(stamp);
        if (record.value().length > MAX_HELD_VALUE_BYTES) {
            return new ScoringOutcome.Unscored(id, new UnscoredReason.NoModelTooLargeToHold(cache.absence(),
                    record.value().length, MAX_HELD_VALUE_BYTES), notHeld);
        }
        if (held.full(settings.maxPending())) {
            return new ScoringOutcome.Unscored(id, new UnscoredReason.NoModelHoldFull(cache.absence(),
                    settings.maxPending()), notHeld);
        }
        return pending(record, id);
    }

    private ScoringOutcome.Pending pending(Record<byte[], byte[]> record, String id) {
        Optional<RecordMetadata> source = context.recordMetadata();
        return new ScoringOutcome.Pending(new PendingEvent(record.key(), id, null, record.timestamp(),
                source.map(RecordMetadata::topic).orElse(null), source.map(RecordMetadata::partition).orElse(null),
                source.map(RecordMetadata::offset).orElse(null), record.value(),
                HeldEvents.keptHeaders(record.headers())));
    }

    /**
     * The event in {@code value} read by {@code model}'s {@link EventReader} (feature names resolved to the model's
     * coordinates once per model version, values read straight into the point), or null when the decoder must
     * decide: an event it does not accept, or categorical features (configured here or in the model).
     */
    private EventFields read(byte[] value, CompiledModel model) {
        if (model != readerModel) {
            readerModel = model;
            reader = categoricalSet.isEmpty() && !model.hasCategories()
                    ? new EventReader(model.features(), List.of(), settings.maxFeatures()) : null;
            fields = reader == null ? null : reader.newFields();
        }
        return reader != null && reader.readUnlabelled(value, fields) ? fields : null;
    }

    private void releasePending() {
        if (held.count() == 0) {
            return;
        }
        try {
            Optional<CompiledModel> model = cache.scorable();
            if (model.isPresent()) {
                releasePending(model.get());
            } else {
                reportUnscorable();
            }
        } catch (StreamsException e) {
            throw e; // the task is migrated or corrupted: Kafka Streams restores the held events and retries
        } catch (RuntimeException e) {
            LOG.error("Cannot release held events; will retry", e);
        }
    }

    /** Says once, while this task holds events, that the model in force has no scorable class. */
    private void reportUnscorable() {
        cache.claimUnscorableReport().ifPresent(model -> LOG.warn("Model '{}' version {} has no scorable class ({}): "
                + "unlabelled events are held, up to {} per input partition, until a version that can score them",
                model.modelId(), model.version(), model.unscorable().exclusions(), settings.maxPending()));
    }

    /**
     * Scores held events, oldest first, with their original keys and timestamps, for as long as the stream thread's
     * {@link ReleaseBudget} allows; the rest follow at the next record or punctuation, after a commit asked for here.
     */
    private void releasePending(CompiledModel model) {
        if (held.count() == 0 || !releaseBudget.begin()) {
            return;
        }
        int released;
        try {
            released = release(model);
        } finally {
            releaseBudget.end();
        }
        releasedInDrain += released;
        if (held.count() > 0) {
            context.commit(); // end the transaction that holds these answers before scoring more
        } else if (releasedInDrain > 0) {
            LOG.info("Scored {} held events with model '{}' version {}", releasedInDrain, model.modelId(),
                    model.version());
            releasedInDrain = 0;
        }
    }

    private int release(CompiledModel model) {
        return held.release(event -> {
            ScoringOutcome.Answer answer;
            try {
                UnlabelledEvent decodedEvent = HeldEvents.decoded(event, settings.maxFeatures(), categoricalSet);
                answer = intake.score(model, event.id(), decodedEvent);
            } catch (RuntimeException e) {
                LOG.error("Unexpected failure scoring a held event", e);
                answer = new ScoringOutcome.Unscored(event.id(), new UnscoredReason.InternalError(e),
                        ScoringOutcome.ModelStamp.of(model));
            }
            byte[] key = OutputKey.of(event.key());
            Headers headers = HeldEvents.headers(event);
            context.forward(new Record<byte[], Object>(key, output(answer), event.timestamp(), headers),
                    ScoringTopology.PREDICTIONS_SINK);
            observed(answer, event.timestamp());
            answer.deadLetterReason().ifPresent(reason -> context.forward(new Record<byte[], Object>(key,
                    HeldEvents.deadLetter(event, reason), event.timestamp(), headers),
                    ScoringTopology.DEAD_LETTERS_SINK));
        }, letter -> {
            LOG.error(letter.reason());
            observer.deadLettered(DeadLetterCategory.INVALID_STATE);
            context.forward(new Record<byte[], Object>(null, letter, context.currentSystemTimeMs()),
                    ScoringTopology.DEAD_LETTERS_SINK);
        }, releaseBudget::exhausted);
    }

    private DeadLetter deadLetter(Record<byte[], byte[]> record, String reason) {
        Optional<RecordMetadata> source = context.recordMetadata();
        return DeadLetters.of(reason, source.map(RecordMetadata::topic).orElse(null),
                source.map(RecordMetadata::partition).orElse(-1), source.map(RecordMetadata::offset).orElse(-1L),
                record.key(), record.value());
    }

    private static String keyText(byte[] key) {
        return EventIntake.keyText(key);
    }

    private static String idOrNull(String id) {
        return EventIntake.idOrNull(id);
    }
}
