package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scorer as a service runs it, seen from outside its topology: builds the scoring topology (again after each
 * restart of the client) and answers for the model that topology holds in force: which model it is, and what it
 * says of one event, by the topology's own code ({@link EventIntake}, {@link CompiledModel#score}) and the
 * predictions topic's serializer, so that an event answered here and on the topic gives the same bytes.
 *
 * <p>Thread-safe: the model in force is read through the cache's volatile fields.
 */
public final class LiveScoring {

    private static final Logger LOG = LoggerFactory.getLogger(LiveScoring.class);

    /** What {@link #score} made of one event. */
    public enum Verdict {
        /** A posterior, or an answer-only unscored record (the input is fine; the model cannot score it). */
        ANSWERED,
        /** The input is at fault (unreadable, too long, unknown features): the topology dead-letters it. */
        REFUSED,
        /**
         * No model can score (none in force, or the one in force has no scorable class; the topology holds such
         * events): {@link Answer#prediction()} is null and {@link Answer#reason()} says why.
         */
        NO_MODEL,
        /** The scorer failed on it (a bug; logged). */
        FAILED
    }

    /**
     * The answer to one event: the prediction record and its bytes as the predictions topic carries them (null with
     * {@link Verdict#NO_MODEL}), and the reason when it is not a posterior.
     */
    public record Answer(Verdict verdict, Prediction prediction, byte[] bytes, String reason) {
    }

    private final ScoringSettings settings;
    private final StreamObserver observer;
    private final EventIntake intake;
    private final AtomicReference<CompiledModelCache> cache = new AtomicReference<>();

    public LiveScoring(ScoringSettings settings, StreamObserver observer) {
        this.settings = settings;
        this.observer = observer;
        this.intake = new EventIntake(settings);
        this.cache.set(CompiledModelCache.of(settings));
    }

    /**
     * A new scoring topology, with a new model cache: as {@link ScoringTopology#build(ScoringSettings)}, each
     * client compiles the models its own global store replays. From now on this object answers for it.
     */
    public Topology topology() {
        CompiledModelCache fresh = CompiledModelCache.restoring(settings);
        cache.set(fresh);
        return ScoringTopology.build(settings, fresh, observer);
    }

    /**
     * The client of the latest {@link #topology()} has restored the model topic (its start returned): logs the model
     * in force then, instead of the first version of the restore and no more for a minute.
     */
    public void restored() {
        cache.get().restored();
    }

    /** The model in force, as it was published; empty before the first valid model. */
    public Optional<ModelParameters> modelInForce() {
        return cache.get().modelInForce();
    }

    /**
     * Why this scorer cannot score now, for "not ready" answers: no model in force, or the one in force has no
     * scorable class; empty when it can.
     */
    public Optional<String> notScoring() {
        return cache.get().notScoring();
    }

    /**
     * Scores {@code value} (an unlabelled event's bytes, as on the input topic, without a record key) with the model
     * in force, as the topology would.
     */
    public Answer score(byte[] value) {
        CompiledModelCache models = cache.get();
        Optional<CompiledModel> model = models.scorable();
        if (model.isEmpty()) {
            return new Answer(Verdict.NO_MODEL, null, null, models.absence());
        }
        ScoringOutcome.Answer answer;
        try {
            EventIntake.Checked checked = intake.check(null, value, ScoringOutcome.ModelStamp.of(model));
            answer = checked.refused() != null ? checked.refused()
                    : intake.score(model.get(), checked.id(), checked.event());
        } catch (RuntimeException e) {
            LOG.error("Unexpected failure scoring an event sent to POST /score", e);
            answer = new ScoringOutcome.Unscored(null, new UnscoredReason.InternalError(e),
                    ScoringOutcome.ModelStamp.of(model));
        }
        Prediction prediction = answer.prediction();
        byte[] bytes = settings.topics().predictions().valueSerializer()
                .serialize(settings.topics().predictions().name(), prediction);
        Verdict verdict = Verdict.ANSWERED;
        if (answer instanceof ScoringOutcome.Unscored unscored && unscored.reason().deadLettered()) {
            verdict = unscored.reason() instanceof UnscoredReason.InternalError ? Verdict.FAILED : Verdict.REFUSED;
        }
        return new Answer(verdict, prediction, bytes, prediction.reason());
    }
}
