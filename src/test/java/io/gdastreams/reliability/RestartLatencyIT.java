package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.TopicProvisioner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How long a clean restart of {@code train} and {@code score} stalls: the product's own command in a JVM of its
 * own, events flowing, SIGTERM, start again, and the time from the restart until an event produced after it has
 * had its effect (for the trainer: a published model whose lineage covers the event; for the scorer: the event's
 * prediction). The budget covers a new JVM, Kafka Streams start-up, the group rebalance and the first publish.
 *
 * <p>The shared test broker sets {@code group.initial.rebalance.delay.ms=0}. A production broker (3 s by default)
 * adds that delay when the restarted instance was the group's only member: it rejoins an empty group, and the
 * coordinator waits that long before the first assignment (docs/CLI.md, "Restart and shutdown").
 */
@ExtendWith(KafkaBrokerExtension.class)
class RestartLatencyIT {

    /** What an operator may expect from a clean restart, new JVM included (the requirement). */
    private static final Duration RESTART_BUDGET = Duration.ofSeconds(10);
    /**
     * The session timeout of the crash tests: what a crashed dynamic member's partitions wait for (the broker's
     * group.min.session.timeout.ms is 6 s; Kafka's default of 45 s would only make the test slower).
     */
    private static final Duration CRASH_SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** Restarts measured per service. */
    private static final int RESTARTS = 2;
    /**
     * How long to wait for progress before giving up: far beyond the budget, so that a slow restart is measured
     * (and reported) rather than cut short; before leaving the group on close, restarts took 30-75 s.
     */
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(150);
    private static final Duration FIRST_START_TIMEOUT = Duration.ofSeconds(120);
    /** A steady trickle, not a load test: one event every 25 ms. */
    private static final int EVENTS_PER_SECOND = 40;
    private static final int PARTITIONS = 4;
    private static final String MODEL_ID = "restart";

    @TempDir
    Path dir;

    /** Topic names of one test, created on the broker (the model topic compacted, as the product creates it). */
    private record Names(String app, String labelled, String unlabelled, String model, String predictions,
                         String deadLetters) {

        static Names create(KafkaBroker broker, String prefix) {
            Names names = new Names(KafkaBroker.uniqueName(prefix), KafkaBroker.uniqueName("labelled"),
                    KafkaBroker.uniqueName("unlabelled"), KafkaBroker.uniqueName("model"),
                    KafkaBroker.uniqueName("predictions"), KafkaBroker.uniqueName("dead-letters"));
            List<NewTopic> topics = List.of(new NewTopic(names.labelled, PARTITIONS, (short) 1),
                    new NewTopic(names.unlabelled, PARTITIONS, (short) 1),
                    new NewTopic(names.model, 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(names.predictions, PARTITIONS, (short) 1),
                    new NewTopic(names.deadLetters, PARTITIONS, (short) 1));
            try {
                broker.admin().createTopics(topics).all().get();
            } catch (Exception e) {
                throw new IllegalStateException("cannot create topics", e);
            }
            TopicProvisioner.awaitServed(broker.admin(),
                    topics.stream().map(NewTopic::name).toList());
            return names;
        }
    }

    /**
     * The configuration both commands read: names, the broker and the state directory, plus {@code extra} (e.g. a
     * static membership id); everything else is the product's default, cadence included (unlike
     * {@link ProductProcess#testConfig}): the restart measured is the one an operator gets.
     */
    private Map<String, String> config(KafkaBroker broker, Names names, Map<String, String> extra) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("bootstrap.servers", broker.bootstrapServers());
        settings.put("gda.application.id", names.app());
        settings.put("gda.model.id", MODEL_ID);
        settings.put("gda.http.port", "0"); // as operated: the HTTP endpoint must not slow a clean restart
        settings.put("gda.features", String.join(",", Iris.FEATURES));
        settings.put("gda.topic.labelled", names.labelled());
        settings.put("gda.topic.unlabelled", names.unlabelled());
        settings.put("gda.topic.model", names.model());
        settings.put("gda.topic.predictions", names.predictions());
        settings.put("gda.topic.dead-letters", names.deadLetters());
        settings.put("state.dir", dir.resolve("state").toString());
        settings.putAll(extra);
        return settings;
    }

    /** Iris rows in order, as labelled events. */
    private static LongFunction<List<EventFlow.Event>> labelled(String topic) {
        return i -> {
            LabelledRow row = Iris.rows().get((int) (i % Iris.rows().size()));
            return List.of(new EventFlow.Event(topic, "l" + i, HostileRecords.validEvent(row.x(), row.label()),
                    "labelled"));
        };
    }

    /** Iris rows in a scrambled order, as unlabelled events with ids. */
    private static LongFunction<List<EventFlow.Event>> unlabelled(String topic) {
        return i -> {
            LabelledRow row = Iris.rows().get((int) ((i * 37) % Iris.rows().size()));
            String id = "u" + i;
            try {
                return List.of(new EventFlow.Event(topic, id, Json.mapper().writeValueAsBytes(
                        Map.of("id", id, "features", row.features(Iris.FEATURES))), "unlabelled"));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** A published model whose lineage includes {@code event}. */
    private static boolean covers(ModelParameters model, EventFlow.Sent event) {
        Long next = model.sources().get(Integer.toString(event.partition()));
        return next != null && next > event.offset();
    }

    private static String millis(List<Duration> durations) {
        return durations.stream().map(d -> d.toMillis() + " ms").collect(Collectors.joining(", ", "[", "]"));
    }

    /** How a running service is stopped before it is started again. */
    private enum Stop {
        /** SIGTERM: the clean stop (shutdown hook, leaves the group unless a static member). */
        CLEAN,
        /** SIGKILL: a crash; no hook runs, the member stays in the group until its session times out. */
        CRASH;

        ProductProcess.Exit apply(ProductProcess process) {
            return this == CLEAN ? process.sigterm() : process.sigkill();
        }
    }

    /**
     * Starts {@code process} with events flowing and waits for the first one's effect on {@code output}; then
     * stops it ({@code stop}) and starts it again {@code restarts} times, timing each time from the restart until
     * the effect of the first event sent after it shows. Prints the times and fails if a restart took
     * {@code budget} or more.
     */
    private static <V> void assertRestartsWithinBudget(String service, ProductProcess process, EventFlow flow,
                                                       TopicWatch<V> output, String effect,
                                                       BiPredicate<V, EventFlow.Sent> isEffectOf, Stop stop,
                                                       int restarts, Duration budget)
            throws InterruptedException {
        flow.start();
        long started = System.nanoTime();
        process.start();
        EventFlow.Sent first = flow.firstSentAtOrAfter(started, FIRST_START_TIMEOUT);
        output.awaitFirst(effect + " " + first, started, v -> isEffectOf.test(v, first), FIRST_START_TIMEOUT,
                process::assertAlive);
        List<Duration> stops = new ArrayList<>();
        List<Duration> times = new ArrayList<>();
        for (int r = 0; r < restarts; r++) {
            stops.add(stop.apply(process).afterSignal());
            long restart = System.nanoTime();
            process.start();
            EventFlow.Sent next = flow.firstSentAtOrAfter(restart, PROGRESS_TIMEOUT);
            TopicWatch.Seen<V> seen = output.awaitFirst(effect + " " + next, restart, v -> isEffectOf.test(v, next),
                    PROGRESS_TIMEOUT, process::assertAlive);
            times.add(Duration.ofNanos(seen.seenAtNanos() - restart));
        }
        System.out.printf("RestartLatencyIT %s: %s to exit %s; restart to progress %s (budget %d ms)%n",
                service, stop == Stop.CLEAN ? "SIGTERM" : "SIGKILL", millis(stops), millis(times), budget.toMillis());
        for (Duration time : times) {
            assertTrue(time.compareTo(budget) < 0, () -> service + " restarts took " + millis(times)
                    + ", budget " + budget.toMillis() + " ms\n" + process.tails(60));
        }
    }

    @Test
    void shouldPublishAModelWithAnEventProducedAfterARestartWithinTheBudget(KafkaBroker broker) throws Exception {
        Names names = Names.create(broker, "restart-train");
        try (TopicWatch<ModelParameters> models = new TopicWatch<>(broker, names.model(),
                SerdeFactory.model().deserializer());
             EventFlow flow = new EventFlow(broker, EVENTS_PER_SECOND, labelled(names.labelled()));
             ProductProcess trainer = new ProductProcess(Command.TRAIN, config(broker, names, Map.of()), dir,
                     "train")) {
            assertRestartsWithinBudget("train", trainer, flow, models, "a model covering", RestartLatencyIT::covers,
                    Stop.CLEAN, RESTARTS, RESTART_BUDGET);
        }
    }

    /**
     * As a dynamic member (the default: leaves the group on SIGTERM) and as a static one ({@code group.instance.id}
     * set: stays in the group, and the restart takes its partitions back without a rebalance).
     */
    @ParameterizedTest(name = "static membership: {0}")
    @ValueSource(booleans = {false, true})
    void shouldScoreAnEventProducedAfterARestartWithinTheBudget(boolean staticMember, KafkaBroker broker)
            throws Exception {
        Names names = Names.create(broker, "restart-score");
        Map<String, String> config = config(broker, names,
                staticMember ? Map.of("group.instance.id", names.app() + "-scorer-1") : Map.of());
        String service = staticMember ? "score (static member)" : "score";
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            producer.send(new ProducerRecord<>(names.model(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    SerdeFactory.model().serializer().serialize(names.model(),
                            Iris.model(MODEL_ID, 1, Iris.rows())))).get();
        }
        try (TopicWatch<Prediction> predictions = new TopicWatch<>(broker, names.predictions(),
                SerdeFactory.prediction().deserializer());
             EventFlow flow = new EventFlow(broker, EVENTS_PER_SECOND, unlabelled(names.unlabelled()));
             ProductProcess scorer = new ProductProcess(Command.SCORE, config, dir, "score")) {
            assertRestartsWithinBudget(service, scorer, flow, predictions, "the prediction of",
                    (p, event) -> event.id().equals(p.id()), Stop.CLEAN, RESTARTS, RESTART_BUDGET);
        }
    }

    /**
     * After a crash (SIGKILL: no shutdown hook, no checkpoint, an open transaction, the member still in the group)
     * the restarted service makes progress within {@link #CRASH_SESSION_TIMEOUT} plus the clean-restart budget. A
     * dynamic member waits for the dead member's session to time out; a static member (the same
     * {@code group.instance.id}) takes its partitions back at once, but under exactly-once the trainer's stores
     * have no checkpoint after a crash (Kafka Streams reports the tasks corrupted, wipes them and restores them from
     * their changelogs), so the trainer is held to the same budget either way.
     */
    @ParameterizedTest(name = "{0}, static membership: {1}")
    @org.junit.jupiter.params.provider.CsvSource({"train,false", "train,true", "score,false", "score,true"})
    void shouldMakeProgressAfterACrashWithinTheSessionTimeout(String service, boolean staticMember,
                                                              KafkaBroker broker) throws Exception {
        Names names = Names.create(broker, "crash-" + service);
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("session.timeout.ms", Long.toString(CRASH_SESSION_TIMEOUT.toMillis()));
        if (staticMember) {
            extra.put("group.instance.id", names.app() + "-1");
        }
        Duration budget = CRASH_SESSION_TIMEOUT.plus(RESTART_BUDGET);
        String label = service + " after SIGKILL" + (staticMember ? " (static member)" : "");
        if (service.equals("train")) {
            try (TopicWatch<ModelParameters> models = new TopicWatch<>(broker, names.model(),
                    SerdeFactory.model().deserializer());
                 EventFlow flow = new EventFlow(broker, EVENTS_PER_SECOND, labelled(names.labelled()));
                 ProductProcess trainer = new ProductProcess(Command.TRAIN, config(broker, names, extra), dir,
                         "train")) {
                assertRestartsWithinBudget(label, trainer, flow, models, "a model covering", RestartLatencyIT::covers,
                        Stop.CRASH, 1, budget);
            }
            return;
        }
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            producer.send(new ProducerRecord<>(names.model(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    SerdeFactory.model().serializer().serialize(names.model(),
                            Iris.model(MODEL_ID, 1, Iris.rows())))).get();
        }
        try (TopicWatch<Prediction> predictions = new TopicWatch<>(broker, names.predictions(),
                SerdeFactory.prediction().deserializer());
             EventFlow flow = new EventFlow(broker, EVENTS_PER_SECOND, unlabelled(names.unlabelled()));
             ProductProcess scorer = new ProductProcess(Command.SCORE, config(broker, names, extra), dir, "score")) {
            assertRestartsWithinBudget(label, scorer, flow, predictions, "the prediction of",
                    (p, event) -> event.id().equals(p.id()), Stop.CRASH, 1, budget);
        }
    }
}
