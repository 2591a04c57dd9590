package io.gdastreams.service;

import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.StreamObserver;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * Runs one topology as a long-lived service until Ctrl-C (SIGINT/SIGTERM): creates missing topics when
 * {@code gda.create.topics} is true, checks the principal's ACLs on the role's topics and group
 * ({@link AccessCheck}), starts Kafka Streams, and closes it cleanly from a shutdown hook. When a stream
 * thread fails, the client stops and a new one is started (backing off 1 s … 30 s after consecutive failures): a
 * transient error (a group coordinator still loading after a broker restart) must not end the service, and a new
 * client, unlike Kafka Streams' thread replacement, reopens every store from its checkpoint or changelog. An
 * authorisation error is not retried: the command ends with a message naming the resource and the operation.
 */
public final class ServiceRunner {

    /**
     * How often a trainer whose state came back behind its published lineage rebuilds it from the changelog topics
     * (a clean restart: local state deleted, every store restored) before it gives up. Kafka Streams 4.3.1 was seen
     * to revive tasks with empty stores after repeated long broker outages (docs/RELIABILITY.md); a full restore
     * from the changelog is the recovery, and the lineage check judges it again. Once: a second full restore reads
     * the same changelog and finds the same.
     */
    static final int MAX_STATE_REBUILDS = 1;
    /** Running this long after a restart counts as recovered. */
    private static final Duration RECOVERED_AFTER = Duration.ofMinutes(2);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    /**
     * How long a restart waits for the closed client to let go of the state directory: its clients close within
     * 30 s by default (the consumer's close timeout), so one that still holds it a minute later is stuck.
     */
    private static final Duration STATE_DIRECTORY_GRACE = Duration.ofSeconds(60);
    private static final Duration STATE_DIRECTORY_RETRY = Duration.ofSeconds(1);
    private static final Duration STOPPED_POLL = Duration.ofMillis(100);

    /** 1 s, 2 s, 4 s, … up to 30 s between restarts after consecutive failures. */
    static Duration backoff(int failures) {
        long seconds = 1L << Math.min(Math.max(failures - 1, 0), 5);
        return Duration.ofSeconds(Math.min(seconds, MAX_BACKOFF.toSeconds()));
    }

    private ServiceRunner() {
    }

    /**
     * Runs {@code role}'s topology until it is stopped and returns the exit code; {@code onStart} is given each Kafka
     * Streams client just before it starts (the first, and each one started after a failure), so that what reports on
     * the service (health, metrics) follows the client that runs; {@code observer} hears of the dead letters the
     * service writes itself (input deleted before it was read, {@link DeletedInputReport}).
     */
    public static int run(Role role, Supplier<Topology> topology, AppConfig config, PrintWriter out,
                          Consumer<StreamsApp> onStart, StreamObserver observer) {
        String bootstrap = config.bootstrapServers();
        StartupWarnings.emit(config, role.toString(), out);
        ClusterProbe.awaitReachable(bootstrap, config.clientProperties(), config.brokerTimeout());
        var checkProperties = config.clientProperties();
        checkProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // Before a topic is created: a protocol the cluster does not offer ends the command here.
        UnsupportedByCluster.atStart(role, config.streamsProperties(role), checkProperties, config.brokerTimeout())
                .ifPresent(refusal -> {
                    throw new RunFailure(refusal);
                });
        if (config.createTopics()) {
            var adminProperties = config.kafkaProperties();
            adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            ConfiguredTopics.createMissing(config, adminProperties);
            if (role == Role.TRAINING) {
                ConfiguredTopics.createTrainingInternalMissing(config.streamsProperties(role), adminProperties);
            }
        }
        List<RoleAccess> accesses = RoleAccess.of(role, config);
        Admin admin = Admin.create(checkProperties);
        try {
            AccessCheck.verify(role, admin, accesses, config.brokerTimeout());
        } finally {
            // Not close(): it would wait for a request that went unanswered (the check then says nothing).
            admin.close(Duration.ZERO);
        }
        var properties = config.streamsProperties(role);
        ServiceWatch watch = new ServiceWatch(role, config, properties, checkProperties, bootstrap);
        watch.atStart(out);
        // Input the broker deleted before it was read is dead-lettered when Kafka Streams skips it.
        KafkaClientSupplier clients = new ReportingClientSupplier(new DeletedInputReport(role,
                config.topics(), checkProperties, config.brokerTimeout(), out, observer));
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicReference<StreamsApp> app;
        try {
            app = new AtomicReference<>(new StreamsApp(role.toString(), topology.get(), properties, clients));
        } catch (StreamsException e) {
            // A state.dir that cannot be made or locked, say: what is wrong is in the message, not in a stack trace.
            throw new RunFailure(role + ": Kafka Streams cannot start: " + StreamsApp.rootMessage(e), e);
        }
        Thread hook = new Thread(() -> {
            interrupted.set(true);
            out.println(role + ": stopping");
            out.flush();
            synchronized (app) {
                app.get().close();
            }
            stopped.countDown();
        }, role + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        watch.follow(app.get());
        onStart.accept(app.get());
        start(role, app.get());
        out.printf("%s: running as application %s against %s (model '%s'); Ctrl-C stops%n", role,
                StreamsApp.applicationId(properties), bootstrap, config.modelId());
        out.flush();
        int rebuilds = 0;
        int failures = 0;
        boolean unsupportedBefore = false;
        List<StalledRestore> lastJudged = List.of();
        long runningSince = 0;
        try {
            while (!stopped.await(1, TimeUnit.SECONDS)) {
                if (interrupted.get()) {
                    break; // the shutdown hook is closing the client: its NOT_RUNNING is no failure
                }
                KafkaStreams.State state = app.get().state();
                // A restore judged not reading is restarted one check later, and only if it still stands where it
                // was judged: one that was about to move when the broker was asked is left alone.
                boolean notReading = app.get().stillNotReading(lastJudged);
                ServiceWatch.Look look = watch.look(app.get(), state);
                lastJudged = look.judged();
                if (look.endBecause().isPresent()) {
                    throw ending(hook, app.get(), look.endBecause().get(), null);
                }
                if (state == KafkaStreams.State.RUNNING) {
                    // Running this long after a restart counts as recovered: the next failure starts afresh.
                    runningSince = runningSince == 0 ? System.nanoTime() : runningSince;
                    if (System.nanoTime() - runningSince > RECOVERED_AFTER.toNanos()) {
                        rebuilds = 0;
                        failures = 0;
                        unsupportedBefore = false;
                    }
                } else {
                    runningSince = 0;
                }
                if (!notReading && state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING) {
                    continue;
                }
                Throwable cause = app.get().failure();
                AuthorizationException denied = StreamsApp.causeOfType(cause, AuthorizationException.class);
                if (denied != null) {
                    // An ACL does not appear by itself: starting again would only repeat the refusal.
                    throw ending(hook, app.get(), AccessCheck.refusal(role, StreamsApp.applicationId(properties),
                            accesses, denied), cause);
                }
                boolean unsupported = UnsupportedByCluster.matches(cause);
                if (unsupported && unsupportedBefore) {
                    throw ending(hook, app.get(), UnsupportedByCluster.refusal(role, cause), cause);
                }
                unsupportedBefore = unsupported;
                Optional<String> permanent = notReading ? Optional.empty() : watch.permanent(cause);
                if (permanent.isPresent()) {
                    // A topic gone or repartitioned does not come back by itself: starting again would only repeat it.
                    throw ending(hook, app.get(), permanent.get(), cause);
                }
                boolean lostState = StreamsApp.lostTrainingState(cause);
                if (lostState && (rebuilds >= MAX_STATE_REBUILDS
                        || StreamsApp.stateConflictsWithConfiguration(cause))) {
                    throw ending(hook, app.get(), role + " stopped (" + state + ")"
                            + (cause == null ? "" : ": " + StreamsApp.rootMessage(cause)), cause);
                }
                failures++;
                Duration backoff = backoff(failures);
                if (lostState) {
                    rebuilds++;
                    out.printf("%s: the local training state contradicts itself, the committed input offsets or"
                            + " what this application published; rebuilding it from the changelog topics"
                            + " (attempt %d of %d)%n", role, rebuilds,
                            MAX_STATE_REBUILDS);
                } else if (notReading && cause == null) {
                    out.printf("%s: a changelog restore has not moved for %s although nothing holds it; starting"
                            + " Kafka Streams again in %d s%n", role,
                            StalledRestore.span(config.restorePatience()), backoff.toSeconds());
                } else {
                    out.printf("%s: Kafka Streams stopped on an error (%s); starting it again in %d s (failure %d in a"
                            + " row)%n", role, cause == null ? state : StreamsApp.rootMessage(cause),
                            backoff.toSeconds(), failures);
                    // Out of heap on what it read: the next client reads fewer records at a time.
                    HeapBackoff.lower(cause, properties, config.partitions()).ifPresent(lower -> out.printf("%s: the"
                            + " client ran out of heap; the next one reads %s, until this process ends (README,"
                            + " \"Records that decompress beyond their batch\")%n", role, lower));
                }
                out.flush();
                if (stopped.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
                    break;
                }
                synchronized (app) {
                    if (interrupted.get()) {
                        break;
                    }
                    StreamsApp old = app.get();
                    old.close();
                    StreamsApp next;
                    try {
                        next = newClient(role, topology.get(), properties, clients, old, lostState, cause, interrupted);
                    } catch (RunFailure stuck) {
                        // Closing the stuck client again on the way out would only wait another close timeout.
                        unhook(hook);
                        throw stuck;
                    }
                    if (next == null) {
                        break;
                    }
                    app.set(next);
                    lastJudged = List.of();
                    watch.follow(app.get());
                    onStart.accept(app.get());
                    start(role, app.get());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return interrupted.get() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Ends the run on a failure: the hook taken back, {@code app} closed; the failure to throw. */
    private static RunFailure ending(Thread hook, StreamsApp app, String message, Throwable cause) {
        unhook(hook);
        app.close();
        return new RunFailure(message, cause);
    }

    /**
     * Takes the shutdown hook back before a failure ends the run (it would close the client again). Once a shutdown
     * has begun the JDK refuses (IllegalStateException); the hook is then running and closes the client itself.
     */
    private static void unhook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shutdownInProgress) {
            // nothing to take back
        }
    }

    /**
     * Starts {@code app}. Kafka Streams opens the stores of the task directories it finds while it starts: one it
     * cannot open (a full disk, a store path that is not a directory) ends the command with the reason, in one line.
     */
    private static void start(Role role, StreamsApp app) {
        try {
            app.start();
        } catch (StreamsException e) {
            throw new RunFailure(role + ": Kafka Streams cannot start: " + StreamsApp.rootMessage(e), e);
        }
    }

    /**
     * A new client once {@code old} has let go of the state directory, after deleting its local state when
     * {@code rebuild} (which Kafka Streams refuses while that client is still stopping). Kafka Streams lets go of the
     * directory just before its client reaches NOT_RUNNING or ERROR, so the wait watches for that, quietly: each
     * refused attempt to open a held directory logs an ERROR of its own. A client whose thread is stuck in a call that
     * does not return never gets there (Kafka Streams refuses a second client on a held directory: "Unable to
     * initialize state, this can happen if multiple instances of Kafka Streams are running in the same state
     * directory"), and only a new process frees it: after {@link #STATE_DIRECTORY_GRACE} the command exits saying so.
     * Null when the service is being stopped meanwhile.
     */
    private static StreamsApp newClient(Role role, Topology topology, Properties properties,
                                        KafkaClientSupplier clients, StreamsApp old, boolean rebuild,
                                        Throwable restarted, AtomicBoolean stopping)
            throws InterruptedException {
        long deadline = System.nanoTime() + STATE_DIRECTORY_GRACE.toNanos();
        while (!stopping.get() && !old.stopped() && System.nanoTime() < deadline) {
            Thread.sleep(STOPPED_POLL.toMillis());
        }
        while (!stopping.get()) {
            try {
                if (rebuild) {
                    old.cleanUp();
                }
                return new StreamsApp(role.toString(), topology, properties, clients);
            } catch (StreamsException | IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    RunFailure stuck = new RunFailure(role + ": Kafka Streams cannot start again: the previous client"
                            + " still holds the state directory " + STATE_DIRECTORY_GRACE.toSeconds() + " s after it"
                            + " was closed (" + StreamsApp.rootMessage(e) + "); one of its threads is stuck in a call"
                            + " that does not return, which only a new process frees: exiting so that it starts"
                            + " afresh (under a supervisor that restarts it; docs/RELIABILITY.md, 'A restore that does"
                            + " not finish')", e);
                    if (restarted != null) {
                        stuck.addSuppressed(restarted);
                    }
                    throw stuck;
                }
                Thread.sleep(STATE_DIRECTORY_RETRY.toMillis());
            }
        }
        return null;
    }
}
