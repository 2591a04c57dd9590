package io.gdastreams.bench;

import io.gdastreams.bench.ModelWatcher.ModelAt;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.Topics;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Runs the stages of one benchmark against one cluster. Each stage gets its own topics (created with
 * {@code message.timestamp.type=LogAppendTime}, so every timestamp read back is the broker's append time) and
 * its own application id, and goes through the same steps:
 * <ol>
 *   <li>pre-load the input topic with N events and wait until all are acknowledged (the producer is not
 *       measured);</li>
 *   <li>start the application; the clock starts when it reaches RUNNING;</li>
 *   <li>wait until it is done: its committed input offsets reach the end (passthrough, scoring), or a model
 *       absorbs every event (training); the clock stops at the broker append time of the last output record /
 *       of that model;</li>
 *   <li>with the application caught up, send a few events at a steady rate and measure per-event latency
 *       (append → output append) or model freshness (append → append of the first model version whose
 *       lineage offset for the event's partition is past the event's offset).</li>
 * </ol>
 * This class sequences the steps; {@link BenchClients} holds the Kafka clients and topics, {@link EventLoader}
 * writes the inputs, {@link PacedMeasurement} and {@link ModelWatcher} measure the last step.
 */
final class StageRunner implements AutoCloseable {

    static final String MODEL_ID = "bench";
    /** Prediction JSON starts with its status (the record's first component). */
    private static final String SCORED_PREFIX = "{\"status\":\"scored\"";
    /**
     * Above this share of a stage's outputs written before the application reached RUNNING, its CPU per event
     * (counted from RUNNING, so paid for the other outputs) is not reported: too few events to rate it by.
     */
    static final double MAX_SHARE_BEFORE_RUNNING = 0.5;

    private final BenchSettings settings;
    private final AppPlacement placement;
    private final SyntheticStream stream;
    private final String runId;
    private final Path stateDirectory;
    private final Duration stageTimeout;
    private final PrintWriter progress;
    private final BenchClients clients;
    private final EventLoader loader;
    private final PacedMeasurement paced;

    StageRunner(String bootstrapServers, BenchSettings settings, AppPlacement placement, String runId,
                Path stateDirectory, Duration stageTimeout, PrintWriter progress) {
        this.settings = settings;
        this.placement = placement;
        this.stream = new SyntheticStream(settings.classes(), settings.features(), settings.seed());
        this.runId = runId;
        this.stateDirectory = stateDirectory;
        this.stageTimeout = stageTimeout;
        this.progress = progress;
        this.clients = new BenchClients(bootstrapServers);
        this.loader = new EventLoader(clients, settings, progress);
        this.paced = new PacedMeasurement(loader, settings, stageTimeout);
    }

    /** The passthrough baseline over labelled events. */
    StageResult passthrough() {
        Topics topics = createTopics(Stage.PASSTHROUGH);
        long[] ends = loader.preload(topics.labelled().name(), i -> stream.labelled(i));
        return runToOutput(Stage.PASSTHROUGH, topics, topics.labelled().name(), topics.predictions().name(),
                Set.of(topics.labelled().name()), ends, value -> true,
                i -> stream.labelled(i));
    }

    /** Training; also returns the model that absorbed the N pre-loaded events (the scorer's fixed model). */
    TrainingRun training() {
        Topics topics = createTopics(Stage.TRAINING);
        long[] ends = loader.preload(topics.labelled().name(), i -> stream.labelled(i));
        try (AppUnderTest app = start(Stage.TRAINING, topics);
             ModelWatcher models = new ModelWatcher(clients.consumer(), topics.model(), topics.deadLetters(),
                     stageTimeout)) {
            ModelAt absorbed = models.awaitTotal(settings.events(), app);
            double cpuSeconds = app.threadCpuSeconds(); // before the freshness measurement adds its own
            double jitSeconds = app.jitSeconds();
            long storedBytes = storedBytes(Stage.TRAINING, Set.of(topics.labelled().name()));
            double seconds = (absorbed.appendTime() - app.runningAt()) / 1000.0;
            progress.printf("  training: model v%d absorbed %d events%n", absorbed.model().version(),
                    absorbed.model().totalCount());
            PacedMeasurement.Delays freshness = paced.freshness(topics.labelled().name(),
                    i -> stream.labelled(settings.events() + i), models, app);
            return new TrainingRun(new StageResult(Stage.TRAINING.label(), settings.events(), seconds,
                    app.startupSeconds(), freshness, cpuSeconds, jitSeconds, storedBytes), absorbed.model(),
                    cpuSeconds);
        }
    }

    /** Scoring with {@code model} pre-published and no trainer running. */
    StageResult scoring(ModelParameters model) {
        Topics topics = createTopics(Stage.SCORING);
        publish(topics, model);
        long[] ends = loader.preload(topics.unlabelled().name(),
                i -> stream.unlabelled(EventLoader.THROUGHPUT_KEY_PREFIX, i));
        return runToOutput(Stage.SCORING, topics, topics.unlabelled().name(),
                topics.predictions().name(), Set.of(topics.unlabelled().name(), topics.model().name()), ends,
                StageRunner::isScoredPrediction,
                i -> stream.unlabelled(EventLoader.LATENCY_KEY_PREFIX, i));
    }

    /** Publishes {@code model} on the stage's model topic (the scorer's fixed model). */
    void publish(Topics topics, ModelParameters model) {
        try (KafkaProducer<byte[], byte[]> producer = clients.producer(0)) {
            producer.send(new ProducerRecord<>(topics.model().name(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    topics.model().valueBytes(model))).get();
        } catch (InterruptedException | ExecutionException e) {
            throw BenchClients.failure("cannot publish the model for scoring", e);
        }
    }

    BenchClients clients() {
        return clients;
    }

    EventLoader loader() {
        return loader;
    }

    SyntheticStream stream() {
        return stream;
    }

    Duration stageTimeout() {
        return stageTimeout;
    }

    /**
     * {@code cpuSeconds}: CPU time of the application's threads from RUNNING until the model absorbed every event
     * (the stage's measured time), NaN when not measured ({@link AppUnderTest#threadCpuSeconds()}).
     */
    record TrainingRun(StageResult result, ModelParameters model, double cpuSeconds) {
    }

    /**
     * A scoring stage that answered "unscored" (no model, unknown feature) would do far less work per event:
     * its throughput would be meaningless, so every throughput output must be a scored prediction.
     */
    static boolean isScoredPrediction(byte[] value) {
        return value != null && new String(value, 0, Math.min(value.length, SCORED_PREFIX.length()),
                StandardCharsets.UTF_8).equals(SCORED_PREFIX);
    }

    /** {@code notTheApps}: the stage's topics the application does not write (its input, a model the bench wrote). */
    private StageResult runToOutput(Stage stage, Topics topics, String input, String output, Set<String> notTheApps,
                                    long[] ends, Predicate<byte[]> validOutput, IntFunction<byte[]> latencyEvent) {
        try (AppUnderTest app = start(stage, topics);
             KafkaConsumer<byte[], byte[]> consumer = clients.consumer()) {
            clients.awaitCommitted(app, input, ends, stageTimeout);
            double cpuSeconds = app.threadCpuSeconds(); // every event processed; before the latency events
            double jitSeconds = app.jitSeconds();
            long storedBytes = storedBytes(stage, notTheApps);
            List<TopicPartition> partitions = BenchClients.partitionsOf(consumer, output);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long seen = 0;
            long firstAppend = Long.MAX_VALUE;
            long beforeRunning = 0;
            long invalid = 0;
            byte[] firstInvalid = null;
            long lastAppend = Long.MIN_VALUE;
            Deadline deadline = Deadline.after(stage, stageTimeout);
            while (seen < settings.events()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(BenchClients.POLL)) {
                    seen++;
                    if (record.timestamp() < app.runningAt()) {
                        beforeRunning++;
                    }
                    firstAppend = Math.min(firstAppend, record.timestamp());
                    lastAppend = Math.max(lastAppend, record.timestamp());
                    if (!validOutput.test(record.value())) {
                        invalid++;
                        firstInvalid = firstInvalid == null ? record.value() : firstInvalid;
                    }
                }
                deadline.check("reading " + settings.events() + " outputs, saw " + seen);
            }
            if (seen != settings.events()) {
                throw new IllegalStateException(stage.label() + ": " + seen + " outputs for " + settings.events()
                        + " events");
            }
            if (invalid > 0) {
                throw new IllegalStateException(stage.label() + ": " + invalid + " of " + seen
                        + " outputs are not what the stage should produce, e.g. "
                        + (firstInvalid == null ? "null" : new String(firstInvalid, StandardCharsets.UTF_8)));
            }
            // One stream thread can start processing while the client as a whole is still REBALANCING: on a
            // loaded machine a small N can then be done before RUNNING. The clock starts at whichever came first.
            double seconds = (lastAppend - Math.min(app.runningAt(), firstAppend)) / 1000.0;
            long paidFor = eventsAfterRunning(settings.events(), beforeRunning);
            if (beforeRunning > 0) {
                progress.printf("  %s: %d of %d outputs were written before RUNNING; %s%n", stage.label(),
                        beforeRunning, settings.events(), paidFor > 0 ? "CPU per event from the other " + paidFor
                                : "CPU per event not reported");
            }
            // The CPU is counted from RUNNING: it paid for the outputs written after it only (divided by all N,
            // short runs reported 2.8 µs for a passthrough that costs 12). Scaled so that appCpuSeconds / N is it.
            cpuSeconds = paidFor > 0 ? cpuSeconds * settings.events() / paidFor : Double.NaN;
            PacedMeasurement.Delays latency = paced.latency(input, consumer, app, latencyEvent);
            return new StageResult(stage.label(), settings.events(), seconds, app.startupSeconds(), latency,
                    cpuSeconds, jitSeconds, storedBytes);
        }
    }

    /**
     * The events whose processing the CPU counted from RUNNING paid for: those whose outputs were written after it;
     * 0 when more than {@link #MAX_SHARE_BEFORE_RUNNING} of them came before (too few to rate the CPU by).
     */
    static long eventsAfterRunning(long events, long beforeRunning) {
        return beforeRunning > events * MAX_SHARE_BEFORE_RUNNING ? 0 : events - beforeRunning;
    }

    /**
     * What the stage's application made the brokers write: its topics (they and its internal topics start with the
     * stage's name) but those it did not write, {@code notTheApps}.
     */
    private long storedBytes(Stage stage, Set<String> notTheApps) {
        return clients.storedBytes(name(stage) + "-", notTheApps);
    }

    /** The stage's topics and application id share this name. */
    private String name(Stage stage) {
        return "bench-" + runId + "-" + stage.label();
    }

    Topics createTopics(Stage stage) {
        return clients.createTopics(name(stage) + "-", settings.partitions(), stage);
    }

    /** The stage's application: in this JVM, or as instances in the placement's child JVMs, in one group. */
    AppUnderTest start(Stage stage, Topics topics) {
        Path stageState = stateDirectory.resolve(stage.label());
        return placement.start(stage, name(stage),
                () -> new RunningApp(stage, StageApps.topology(stage, settings, topics),
                        StageApps.properties(stage, settings, name(stage), clients.bootstrapServers(), stageState),
                        stageTimeout),
                i -> BenchInstance.arguments(stage, settings, name(stage) + "-", name(stage),
                        clients.bootstrapServers(), stageState.resolve("instance-" + i)),
                stageTimeout);
    }

    @Override
    public void close() {
        clients.close();
    }
}
