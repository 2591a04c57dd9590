package io.gdastreams.service;

import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.settings.AppConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a service watches beside Kafka Streams' own state, through the broker: its configured topics (at start and
 * while it runs), its changelog restores that stand still (with the hanging transactions a trainer may abort), and
 * the partitions it reads that an open transaction holds. {@link ServiceRunner} asks it once a second and acts on
 * what it says (docs/RELIABILITY.md).
 */
final class ServiceWatch {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceWatch.class);

    private final Role role;
    private final AppConfig config;
    private final Properties client;
    private final String bootstrap;
    private final ChangelogOnBroker.Source onBroker;
    private final StalledRestore.Aborter aborter;
    /** Null under at_least_once, which reads read_uncommitted and is not held by transactions. */
    private final HeldInputs heldInputs;
    private final NeededTopics needed;
    private final NeededTopics.ExistingTopics existing;

    /**
     * The watch of {@code role} run with {@code streams} (its Kafka Streams settings) on the cluster at
     * {@code bootstrap}, asked through clients of {@code client}'s settings.
     */
    ServiceWatch(Role role, AppConfig config, Properties streams, Properties client, String bootstrap) {
        this.role = role;
        this.config = config;
        this.client = client;
        this.bootstrap = bootstrap;
        // A restore reads read_committed under exactly-once (the default), read_uncommitted under at_least_once.
        IsolationLevel restoreReads = "at_least_once".equals(
                streams.getProperty(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, "").trim())
                ? IsolationLevel.READ_UNCOMMITTED : IsolationLevel.READ_COMMITTED;
        // A trainer's hanging transaction is read for the training input behind it (HangingInput).
        Optional<HangingInput.Training> training = role == Role.TRAINING
                ? Optional.of(new HangingInput.Training(StreamsApp.applicationId(streams),
                        config.topics().labelled().name()))
                : Optional.empty();
        Duration timeout = config.brokerTimeout();
        this.onBroker = (partition, position) -> {
            Admin asking = Admin.create(client);
            try (var reader = new KafkaConsumer<>(reading(client, restoreReads),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
                 var uncommitted = new KafkaConsumer<>(reading(client, IsolationLevel.READ_UNCOMMITTED),
                         new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                return ChangelogOnBroker.ask(asking, reader, uncommitted, restoreReads, partition, position, timeout,
                        training);
            } finally {
                // Not close(): it would wait for a request that went unanswered.
                asking.close(Duration.ZERO);
            }
        };
        this.aborter = (partition, open) -> {
            Admin aborting = Admin.create(client);
            try {
                aborting.abortTransaction(new AbortTransactionSpec(partition, open.producerId(),
                        (short) open.producerEpoch(), open.coordinatorEpoch().orElse(0)))
                        .all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                aborting.close(Duration.ZERO);
            }
        };
        // Under exactly-once the service reads read_committed: a transaction left open on what it reads holds it.
        this.heldInputs = restoreReads == IsolationLevel.READ_COMMITTED
                ? new HeldInputs(role.toString(), config.restorePatience(), System::nanoTime) : null;
        this.needed = NeededTopics.of(role, config, System::nanoTime);
        this.existing = NeededTopics.ExistingTopics.of(client, timeout);
    }

    /** {@code client} for a reader with {@code isolation} that joins no group and commits nothing. */
    private static Properties reading(Properties client, IsolationLevel isolation) {
        Properties reader = new Properties();
        reader.putAll(client);
        reader.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString());
        reader.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return reader;
    }

    /**
     * Before Kafka Streams starts: throws {@link RunFailure} when a configured topic is missing; warns (log and
     * {@code out}) about a model topic that deletes models and about topics it reads without a bound on a record's
     * decompressed size, and notes the topics whose settings it may not see.
     */
    void atStart(PrintWriter out) {
        needed.atStart(existing).ifPresent(missing -> {
            throw new RunFailure(missing);
        });
        String model = config.topics().model().name();
        Map<String, Integer> bounds = DecompressedSizeBound.wanted(RoleAccess.inputTopic(role, config.topics()), model);
        TopicConfigs.describe(client, bounds.keySet(), config.brokerTimeout()).ifPresent(described -> {
            ModelTopicSettings.check(model, described.configs().get(model)).ifPresent(warning -> warn(out, warning));
            DecompressedSizeBound.check(described.configs(), bounds).ifPresent(warning -> warn(out, warning));
            described.refusalNote().ifPresent(note -> say(out, "note", note));
        });
    }

    private void warn(PrintWriter out, String warning) {
        say(out, "WARNING", warning);
    }

    /** One line on {@code out} and in the log (at WARN for a warning, else INFO): {@code <role>: <kind>: <text>}. */
    private void say(PrintWriter out, String kind, String text) {
        if (kind.equals("WARNING")) {
            LOG.warn("{}: {}", role, text);
        } else {
            LOG.info("{}: {}", role, text);
        }
        out.println(role + ": " + kind + ": " + text);
        out.flush();
    }

    /** Follows a newly started client: its held inputs are this watch's. */
    void follow(StreamsApp app) {
        app.watchInputs(heldInputs);
    }

    /**
     * One look, once a second, at {@code app} in {@code state}: reports its stalled restores (aborting a hanging
     * transaction that provably loses nothing) and the inputs held, and returns the stalled restores judged now and
     * the reason to end the service, if a configured topic is gone.
     */
    Look look(StreamsApp app, KafkaStreams.State state) throws InterruptedException {
        boolean up = state == KafkaStreams.State.REBALANCING || state == KafkaStreams.State.RUNNING;
        List<StalledRestore> judged = up ? app.reportStalledRestores(config.restorePatience(), onBroker, bootstrap,
                config.brokerTimeout(), config.abortHangingTransactions(), aborter) : List.of();
        Optional<String> gone = up ? needed.watch(existing) : Optional.empty();
        if (gone.isEmpty() && state == KafkaStreams.State.RUNNING && heldInputs != null) {
            heldInputs.check(app::readPartitions, client, onBroker, bootstrap, config.brokerTimeout(),
                    report -> LOG.error("{}", report));
        }
        return new Look(judged, gone);
    }

    /** What one look found: the restores judged stalled now, and why the service must end (empty: it need not). */
    record Look(List<StalledRestore> judged, Optional<String> endBecause) {
    }

    /** Why Kafka Streams, stopped on {@code failure}, must not be started again ({@link NeededTopics#permanent}). */
    Optional<String> permanent(Throwable failure) {
        return needed.permanent(failure, existing);
    }
}
