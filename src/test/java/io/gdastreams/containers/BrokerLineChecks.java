package io.gdastreams.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.cli.Main;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.it.Await;
import io.gdastreams.it.IrisEndToEndScenario;
import io.gdastreams.it.IrisGolden;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.TopicProvisioner;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingFixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gda-streams on a broker line other than its own clients' (clusters are often older than the clients): each subclass
 * names one ({@link OlderBrokerContainerIT}, {@link PreviousBrokerContainerIT}). The topologies answer Iris at the
 * golden posteriors with exactly-once; the product's {@code train} and {@code score} create their topics with every
 * setting of the plan the broker knows (a broker that does not know {@code max.decompressed.message.bytes} gets them
 * without it, named in one log line, and a start that says the topics it reads are unbounded), answer Iris at the
 * golden posteriors too, and {@code reset} hands the trainer's model over; {@code group.protocol=streams} trains where
 * the broker offers Kafka Streams' own group protocol and ends the service where it does not. What the broker knows
 * and offers is asked of the broker itself, so the checks run against any broker line (README, "Which brokers";
 * by hand with {@code -Dkafka.older-broker.version=V} and {@code TEST_KAFKA_OLDER_IMAGE}). Needs Docker
 * ({@link ContainerTest}).
 */
@ContainerTest
abstract class BrokerLineChecks {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String BOUND = TopicConfig.MAX_DECOMPRESSED_MESSAGE_BYTES_CONFIG;
    private static final int PARTITIONS = IrisEndToEndScenario.PARTITIONS;

    /** The subclass's broker, a {@code @Container} it owns (one per line, started once for its tests). */
    abstract HostNetworkKafkaContainer kafka();

    @TempDir
    Path dir;

    @Test
    void theTopologiesAnswerIrisAtTheGoldenPosteriors() {
        try (ContainerBroker broker = new ContainerBroker(kafka())) {
            IrisEndToEndScenario.run(broker, dir);
        }
    }

    @Test
    void trainAndScoreCreateTheirTopicsAsTheBrokerAllowsAndAnswerIrisAtTheGoldenPosteriors() throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> config = irisConfig(topics, "older");
        // No interval's progress line within the test: the one that names the model comes when the client runs.
        config.put("gda.progress.interval.ms", Long.toString(Duration.ofMinutes(10).toMillis()));
        IrisGolden golden = IrisGolden.fullMle();
        try (ContainerBroker broker = new ContainerBroker(kafka());
             ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             ProductProcess score = new ProductProcess(Command.SCORE, config, dir, "score");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            train.start();
            train.awaitRunning(TIMEOUT);

            List<NewTopic> plan = TopicProvisioner.plan(topics, PARTITIONS, (short) 1);
            Map<String, Config> created = describe(broker, plan);
            boolean bounded = knowsTheBound(broker);
            for (NewTopic planned : plan) {
                Config actual = created.get(planned.name());
                Map<String, String> settings = planned.configs() == null ? Map.of() : planned.configs();
                for (Map.Entry<String, String> setting : settings.entrySet()) {
                    ConfigEntry entry = actual.get(setting.getKey());
                    if (setting.getKey().equals(BOUND) && !bounded) {
                        assertNull(entry, "a broker that does not know the key: " + actual);
                    } else {
                        assertNotNull(entry, planned.name() + " " + setting.getKey());
                        assertEquals(setting.getValue(), entry.value(), planned.name() + " " + setting.getKey());
                    }
                }
                if (!bounded) {
                    assertEquals(settings.containsKey(BOUND), created(train.log()).contains(planned.name()),
                            planned.name() + "\n" + train.log());
                }
            }
            assertEquals(!bounded, train.log().contains("the cluster does not know " + BOUND), train.log());

            // In two halves, each absorbed before the next: the model topic holds more than one version.
            List<IrisGolden.Row> rows = golden.rows();
            List<ConsumerRecord<String, ModelParameters>> models = List.of();
            for (List<IrisGolden.Row> half : List.of(rows.subList(0, rows.size() / 2),
                    rows.subList(rows.size() / 2, rows.size()))) {
                for (IrisGolden.Row row : half) {
                    producer.send(new ProducerRecord<>(topics.labelled().name(), row.index() % PARTITIONS,
                            bytes(IrisEndToEndScenario.key(row)), golden.labelledJson(row))).get();
                }
                models = broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), TIMEOUT,
                        train::assertAlive);
            }
            ModelParameters model = models.get(models.size() - 1).value();
            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), model);
            long first = models.get(0).value().version();
            assertTrue(first < model.version(), "versions " + first + " to " + model.version());

            // Started after the last model: its global store holds that model before the scorer runs.
            score.start();
            score.awaitRunning(TIMEOUT);
            // Its restore of the model topic puts every version in force in turn: the log names only the last (once
            // the restore is over), and so does the progress line once it runs.
            Await.until("the scorer names the model in force", TIMEOUT, () -> score.log().contains("held; 0 dead"
                    + " letters; model 'iris' version " + model.version() + ", published"), score::log);
            assertTrue(score.log().contains("Model 'iris' version " + model.version() + " in force (from "
                    + topics.model().name() + "-0 offset "), score.log());
            assertTrue(score.log().contains(", the last of " + models.size() + " versions put in force while reading"
                    + " the model topic at start"), score.log());
            assertFalse(score.log().contains("Model 'iris' version " + first + " in force"), score.log());
            // The start's warning names the topics it reads without the bound, with the command that sets it.
            assertEquals(!bounded, score.log().contains("--entity-name " + topics.unlabelled().name()), score.log());
            for (IrisGolden.Row row : golden.rows()) {
                producer.send(new ProducerRecord<>(topics.unlabelled().name(), row.index() % PARTITIONS,
                        bytes(IrisEndToEndScenario.key(row)), golden.unlabelledJson(row, null))).get();
            }
            List<ConsumerRecord<String, Prediction>> predictions = broker.readUntil(topics.predictions().name(),
                    SerdeFactory.string().deserializer(), topics.predictions().valueDeserializer(), records -> {
                        score.assertAlive();
                        return records.size() >= golden.rows().size();
                    }, TIMEOUT);
            Map<String, Prediction> byKey = new HashMap<>();
            predictions.forEach(p -> assertNull(byKey.put(p.key(), p.value()), "a second answer to " + p.key()));
            for (IrisGolden.Row row : golden.rows()) {
                IrisEndToEndScenario.assertGolden(row, byKey.get(IrisEndToEndScenario.key(row)), "iris",
                        model.version());
            }
            score.sigterm();

            // reset's admin calls (offsets, internal topics, the hand-over) on this broker too.
            train.sigterm();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new String[] {"reset", "--config", train.configFile().toString(), "--role",
                "training", "--execute"}, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
            assertEquals(ExitCodes.OK, code, out + "\n" + err);
            List<ConsumerRecord<String, ModelParameters>> handedOver = broker.readAll(topics.model(), TIMEOUT);
            ModelParameters released = handedOver.get(handedOver.size() - 1).value();
            assertEquals(model.version() + 1, released.version(), out.toString());
            assertEquals(model.totalCount(), released.totalCount());
            assertEquals(model.sources(), released.sources());
        }
    }

    /**
     * Kafka Streams' own group protocol: where the broker offers it, the trainer runs with it and publishes the golden
     * Iris model; where it does not, the command ends at start with one line naming the key (it used to start the
     * client again every few seconds for as long as it ran; then, before this check, after a second client).
     */
    @Test
    void theStreamsGroupProtocolTrainsWhereTheBrokerOffersItAndElseEndsTheService() throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> config = irisConfig(topics, "older-streams");
        config.put("group.protocol", "streams");
        try (ContainerBroker broker = new ContainerBroker(kafka());
             ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            boolean offered = offersStreamsGroups(broker);
            train.start();
            if (!offered) {
                // Ends before it creates a topic or starts a client, in one line.
                assertEquals(ExitCodes.FAILURE, train.awaitOwnExit(TIMEOUT), train.log());
                assertTrue(train.log().contains("training: the Kafka cluster does not offer Kafka Streams' own group"
                        + " protocol (its brokers have not enabled the feature streams.version)"), train.log());
                assertTrue(train.log().contains("group.protocol=streams needs brokers that offer Kafka Streams' own"
                        + " group protocol (Kafka 4.2 and later do): remove the key to use the classic protocol"),
                        train.log());
                assertFalse(train.log().contains("\tat "), "no stack trace:\n" + train.log());
                assertFalse(broker.admin().listTopics().names().get(30, TimeUnit.SECONDS)
                        .contains(topics.labelled().name()), "no topic created");
                return;
            }
            train.awaitRunning(TIMEOUT);
            IrisGolden golden = IrisGolden.fullMle();
            for (IrisGolden.Row row : golden.rows()) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), row.index() % PARTITIONS,
                        bytes(IrisEndToEndScenario.key(row)), golden.labelledJson(row))).get();
            }
            List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, train::assertAlive);
            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), models.get(models.size() - 1).value());
            assertFalse(train.log().contains("does not support"), train.log());
        }
    }

    /**
     * Whether the broker knows {@code max.decompressed.message.bytes}: it lists every topic config it knows, with its
     * default, for a topic created without any.
     */
    private static boolean knowsTheBound(ContainerBroker broker) throws Exception {
        String probe = UniqueNames.of("probe");
        broker.createTopics(Map.of(probe, 1));
        return describe(broker, List.of(new NewTopic(probe, 1, (short) 1))).get(probe).get(BOUND) != null;
    }

    /** Whether the broker offers Kafka Streams' own group protocol: its feature {@code streams.version} is on. */
    private static boolean offersStreamsGroups(ContainerBroker broker) throws Exception {
        FinalizedVersionRange streams = broker.admin().describeFeatures().featureMetadata()
                .get(30, TimeUnit.SECONDS).finalizedFeatures().get("streams.version");
        return streams != null && streams.maxVersionLevel() >= 1;
    }

    private static Map<String, Config> describe(ContainerBroker broker, List<NewTopic> plan) throws Exception {
        List<ConfigResource> resources = plan.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t.name())).toList();
        Map<String, Config> byName = new HashMap<>();
        broker.admin().describeConfigs(resources).all().get(30, TimeUnit.SECONDS)
                .forEach((resource, config) -> byName.put(resource.name(), config));
        return byName;
    }

    /** The topics the service's log says it created without the bound. */
    private static List<String> created(String log) {
        Matcher line = Pattern.compile("the cluster does not know " + BOUND + " \\([^)]*\\): created (.+) without a"
                + " bound on a record's decompressed size").matcher(log);
        assertTrue(line.find(), log);
        return List.of(line.group(1).split(", "));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A product process's test configuration on this broker for Iris, its features given, names unique. */
    private Map<String, String> irisConfig(Topics topics, String applicationName) {
        Map<String, String> config = ProductProcess.testConfig(kafka().getBootstrapServers(), topics, "iris",
                UniqueNames.of(applicationName), dir.resolve("state"), PARTITIONS);
        config.put("gda.features", String.join(",", Iris.FEATURES));
        return config;
    }
}
