package io.gdastreams.ops;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.service.StreamsApp;
import io.gdastreams.topology.DeadLetterCategory;
import io.gdastreams.topology.ScorerFit;
import io.gdastreams.topology.StreamObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The figures of one train or score process, in a Micrometer registry written as Prometheus text: the topologies'
 * own counts (this is their {@link StreamObserver}) and Kafka Streams' metrics through Micrometer's binder
 * ({@code kafka_stream_*}), rebound to each new client after a restart.
 *
 * <p>Every label value is from a fixed set (the dead-letter categories, the two prediction statuses), registered
 * up front at 0 so that a rate over them exists before the first event.
 */
final class OpsMetrics implements StreamObserver {

    /** Latency histogram bounds: below a millisecond or above ten minutes only the end buckets count it. */
    private static final Duration LATENCY_MIN = Duration.ofMillis(1);
    private static final Duration LATENCY_MAX = Duration.ofMinutes(10);
    /**
     * How often the Kafka Streams binder looks for metrics that came or went. Micrometer's default, a minute, left a
     * restarted client's task and store families out of {@code /metrics} for up to that long (and a moved task's in
     * it, reading NaN); a look compares the client's metric names with the last set, a few thousand entries.
     */
    static final Duration STREAMS_METRICS_REFRESH = Duration.ofSeconds(5);
    private static final long REFRESH_STOP_MILLIS = 5_000;

    private final PrometheusMeterRegistry registry = new StreamsPrometheusRegistry();
    private final Clock clock;
    private final Counter applied;
    private final Map<DeadLetterCategory, Counter> deadLetters = new EnumMap<>(DeadLetterCategory.class);
    private final Map<Prediction.Status, Counter> predictions = new EnumMap<>(Prediction.Status.class);
    private final Timer latency;
    private final Map<String, Long> pendingByTask = new ConcurrentHashMap<>();
    /** The trainer's model (null for a scorer). */
    private final TrainerModels trainerModels;
    /** Classes the trainer's last published version left out over the size bound. */
    private final AtomicInteger classesLeftOut = new AtomicInteger();
    /** Why this process's model combiner holds the next version back; null: it does not (or runs elsewhere). */
    private final AtomicReference<String> modelHeld = new AtomicReference<>();
    /** The running client's restores in progress (none before the first client starts). */
    private volatile Supplier<List<StreamsApp.Restoring>> restoring = List::of;
    private volatile Supplier<List<StreamsApp.HeldInput>> heldInputs = List::of;
    private final Supplier<Optional<ModelParameters>> model;
    /** The client bound now (null before the first). */
    private StreamsBinding streamsBinding;

    /**
     * @param model the model the process stands for (the scorer's in force), or null for a trainer: then the
     *              newest on the model topic ({@link TrainerModels}), of any model id
     */
    OpsMetrics(Supplier<Optional<ModelParameters>> model, Clock clock) {
        this(model, null, clock);
    }

    /** A trainer's figures: its model is the newest of {@code modelId} on the model topic. */
    static OpsMetrics forTrainer(String modelId, Clock clock) {
        return new OpsMetrics(null, modelId, clock);
    }

    private OpsMetrics(Supplier<Optional<ModelParameters>> model, String modelId, Clock clock) {
        this.clock = clock;
        this.trainerModels = model == null ? new TrainerModels(modelId) : null;
        this.model = model != null ? model : trainerModels::newest;
        applied = Counter.builder("gda.events.applied").description("labelled events applied to the statistics")
                .register(registry);
        for (DeadLetterCategory category : DeadLetterCategory.values()) {
            deadLetters.put(category, Counter.builder("gda.dead.letters").tag("reason", category.label())
                    .description("records sent to the dead-letter topic, by category of reason").register(registry));
        }
        for (Prediction.Status status : Prediction.Status.values()) {
            predictions.put(status, Counter.builder("gda.predictions")
                    .tag("status", status.name().toLowerCase(java.util.Locale.ROOT))
                    .description("records written to the predictions topic, by status").register(registry));
        }
        latency = Timer.builder("gda.scoring.latency")
                .description("input record timestamp to the answer's writing (held events included)")
                .publishPercentileHistogram().minimumExpectedValue(LATENCY_MIN).maximumExpectedValue(LATENCY_MAX)
                .register(registry);
        Gauge.builder("gda.model.version", this, m -> m.currentModel().map(p -> (double) p.version())
                        .orElse(Double.NaN))
                .description("version of the model in force (scorer) or newest on the model topic (trainer); NaN: none")
                .register(registry);
        Gauge.builder("gda.model.age", this, OpsMetrics::modelAgeSeconds).baseUnit("seconds")
                .description("time since that model was published (its updatedAt); NaN: none")
                .register(registry);
        Gauge.builder("gda.pending.events", this, m -> m.pendingEvents())
                .description("unlabelled events held until a model exists (scorer)").register(registry);
        Gauge.builder("gda.restores.stalled", this, OpsMetrics::stalledRestores)
                .description("changelog restores standing still past gda.restore.patience.ms (see /health/ready)")
                .register(registry);
        Gauge.builder("gda.inputs.held", this, m -> m.heldInputs.get().size())
                .description("partitions read that an open transaction has held at their last stable offset past"
                        + " gda.restore.patience.ms (see /health/ready)")
                .register(registry);
        if (model == null) {
            Gauge.builder("gda.model.classes.left.out", classesLeftOut, AtomicInteger::get)
                    .description("classes the last published model left out over the size bound (trainer)")
                    .register(registry);
            Gauge.builder("gda.model.held", modelHeld, held -> held.get() == null ? 0 : 1)
                    .description("1 while this process's model combiner holds the next version back (trainer;"
                            + " see /health/ready), else 0").register(registry);
        }
    }

    /**
     * States a scorer's fit as {@code gda_scoring_fit_info{covariance, estimator, fit} 1}: instances of one
     * application whose {@code fit} differs give other probabilities for the same model version (an alert:
     * {@code count(count by (fit) (gda_scoring_fit_info)) > 1}).
     */
    void scorerFit(ScorerFit fit) {
        Gauge.builder("gda.scoring.fit.info", () -> 1).tag("covariance", fit.covariance())
                .tag("estimator", fit.estimator()).tag("fit", fit.digest())
                .description("this scorer's fit options (fit: a digest of every one of them); 1").register(registry);
    }

    /**
     * Follows {@code app}'s restores and held inputs (a newly started client) for {@code gda.restores.stalled} and
     * {@code gda.inputs.held}.
     */
    void follow(Supplier<List<StreamsApp.Restoring>> restores, Supplier<List<StreamsApp.HeldInput>> held) {
        this.restoring = restores;
        this.heldInputs = held;
    }

    private double stalledRestores() {
        return restoring.get().stream().filter(r -> r.stalled() != null).count();
    }

    /**
     * Points the Kafka Streams metrics at {@code streams} (a newly started client), dropping the old client's. The
     * binder registers the metrics that exist when it binds and then looks for new and gone ones every
     * {@link #STREAMS_METRICS_REFRESH}: a client's task and store metrics appear only once its first rebalance has
     * assigned it tasks, after the bind.
     */
    synchronized void bind(KafkaStreams streams) {
        unbindStreams();
        ScheduledExecutorService refresh = DaemonTimer.named("gda-streams-metrics");
        KafkaStreamsMetrics binder = new KafkaStreamsMetrics(streams, List.of(), refresh, STREAMS_METRICS_REFRESH);
        binder.bindTo(registry);
        streamsBinding = new StreamsBinding(binder, refresh);
    }

    private void unbindStreams() {
        if (streamsBinding != null) {
            streamsBinding.close();
            streamsBinding = null;
        }
    }

    /** Micrometer's binder of one client, and the timer of its refresh (ours, so that we can stop it). */
    private record StreamsBinding(KafkaStreamsMetrics binder, ScheduledExecutorService refresh) {

        /**
         * The refresh is stopped (and a refresh under way waited for) before the meters are removed, so that it
         * cannot register one of them again after the removal.
         */
        void close() {
            refresh.shutdownNow();
            try {
                refresh.awaitTermination(REFRESH_STOP_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            binder.close();
        }
    }

    /** Everything, in the Prometheus text format (version 0.0.4). */
    String scrape() {
        return registry.scrape();
    }

    synchronized void close() {
        unbindStreams();
        registry.close();
    }

    Optional<ModelParameters> currentModel() {
        return model.get();
    }

    double modelAgeSeconds() {
        return currentModel().map(m -> ageSeconds(m, clock.instant())).orElse(Double.NaN);
    }

    /** Seconds from {@code model}'s publication to {@code now}; NaN when its updatedAt is not an instant. */
    static double ageSeconds(ModelParameters model, Instant now) {
        try {
            return Duration.between(Instant.parse(model.updatedAt()), now).toMillis() / 1000.0;
        } catch (DateTimeParseException | NullPointerException e) {
            return Double.NaN;
        }
    }

    long eventsApplied() {
        return (long) applied.count();
    }

    long deadLetters() {
        return (long) deadLetters.values().stream().mapToDouble(Counter::count).sum();
    }

    long predictions(Prediction.Status status) {
        return (long) predictions.get(status).count();
    }

    long deadLetters(DeadLetterCategory category) {
        return (long) deadLetters.get(category).count();
    }

    /** Answers timed by {@code gda_scoring_latency_seconds} (its {@code _count}). */
    long latencyCount() {
        return latency.count();
    }

    /** Their summed latency in seconds (its {@code _sum}). */
    double latencySumSeconds() {
        return latency.totalTime(TimeUnit.SECONDS);
    }

    long pendingEvents() {
        return pendingByTask.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public void eventApplied() {
        applied.increment();
    }

    @Override
    public void deadLettered(DeadLetterCategory category) {
        deadLetters.get(category).increment();
    }

    @Override
    public void predicted(Prediction.Status status, long inputTimestampMs) {
        predictions.get(status).increment();
        // A producer's clock ahead of ours would make it negative: counted as 0.
        latency.record(Math.max(0, clock.millis() - inputTimestampMs), TimeUnit.MILLISECONDS);
    }

    @Override
    public void pendingEvents(String task, long count) {
        if (count == 0) {
            pendingByTask.remove(task);
        } else {
            pendingByTask.put(task, count);
        }
    }

    @Override
    public void modelPublished(ModelParameters model, Set<String> leftOut) {
        if (trainerModels != null) {
            trainerModels.published(model);
        }
        classesLeftOut.set(leftOut.size());
    }

    @Override
    public void modelHeld(String reason) {
        modelHeld.set(reason);
    }

    /** Why this process's model combiner holds the next version back (a trainer's; empty: it does not). */
    Optional<String> modelHeld() {
        return Optional.ofNullable(modelHeld.get());
    }

    @Override
    public void modelRecordSeen(byte[] record) {
        if (trainerModels != null) {
            trainerModels.onTopic(record);
        }
    }
}
