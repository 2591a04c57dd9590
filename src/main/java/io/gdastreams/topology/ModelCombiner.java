package io.gdastreams.topology;

import io.gdastreams.math.FitOptions;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges the partial snapshots of all input partitions into the published model (runs on the single partition
 * of the internal partials topic, so it sees every partial). It wires its parts together and acts on what they
 * decide:
 * <ul>
 *   <li>{@link SnapshotIntake}: which snapshot records are refused (dead-lettered), ignored (not newer than the
 *       kept one) or accepted;</li>
 *   <li>{@link CombinerState}: the kept snapshots, schema, version and last published model, with the store
 *       layout;</li>
 *   <li>{@link ModelDraft}: the merge of the kept snapshots ({@link PartialMerge}) within the record limit;</li>
 *   <li>{@link PublicationChecks}: the version of the next model, and whether it may be published (no
 *       regression, no partition missing) or the topic asks for a new version;</li>
 *   <li>{@link PublishSchedule}: when to publish (at most once per publish interval) or check the topic;</li>
 *   <li>{@link ResetGate}: whether the first model of a new reset generation may replace the last one;</li>
 *   <li>{@link SettingsAgreement}: whether the instances that send the partitions' snapshots run with this one's
 *       state-shaping settings ({@link StateSettings}); while not, no version is published;</li>
 *   <li>{@link HoldNotices}: each reason for holding the next version back, logged once and told to the
 *       observer.</li>
 * </ul>
 * A model version carries per-class count, prior n_k/n, mean and MLE covariance S_k/n_k, and the lineage
 * {@code sources} (partition → next offset absorbed). Whether a publish is pending is derived from the store (a
 * kept snapshot newer than the published {@code sources}), so a snapshot accepted just before a crash is published
 * after the restart. Unreadable snapshots and store entries, and snapshots of another model or schema, are
 * dead-lettered; nothing here stops the topology except a model that would go backwards
 * ({@link TrainingStateException}).
 */
final class ModelCombiner implements Processor<String, byte[], String, TrainingOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(ModelCombiner.class);

    private final TrainingSettings settings;
    private final StreamObserver observer;
    private final SnapshotIntake intake;
    private final ModelDraft draft;
    private final ResetGate resetGate;
    /** Whether the instances that train the partitions run with this one's settings. */
    private final SettingsAgreement agreement;
    private ProcessorContext<String, TrainingOutput> context;
    private KeyValueStore<String, byte[]> store;
    private ModelTopicView topic;
    private PublicationChecks checks;
    /** Read from the store at the first record or check after init (dead letters cannot be sent from init). */
    private CombinerState state;
    private PublishSchedule schedule;
    /** Why the next version is held back, said once per reason (made at init). */
    private HoldNotices notices;
    /** Why the instances' settings hold the model back (null: they agree), judged when a sender changes. */
    private String disagreement;
    /** Wall-clock time this task's combiner started (init). */
    private long startedAt;
    /** The last version this combiner published that a check found on the topic as the newest record (0: none). */
    private long readBackVersion;

    /**
     * How much later than this combiner's start a snapshot of another model must be written to prove another
     * trainer runs under this application id: its timestamp is its writer's wall clock, and hosts' clocks differ.
     */
    static final Duration SHARED_APPLICATION_MARGIN = Duration.ofSeconds(30);

    ModelCombiner(TrainingSettings settings) {
        this(settings, StreamObserver.NONE);
    }

    ModelCombiner(TrainingSettings settings, StreamObserver observer) {
        this.observer = observer;
        this.settings = settings;
        this.intake = new SnapshotIntake(settings.modelId(), settings.categorical().features(), settings.statistics());
        this.draft = ModelDraft.of(settings);
        this.agreement = new SettingsAgreement(StateSettings.of(settings));
        this.resetGate = new ResetGate(settings.modelId(), settings.prequential() == null
                ? FitOptions.DEFAULT_MIN_COUNT : settings.prequential().fitOptions().minCount());
    }

    @Override
    public void init(ProcessorContext<String, TrainingOutput> processorContext) {
        this.context = processorContext;
        this.store = processorContext.getStateStore(TrainingTopology.COMBINER_STORE);
        this.topic = new ModelTopicView(settings.modelId(),
                processorContext.getStateStore(TrainingTopology.PUBLISHED_STORE));
        this.checks = new PublicationChecks(settings.modelId(), processorContext.applicationId());
        this.state = null;
        this.schedule = null;
        this.notices = new HoldNotices(LOG, observer);
        this.startedAt = processorContext.currentSystemTimeMs();
        this.readBackVersion = 0; // as the rest, from nothing at each (re)initialisation
        processorContext.schedule(SnapshotTicks.checkPeriod(settings.publishInterval()),
                PunctuationType.WALL_CLOCK_TIME, this::publishIfDue);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("partials must come from a topic"));
        load();
        SnapshotIntake.Outcome outcome = intake.judge(source.topic(), record.value(), state);
        PartialSnapshot current = outcome.current();
        if (current != null
                && state.sender(current.progress().partition(), StateSettings.headerValue(record.headers()))) {
            // Said when the instances start or stop disagreeing, not only at the next publish: a quiet partition
            // taken over by an odd instance brings nothing to publish, yet every later version waits on it.
            judgeSettings();
        }
        if (outcome instanceof SnapshotIntake.Refused refused) {
            // (A snapshot without a timestamp of its own, restamped when read, is not taken for one sent since.)
            if (refused.otherModel() != null && TimelessRecordInterceptor.own(record.timestamp(), record.headers())
                    > startedAt + SHARED_APPLICATION_MARGIN.toMillis()) {
                throw TrainingStateException.configurationConflict(sharedApplication(refused, record.timestamp()));
            }
            if (refused.conflict()) {
                LOG.warn("Rejecting a partial snapshot: {}", refused.reason());
            }
            reject(record, source, refused.reason());
        } else if (outcome instanceof SnapshotIntake.Stale stale) {
            if (stale.resent()) {
                long now = context.currentSystemTimeMs();
                LOG.debug("Partition {} quiet at {}", stale.partition(), now);
                schedule.partitionQuiet(stale.partition(), now);
                publishIfRoundHasAll(now);
            } else {
                LOG.debug("Ignoring a snapshot of partition {} at offset {}: already have offset {}",
                        stale.partition(), stale.snapshot().progress().nextOffset(), stale.keptOffset());
            }
        } else if (outcome instanceof SnapshotIntake.Accepted accepted) {
            state.keep(accepted.snapshot(), record.value());
            long now = context.currentSystemTimeMs();
            LOG.debug("Snapshot of partition {} to offset {} accepted at {}",
                    accepted.snapshot().progress().partition(), accepted.snapshot().progress().nextOffset(), now);
            schedule.snapshotAccepted(accepted.snapshot().progress().partition(), now);
            publishIfRoundHasAll(now);
        }
    }

    /**
     * A snapshot of another model written while this combiner runs: another trainer, configured with that model id,
     * shares this application id, so each trains on the partitions it was given and publishes half a model. A
     * snapshot written before (a change of {@code gda.model.id} with old snapshots still unread) is only refused.
     */
    private String sharedApplication(SnapshotIntake.Refused refused, long writtenAt) {
        return "another trainer runs under application id '" + context.applicationId() + "' with gda.model.id '"
                + refused.otherModel() + "': its partial snapshot was written " + (writtenAt - startedAt) / 1000
                + " s after this trainer started (" + refused.reason() + "). Both would publish half a model; one"
                + " application id trains one model: give each model its own gda.application.id, and stop every"
                + " instance before changing gda.model.id";
    }

    /**
     * A record may publish its round only when every partition the combiner keeps has reported in it: nothing else
     * can come for this tick. Otherwise the round is judged at the next check, within {@link
     * SnapshotTicks#checkPeriod(Duration)}: the snapshots of one tick often come in one poll, and a round published
     * at the record that completed it (every partition of the previous round in) would leave a later record of the
     * same poll, a partition quiet in the previous round with news now, for the next round, an interval later.
     */
    private void publishIfRoundHasAll(long now) {
        if (schedule.roundHasAll(state.keptPartitions())) {
            publishIfDue(now);
        }
    }

    /**
     * Publishes the pending model when due, or sees whether the model topic still holds this trainer's last model:
     * {@link PublishSchedule} says which.
     */
    private void publishIfDue(long now) {
        load();
        switch (schedule.next(now, state.lastPublished().isPresent())) {
            case PUBLISH -> publish(now);
            case REPUBLISH_AT_START -> republish(now, "the trainer started");
            case CHECK_TOPIC -> {
                PublishedModel last = state.lastPublished().orElseThrow();
                Optional<PublishedModel> latest = topic.latest();
                PublicationChecks.TopicVerdict verdict = checks.judgeTopic(topic.record(), latest, last,
                        readBackVersion == last.version());
                if (latest.filter(newest -> PublicationChecks.isLast(newest, last)).isPresent()) {
                    readBackVersion = last.version();
                }
                if (verdict.conflict() != null) {
                    // Not a damaged state: rebuilding it would change nothing, so the trainer stops at once.
                    throw TrainingStateException.configurationConflict(verdict.conflict());
                }
                if (verdict.republishReason() != null) {
                    republish(now, verdict.republishReason());
                }
            }
            case NOTHING -> {
            }
        }
    }

    /**
     * Publishes the current statistics again, as a new version: once after a (re)start and whenever the newest
     * record under the model id is not this trainer's last model (docs/TRAINING.md, "Versions are identities").
     */
    private void republish(long now, String reason) {
        LOG.info("Publishing model '{}' again as a new version: {}", settings.modelId(), reason);
        schedule.publishWanted();
        publish(now);
    }

    /**
     * Publishes the merged model as the next version, unless there is nothing to publish, it is too large, it
     * would go backwards from a model this application published (then the application stops: see
     * {@link TrainingStateException}) or it lacks a partition such a model had (then it waits for that
     * partition's snapshot).
     */
    private void publish(long now) {
        if (disagreement != null) {
            // Not mixed into one model: the state of some partitions was made under other settings than the rest.
            schedule.notPublished(now, 0);
            return;
        }
        Optional<PublishedModel> latest = topic.latest();
        Set<String> publishedLabels = state.lastPublished().map(PublishedModel::labels).orElse(Set.of());
        long tryStart = System.nanoTime();
        long version = PublicationChecks.nextVersion(state.version(), latest);
        if (version == PublicationChecks.NO_VERSION_LEFT) {
            notices.hold(checks.noVersionLeft(state.version(), latest));
            schedule.notPublished(now, elapsedMs(tryStart));
            return;
        }
        ModelDraft.Result result = draft.draft(state.snapshots(), state.schema(), version,
                Instant.ofEpochMilli(context.currentSystemTimeMs()).toString(), context.applicationId(),
                publishedLabels);
        if (result instanceof ModelDraft.NoEvents) {
            notices.published();
            schedule.nothingToPublish();
            return;
        }
        if (result instanceof ModelDraft.TooLarge tooLarge) {
            notices.hold(tooLarge.notice());
            schedule.notPublished(now, elapsedMs(tryStart));
            return;
        }
        ModelDraft.Ready ready = (ModelDraft.Ready) result;
        ModelParameters model = ready.model();
        if (!ready.leftOut().isEmpty()) {
            LOG.error("Classes {} are left out of version {} of model '{}': with them it could exceed the record limit"
                    + " of {} bytes, now or as its numbers grow (docs/TRAINING.md, 'Model size')", ready.leftOut(),
                    model.version(), settings.modelId(), settings.maxModelBytes());
        }
        String hold = checks.holdReason(checks.references(state.lastPublished().orElse(null), latest), model);
        if (hold == null) {
            hold = resetGate.holdReason(model, state.lastPublished().orElse(null));
        }
        if (hold != null) {
            notices.hold(hold);
            schedule.notPublished(now, elapsedMs(tryStart));
            return;
        }
        state.published(model, PublishedModel.of(model, ready.bytes()));
        schedule.published(now);
        notices.published();
        // Signed over the bytes measured and sent (ModelSigning); the header travels to the model sink.
        context.forward(new Record<>(settings.modelId(), new TrainingOutput.Model(ready.bytes()), now,
                settings.signing().sign(ready.bytes())));
        observer.modelPublished(model, ready.leftOut());
        LOG.debug("Published version {} at {} from {}", model.version(), now, model.sources());
        // Under exactly-once the model is invisible to scorers until committed: do not wait for commit.interval.ms.
        context.commit();
    }

    /** Milliseconds since {@code startNanos} (System.nanoTime): what a try cost, in wall-clock time. */
    private static long elapsedMs(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /** Judges the senders' settings again (they changed, or were loaded), and says what they come to. */
    private void judgeSettings() {
        disagreement = agreement.holdReason(settings.modelId(), context.applicationId(), state.senders());
        notices.settings(disagreement);
    }

    @Override
    public void close() {
        if (notices != null) {
            notices.clear(); // the task may go to another instance: this process no longer holds anything back
        }
    }

    private void load() {
        if (state != null) {
            return;
        }
        List<CombinerState.Discarded> discarded = new ArrayList<>();
        state = CombinerState.load(store, settings.modelId(), settings.features(), discarded);
        for (CombinerState.Discarded entry : discarded) {
            deadLetterStoreEntry(entry);
        }
        schedule = new PublishSchedule(settings.publishInterval(), state.hasUnpublishedSnapshot());
        judgeSettings(); // kept from before a restart: said now, not at the next publish
    }

    private void deadLetterStoreEntry(CombinerState.Discarded entry) {
        String reason = "state store " + store.name() + ": " + entry.problem();
        LOG.error(reason);
        observer.deadLettered(DeadLetterCategory.INVALID_STATE);
        DeadLetter letter = DeadLetters.ofStoreEntry(reason, context.applicationId(), store.name(),
                context.taskId().partition(), entry.key(), entry.value());
        context.forward(new Record<>(settings.modelId(), new TrainingOutput.Rejected(
                entry.key().getBytes(StandardCharsets.UTF_8), letter), context.currentSystemTimeMs()));
    }

    private void reject(Record<String, byte[]> record, RecordMetadata source, String reason) {
        byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        observer.deadLettered(DeadLetterCategory.INVALID_STATE);
        // The headers within the bound every dead letter keeps: anyone who may write the partials topic could send
        // a record whose headers alone would make the dead letter too large to write, at every restart.
        context.forward(record.withValue(new TrainingOutput.Rejected(OutputKey.of(key),
                DeadLetters.of(reason, source.topic(), source.partition(), source.offset(), key, record.value())))
                .withHeaders(CarriedHeaders.of(record.headers())));
    }
}
