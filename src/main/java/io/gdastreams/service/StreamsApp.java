package io.gdastreams.service;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.topology.TrainingStateException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Kafka Streams application (training or scoring). A failed stream thread stops the client with its
 * cause ({@link #failure()}): a service restarts a new client (ServiceRunner), a replay reports it.
 *
 * <p>On close it leaves the consumer group, unless it is a static member ({@code group.instance.id} configured).
 * Kafka Streams' own {@code close()} stays in the group: the coordinator then keeps the departed member's
 * partitions until its session times out ({@code session.timeout.ms}, 45 s by default), so a restarted or
 * remaining instance processed nothing for 30-75 s after a clean stop. A static member stays on purpose: restarted
 * with the same {@code group.instance.id} within the session timeout, it takes its partitions back without any
 * rebalance. See docs/CLI.md, "Restart and shutdown".
 */
public final class StreamsApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamsApp.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final long RUNNING_POLL_MS = 100;

    private final String name;
    private final KafkaStreams streams;
    private final GroupMembershipOperation onClose;
    private final Duration closeTimeout;
    private final String applicationId;
    private final Path stateDir;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final RestoreWatch restores = new RestoreWatch(System::nanoTime);
    private final List<Runnable> whenStarted = new CopyOnWriteArrayList<>();
    private volatile HeldInputs inputs;
    /** Wall-clock time it first reached RUNNING, 0 before (the bench's clock starts there). */
    private volatile long runningAt;

    public StreamsApp(String name, Topology topology, Properties properties) {
        this(name, topology, properties, CLOSE_TIMEOUT);
    }

    public StreamsApp(String name, Topology topology, Properties properties, Duration closeTimeout) {
        this(name, topology, properties, closeTimeout, null);
    }

    /** A service's client: its clients made by {@code clients} ({@link ReportingClientSupplier}). */
    StreamsApp(String name, Topology topology, Properties properties, KafkaClientSupplier clients) {
        this(name, topology, properties, CLOSE_TIMEOUT, clients);
    }

    private StreamsApp(String name, Topology topology, Properties properties, Duration closeTimeout,
                       KafkaClientSupplier clients) {
        this.name = name;
        this.closeTimeout = closeTimeout;
        this.applicationId = applicationId(properties);
        this.stateDir = Path.of(new StreamsConfig(properties).getString(StreamsConfig.STATE_DIR_CONFIG));
        UnfinishedStoreCleaner.clean(stateDir, applicationId);
        this.onClose = membershipOnClose(properties);
        this.streams = clients == null ? new KafkaStreams(topology, properties)
                : new KafkaStreams(topology, properties, clients);
        UnfinishedStoreCleaner.inUse(stateDir, applicationId);
        // A failed stream thread stops the client; the caller decides: a service restarts the whole client
        // (ServiceRunner), a replay reports the cause. Kafka Streams' own REPLACE_THREAD is not used: after
        // repeated long broker outages a replacement thread took over its tasks with stores restored from a stale
        // offset, i.e. empty while their input offsets were committed (docs/RELIABILITY.md). The last failure is
        // kept: it is the one that stopped the client.
        streams.setUncaughtExceptionHandler(e -> {
            failure.set(e);
            TrainingStateException lostState = causeOfType(e, TrainingStateException.class);
            if (lostState != null) {
                LOG.error("{}: stopping: {}", name, lostState.getMessage());
            } else if (causeOfType(e, AuthorizationException.class) != null || UnsupportedByCluster.matches(e)) {
                // The service ends with the refusal in one line (AccessCheck.refusal, UnsupportedByCluster): no stack
                // trace before it.
                LOG.error("{}: stream thread failed: {}; stopping the client", name, rootMessage(e));
            } else {
                LOG.error("{}: stream thread failed; stopping the client", name, e);
            }
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setGlobalStateRestoreListener(restores);
        streams.setStateListener((newState, oldState) -> {
            if (newState == KafkaStreams.State.RUNNING && runningAt == 0) {
                runningAt = System.currentTimeMillis();
            }
            LOG.debug("{}: {} -> {}", name, oldState, newState);
        });
    }

    /** {@code LEAVE_GROUP}, or {@code REMAIN_IN_GROUP} for a static member (see the class comment). */
    static GroupMembershipOperation membershipOnClose(Properties properties) {
        // As Kafka Streams resolves it: group.instance.id, bare or with a consumer. / main.consumer. prefix.
        Object instanceId = new StreamsConfig(properties).getMainConsumerConfigs("probe", "probe", 0)
                .get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        return instanceId == null ? GroupMembershipOperation.LEAVE_GROUP : GroupMembershipOperation.REMAIN_IN_GROUP;
    }

    static String applicationId(Properties properties) {
        return properties.getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
    }

    /**
     * Starts the client, then runs the tasks of {@link #whenStarted}: Kafka Streams' start returns once the
     * topology's global stores are restored (and starts the stream threads in the background).
     */
    public void start() {
        streams.start();
        whenStarted.forEach(Runnable::run);
    }

    /** Runs {@code task} when {@link #start()} returns (the global stores restored); before start only. */
    public void whenStarted(Runnable task) {
        whenStarted.add(task);
    }

    /** Waits until the application first reaches RUNNING; throws {@link RunFailure} if it stops or times out. */
    public void awaitRunning(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (runningAt == 0) {
            checkHealthy();
            if (System.nanoTime() > deadline) {
                throw new RunFailure(name + ": not RUNNING after " + timeout.toSeconds() + " s");
            }
            try {
                Thread.sleep(RUNNING_POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RunFailure("interrupted while starting " + name, e);
            }
        }
    }

    /** Wall-clock milliseconds when it first reached RUNNING; 0 before. */
    public long runningAt() {
        return runningAt;
    }

    public String applicationId() {
        return applicationId;
    }

    /** Kafka Streams' state of this client now. */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * Whether this client has stopped for good: Kafka Streams sets NOT_RUNNING or ERROR after its threads have ended
     * and it has let go of the state directory.
     */
    boolean stopped() {
        KafkaStreams.State state = streams.state();
        return state == KafkaStreams.State.NOT_RUNNING || state == KafkaStreams.State.ERROR;
    }

    /** The Kafka Streams client itself, for metrics binders; the service alone starts and closes it. */
    public KafkaStreams kafkaStreams() {
        return streams;
    }

    /**
     * True when one of {@code judged} (NOT_READING verdicts of an earlier check) still stands where it stood: a
     * restore that finished or moved while the broker was asked (after an operator's abort, say) is not restarted.
     */
    boolean stillNotReading(List<StalledRestore> judged) {
        return judged.stream().anyMatch(s -> s.verdict() == StalledRestore.Verdict.NOT_READING
                && restores.standsStill(s.progress()));
    }

    /**
     * One changelog partition being restored: at {@code position} of {@code end} (offsets); {@code stalled} says
     * what holds it while it stands still past the patience (null: moving, or not judged yet).
     */
    public record Restoring(String changelog, String store, long position, long end, String stalled) {
    }

    /** The source partitions of this client's active tasks (what it reads now; no global or restore consumer's). */
    List<TopicPartition> readPartitions() {
        return streams.metadataForLocalThreads().stream().flatMap(thread -> thread.activeTasks().stream())
                .flatMap(task -> task.topicPartitions().stream()).distinct().toList();
    }

    /** A partition this client reads, held at its last stable offset by a transaction ({@link HeldInputs}). */
    public record HeldInput(String partition, long lastStable, long end, String report) {
    }

    /** Follows {@code inputs}' findings in {@link #heldInputs()} (null: none are watched, at-least-once). */
    void watchInputs(HeldInputs inputs) {
        this.inputs = inputs;
    }

    /** The partitions this service reads that a transaction holds now, as last reported. */
    public List<HeldInput> heldInputs() {
        HeldInputs watched = inputs;
        return watched == null ? List.of() : watched.held().stream().map(h -> new HeldInput(
                h.partition().toString(), h.lastStable(), h.end(), h.report())).toList();
    }

    /** The changelog restores in progress, by partition name. */
    public List<Restoring> restoring() {
        return restores.inProgress().stream()
                .map(p -> new Restoring(p.changelog().toString(), p.store(), p.position(), p.end(),
                        restores.judgement(p).map(StalledRestore::message).orElse(null)))
                .sorted(java.util.Comparator.comparing(Restoring::changelog)).toList();
    }

    /** Throws {@link RunFailure} when the application has stopped on an error. */
    public void checkHealthy() {
        KafkaStreams.State state = streams.state();
        Throwable cause = failure.get();
        if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR
                || state == KafkaStreams.State.NOT_RUNNING || state == KafkaStreams.State.PENDING_SHUTDOWN) {
            throw new RunFailure(name + " stopped (" + state + ")"
                    + (cause == null ? "" : ": " + rootMessage(cause)), cause);
        }
    }

    Throwable failure() {
        return failure.get();
    }

    String name() {
        return name;
    }

    /**
     * Logs, as an error, every changelog restore that has made no progress for {@code patience} (once per
     * {@code patience} while it lasts), judged by what {@code broker} says about its partition, and returns them;
     * the questions of one check take about {@code budget} at most (plus one question's own timeouts). A hanging
     * transaction whose abort provably loses nothing is ended through {@code aborter} when {@code abortHanging}.
     */
    List<StalledRestore> reportStalledRestores(Duration patience, ChangelogOnBroker.Source broker, String bootstrap,
                                               Duration budget, boolean abortHanging,
                                               StalledRestore.Aborter aborter) {
        try {
            List<StalledRestore> judged = StalledRestore.judgeAll(name, restores.newlyStalled(patience), patience,
                    broker, bootstrap, System::currentTimeMillis, budget, abortHanging);
            for (StalledRestore stalled : judged) {
                restores.judged(stalled);
                LOG.error("{}", stalled.message());
                Optional<StalledRestore.AbortOutcome> aborted = stalled.abort(aborter, name, bootstrap);
                if (aborted.isPresent() && aborted.get().done()) {
                    LOG.warn("{}", aborted.get().message());
                } else {
                    aborted.ifPresent(failed -> LOG.error("{}", failed.message()));
                }
            }
            return judged;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    @Override
    public void close() {
        if (!streams.close(CloseOptions.groupMembershipOperation(onClose).withTimeout(closeTimeout))) {
            LOG.warn("{} did not stop within {} s", name, closeTimeout.toSeconds());
        } else {
            UnfinishedStoreCleaner.released(stateDir, applicationId);
        }
    }

    /** True when {@code failure} is the trainer finding its state behind what it published. */
    static boolean lostTrainingState(Throwable failure) {
        return causeOfType(failure, TrainingStateException.class) != null;
    }

    /** True when {@code failure} is a training state a rebuild from the changelogs cannot make readable. */
    static boolean stateConflictsWithConfiguration(Throwable failure) {
        TrainingStateException state = causeOfType(failure, TrainingStateException.class);
        return state != null && !state.rebuildMayHelp();
    }

    /** Deletes this application's local state (after {@link #close()}): the next start restores every store. */
    void cleanUp() {
        streams.cleanUp();
    }

    static <T extends Throwable> T causeOfType(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
