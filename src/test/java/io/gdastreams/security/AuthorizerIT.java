package io.gdastreams.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.Role;
import io.gdastreams.it.IrisEndToEndScenario;
import io.gdastreams.it.IrisGolden;
import io.gdastreams.it.SaslTestCluster;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.ConfiguredTopics;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Least privilege on a broker with an authorizer: Kafka's test kit with SASL/PLAIN, its {@code StandardAuthorizer}
 * ({@code allow.everyone.if.no.acl.found=false}), the super user {@code plain-admin} and one user per role. Each
 * test grants, through {@link Admin#createAcls}, the rows of the ACL table of docs/SECURITY.md ({@link AclTable},
 * the single source) for its own topics and application id, and runs the product's {@code train} and
 * {@code score} as those users:
 * <ul>
 *   <li>with exactly the table's ACLs, Iris is trained (the model equals the two-pass reference) and scored at the
 *       numpy golden posteriors; the scorer and the events producer are refused when they write the model topic;</li>
 *   <li>with one row of the trainer's left out (WRITE on the model topic; READ on its group; WRITE on its
 *       transactional ids), {@code train} ends by itself, promptly and with exit code 1, with a message naming the
 *       operation and the resource; so does a {@code score} that would create the topics without the provisioner's
 *       rows.</li>
 * </ul>
 */
class AuthorizerIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    /** A missing ACL must end {@code train} within this (JVM start and the check included), not a retry loop. */
    private static final Duration PROMPT_EXIT = Duration.ofSeconds(30);
    private static final String TRAINER = "trainer";
    private static final String SCORER = "scorer";
    private static final String PRODUCER = "producer";
    private static final Map<String, String> PASSWORDS = Map.of(TRAINER, "trainer-secret-1",
            SCORER, "scorer-secret-2", PRODUCER, "producer-secret-3");
    private static final int SCORE_EVERY_NTH_ROW = 5;
    /** float64 numpy goldens against the scorer: round-off of a few ulps of the log terms, as in EndToEndIT. */
    private static final double POSTERIOR_TOLERANCE = IrisEndToEndScenario.POSTERIOR_TOLERANCE;

    private static SaslTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBrokerWithAuthorizer() {
        cluster = SaslTestCluster.start(PASSWORDS, Map.of());
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Client settings of {@code user}: SASL/PLAIN over the kit's listener. */
    private static Properties clientProperties(String user, String password) {
        Properties p = new Properties();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, SecurityProtocol.SASL_PLAINTEXT.name);
        p.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, SaslTestCluster.login(user, password));
        return p;
    }

    private static Properties admin() {
        return clientProperties(SaslTestCluster.ADMIN, SaslTestCluster.ADMIN_PASSWORD);
    }

    /** One test's run: its own topics and application id, the configuration file both commands read. */
    private record Run(Map<String, String> config, AppConfig appConfig, Topics topics, String modelId) {
    }

    private Run newRun(String name) {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"), UniqueNames.of("metrics"));
        String modelId = "iris";
        Map<String, String> config = ProductProcess.testConfig(cluster.bootstrapServers(), topics, modelId,
                UniqueNames.of("acl-" + name), dir.resolve(name + "-state"), 2);
        config.put("gda.topic.metrics", topics.metrics().name());
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "PLAIN");
        config.put("gda.replication.factor", "1");
        config.put("replication.factor", "1");
        // Kafka Streams purges the consumed records of the repartition topic (DELETE) within the test's run.
        config.put("repartition.purge.interval.ms", "100");
        // The file is written by ProductProcess; the same keys read as the product reads them.
        AppConfig appConfig = AppConfig.defaults();
        for (Map.Entry<String, String> e : config.entrySet()) {
            appConfig = appConfig.set(e.getKey(), e.getValue(), "test");
        }
        return new Run(config, appConfig, topics, modelId);
    }

    /** {@code command} as {@code user}: the password in the environment, as config/app.properties advises. */
    private ProductProcess process(Command command, Map<String, String> config, String name, String user) {
        return new ProductProcess(command, config, dir, name).withEnvironment(Map.of(
                "KAFKA_STREAMS_SASL_JAAS_CONFIG", SaslTestCluster.login(user, PASSWORDS.get(user))));
    }

    private static void grant(List<AclBinding> bindings) throws Exception {
        try (Admin admin = Admin.create(admin())) {
            admin.createAcls(bindings).all().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Test
    void trainerAndScorerRunWithExactlyTheDocumentedAclsAndNeitherScorerNorProducerCanWriteTheModel()
            throws Exception {
        AclTable table = AclTable.fromDocs();
        Run run = newRun("e2e");
        // The trainer creates the topics (gda.create.topics=true): trainer and provisioner rows. The scorer
        // finds them (gda.create.topics=false).
        List<AclBinding> granted = new ArrayList<>();
        granted.addAll(AclTable.bindings(table.of("trainer", "provisioner"), TRAINER, run.appConfig()));
        granted.addAll(AclTable.bindings(table.of("scorer"), SCORER, run.appConfig()));
        granted.addAll(AclTable.bindings(table.of("producer"), PRODUCER, run.appConfig()));
        grant(granted);
        Map<String, String> scoreConfig = new LinkedHashMap<>(run.config());
        scoreConfig.put("gda.create.topics", "false");
        IrisGolden golden = IrisGolden.fullMle();
        long t0 = System.nanoTime();
        try (ProductProcess train = process(Command.TRAIN, run.config(), "train", TRAINER);
             ProductProcess score = process(Command.SCORE, scoreConfig, "score", SCORER);
             KafkaProducer<byte[], byte[]> events = producer(PRODUCER)) {
            train.start();
            train.awaitRunning(TIMEOUT);
            for (IrisGolden.Row row : golden.rows()) {
                events.send(new ProducerRecord<>(run.topics().labelled().name(), key(row),
                        golden.labelledJson(row))).get();
            }
            ModelParameters model = awaitModel(run, golden.rows().size(), train);
            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), model);

            score.start();
            score.awaitRunning(TIMEOUT);
            List<IrisGolden.Row> scored = golden.rows().stream()
                    .filter(row -> row.index() % SCORE_EVERY_NTH_ROW == 0).toList();
            for (IrisGolden.Row row : scored) {
                events.send(new ProducerRecord<>(run.topics().unlabelled().name(), key(row),
                        golden.unlabelledJson(row, "row-" + row.index()))).get();
            }
            Map<String, Prediction> predictions = awaitPredictions(run, scored.size(), score);
            for (IrisGolden.Row row : scored) {
                Prediction p = predictions.get("row-" + row.index());
                assertEquals(Prediction.Status.SCORED, p.status(), "row " + row.index() + " " + p.reason());
                assertEquals(model.version(), p.modelVersion(), "scored with the published model");
                assertEquals(row.predictedLabel(), p.label(), "row " + row.index());
                for (Map.Entry<String, Double> e : row.probabilities().entrySet()) {
                    assertEquals(e.getValue(), p.probabilities().get(e.getKey()), POSTERIOR_TOLERANCE,
                            "row " + row.index() + " p(" + e.getKey() + " | x)");
                }
            }
            train.assertAlive();
            score.assertAlive();
            assertNoRefusal(train);
            assertNoRefusal(score);
            System.out.printf("acl: train and score ran with the %d ACLs of docs/SECURITY.md; %d events scored at"
                    + " the golden posteriors in %.1f s%n", granted.size(), scored.size(), seconds(t0));

            // The model topic is a trust boundary: neither the scorer nor an events producer may write it.
            for (String user : List.of(SCORER, PRODUCER)) {
                try (KafkaProducer<byte[], byte[]> intruder = producer(user)) {
                    ExecutionException refused = assertThrows(ExecutionException.class, () -> intruder.send(
                            new ProducerRecord<>(run.topics().model().name(), run.modelId().getBytes(
                                    StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8))).get(),
                            user + " wrote the model topic");
                    assertInstanceOf(TopicAuthorizationException.class, refused.getCause(), user);
                    assertTrue(((TopicAuthorizationException) refused.getCause()).unauthorizedTopics()
                            .contains(run.topics().model().name()), refused.getCause().toString());
                }
            }
            train.sigterm();
            score.sigterm();
        }
    }

    @Test
    void trainWithoutWriteOnTheModelTopicEndsPromptlyNamingTheTopicAndTheOperation() throws Exception {
        Run run = newRun("nowrite");
        String model = run.topics().model().name();
        String printed = trainMissing(run, row -> row.type() == ResourceType.TOPIC
                && row.name().equals("{gda.topic.model}") && row.operation() == AclOperation.WRITE);
        assertTrue(printed.contains("not authorised by the Kafka cluster: no WRITE on topic " + model), printed);
        assertTrue(printed.contains("docs/SECURITY.md"), printed);
    }

    @Test
    void trainWithoutReadOnItsGroupEndsPromptlyNamingTheGroupAndTheOperation() throws Exception {
        Run run = newRun("nogroup");
        String group = run.appConfig().streamsProperties(Role.TRAINING).getProperty("application.id");
        String printed = trainMissing(run, row -> row.type() == ResourceType.GROUP);
        assertTrue(printed.contains("not authorised by the Kafka cluster: no READ on group " + group), printed);
    }

    @Test
    void trainWithoutWriteOnItsTransactionalIdsEndsPromptlyInsteadOfRestartingKafkaStreams() throws Exception {
        // Not visible before Kafka Streams starts (the ids do not exist yet): Kafka Streams' own refusal, which the
        // service must not answer by starting Kafka Streams again.
        Run run = newRun("notxn");
        String prefix = run.appConfig().streamsProperties(Role.TRAINING).getProperty("application.id") + "-";
        String printed = trainMissing(run, row -> row.type() == ResourceType.TRANSACTIONAL_ID);
        assertTrue(printed.contains("not authorised by the Kafka cluster: no WRITE on the transactional ids with the"
                + " prefix " + prefix), printed);
        assertFalse(printed.contains("starting it again"), printed);
    }

    @Test
    void scoreThatWouldCreateTheTopicsWithoutTheProvisionerRowsEndsPromptlyNamingCreate() throws Exception {
        Run run = newRun("scorecreate");
        grant(AclTable.bindings(AclTable.fromDocs().of("scorer"), SCORER, run.appConfig()));
        try (ProductProcess score = process(Command.SCORE, run.config(), "score-create", SCORER)) {
            score.start();
            int status = score.awaitOwnExit(PROMPT_EXIT);
            assertEquals(ExitCodes.FAILURE, status, score.log());
            assertTrue(score.log().contains("not authorised by the Kafka cluster: no CREATE on topic "
                    + run.topics().labelled().name() + " (gda.create.topics=true creates the missing topics)"),
                    score.log());
        }
    }

    @Test
    void trainWithoutTheProvisionersDescribeEndsPromptlyNamingTheTopicAndTheOperation() throws Exception {
        Run run = newRun("nodescribe");
        String printed = trainMissing(run, row -> row.role().equals("provisioner") && row.type() == ResourceType.TOPIC
                && row.name().equals("{gda.topic.unlabelled}") && row.operation() == AclOperation.DESCRIBE);
        assertTrue(printed.contains("not authorised by the Kafka cluster: no DESCRIBE on topic "
                + run.topics().unlabelled().name() + " (gda.create.topics=true"), printed);
        assertFalse(printed.contains("\tat "), printed);
    }

    /**
     * The DESCRIBE_CONFIGS rows serve the start's checks of topic settings only: without them {@code train} runs and
     * says which topics it could not check (before, it said nothing, as if they were fine).
     */
    @Test
    void trainWithoutDescribeConfigsRunsAndNamesTheTopicsItCouldNotCheck() throws Exception {
        Run run = newRun("noconfigs");
        List<AclTable.Row> rows = AclTable.fromDocs().of("trainer", "provisioner");
        List<AclTable.Row> kept = rows.stream().filter(row -> row.operation() != AclOperation.DESCRIBE_CONFIGS)
                .toList();
        assertEquals(rows.size() - 2, kept.size(), "the labelled and the model topic's rows left out");
        grant(AclTable.bindings(kept, TRAINER, run.appConfig()));
        try (ProductProcess train = process(Command.TRAIN, run.config(), "train-noconfigs", TRAINER)) {
            train.start();
            train.awaitRunning(TIMEOUT);
            assertTrue(train.log().contains("training: note: no DESCRIBE_CONFIGS on topics "
                    + run.topics().labelled().name() + ", " + run.topics().model().name() + ", so the start cannot"
                    + " check their settings"), train.log());
            train.assertAlive();
            train.sigterm();
        }
    }

    /**
     * A changelog an earlier run made is checked at start like the configured topics: without WRITE on it the scorer
     * would run until its first held event (no model yet), then stop.
     */
    @Test
    void scoreWithoutWriteOnItsExistingChangelogEndsPromptlyNamingIt() throws Exception {
        Run run = newRun("nochangelogwrite");
        String changelog = run.appConfig().streamsProperties(Role.SCORING).getProperty("application.id") + "-"
                + ScoringTopology.PENDING_STORE + "-changelog";
        ConfiguredTopics.createMissing(run.appConfig(), admin());
        try (Admin admin = Admin.create(admin())) {
            admin.createTopics(List.of(new NewTopic(changelog, 2, (short) 1))).all()
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        List<AclTable.Row> rows = AclTable.fromDocs().of("scorer");
        List<AclTable.Row> kept = rows.stream().filter(row -> !(row.type() == ResourceType.TOPIC
                && row.pattern() == PatternType.PREFIXED && row.operation() == AclOperation.WRITE)).toList();
        assertEquals(rows.size() - 1, kept.size(), "exactly one row left out");
        grant(AclTable.bindings(kept, SCORER, run.appConfig()));
        Map<String, String> scoreConfig = new LinkedHashMap<>(run.config());
        scoreConfig.put("gda.create.topics", "false");
        try (ProductProcess score = process(Command.SCORE, scoreConfig, "score-nowrite", SCORER)) {
            score.start();
            int status = score.awaitOwnExit(PROMPT_EXIT);
            assertEquals(ExitCodes.FAILURE, status, score.log());
            assertTrue(score.log().contains("not authorised by the Kafka cluster: no WRITE on topic " + changelog
                    + " (a store's changelog, written with each change)"), score.log());
        }
    }

    /**
     * Runs {@code train} with the trainer's and provisioner's rows except the one {@code leftOut} matches; asserts it
     * ends by itself within {@link #PROMPT_EXIT}, with exit code 1, and returns what it printed.
     */
    private String trainMissing(Run run, Predicate<AclTable.Row> leftOut) throws Exception {
        List<AclTable.Row> rows = AclTable.fromDocs().of("trainer", "provisioner");
        List<AclTable.Row> kept = rows.stream().filter(leftOut.negate()).toList();
        assertEquals(rows.size() - 1, kept.size(), "exactly one row left out");
        grant(AclTable.bindings(kept, TRAINER, run.appConfig()));
        try (ProductProcess train = process(Command.TRAIN, run.config(), "train-" + run.appConfig().applicationId(),
                TRAINER)) {
            long t0 = System.nanoTime();
            train.start();
            int status = train.awaitOwnExit(PROMPT_EXIT);
            assertEquals(ExitCodes.FAILURE, status, train.log());
            System.out.printf("acl: train without one ACL exited with %d after %.1f s: %s%n", status, seconds(t0),
                    train.log().lines().filter(l -> l.contains("not authorised")).findFirst().orElse("?"));
            return train.log();
        }
    }

    /**
     * Fails if the command's output shows any refusal of the authorizer: some are only logged by Kafka's clients
     * while the topology runs on (without DELETE on the internal topics, every purge of the repartition topic
     * logs {@code DeleteRecords ... TOPIC_AUTHORIZATION_FAILED}, and that topic, kept forever, grows without end).
     */
    private static void assertNoRefusal(ProductProcess process) {
        List<String> refusals = process.log().lines().filter(l -> l.contains("AUTHORIZATION_FAILED")
                || l.contains("AuthorizationException") || l.contains("not authorised")
                || l.contains("no DESCRIBE_CONFIGS")).toList();
        assertEquals(List.of(), refusals, "refusals in the output");
    }

    private static byte[] key(IrisGolden.Row row) {
        return ("row-" + row.index()).getBytes(StandardCharsets.UTF_8);
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static KafkaProducer<byte[], byte[]> producer(String user) {
        Properties p = clientProperties(user, PASSWORDS.get(user));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The newest model on the topic once it has absorbed {@code count} events (read as the super user). */
    private static ModelParameters awaitModel(Run run, long count, ProductProcess train) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            ModelParameters newest = null;
            for (ConsumerRecord<byte[], byte[]> r : readAll(run.topics().model().name())) {
                newest = r.value() == null ? newest : SerdeFactory.model().deserializer().deserialize("m", r.value());
            }
            if (newest != null && newest.totalCount() == count) {
                return newest;
            }
            train.assertAlive();
            Thread.sleep(200);
        }
        throw new AssertionError("no model of " + count + " events:\n" + train.log());
    }

    private static Map<String, Prediction> awaitPredictions(Run run, int count, ProductProcess score)
            throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Map<String, Prediction> byId = new HashMap<>();
        while (System.nanoTime() < deadline) {
            List<ConsumerRecord<byte[], byte[]>> records = readAll(run.topics().predictions().name());
            if (records.size() >= count) {
                assertEquals(count, records.size(), "one prediction per event");
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    Prediction p = run.topics().predictions().valueDeserializer().deserialize("p", r.value());
                    byId.put(p.id(), p);
                }
                return byId;
            }
            score.assertAlive();
            Thread.sleep(200);
        }
        throw new AssertionError("fewer than " + count + " predictions:\n" + score.log());
    }

    /** Every committed record of {@code topic} up to its end now, read as the super user. */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Properties p = admin();
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }
}
