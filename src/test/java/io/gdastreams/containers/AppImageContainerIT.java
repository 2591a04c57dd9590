package io.gdastreams.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.IrisEndToEndScenario;
import io.gdastreams.it.IrisGolden;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
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
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.ToStringConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * Smoke test of the shipped artefact: the application image is built from {@code docker/Dockerfile} and the
 * packaged jar (on the broker image's JRE where that one is built locally), and its {@code train} and
 * {@code score} commands run in containers against the broker container, configured only through the shipped
 * {@code config/app.properties} and {@code GDA_*} / {@code KAFKA_STREAMS_*} variables, with their state inside the
 * container. The 150 labelled Iris rows must yield the numpy batch MLE model; every fifth row sent again without
 * its label must come back scored with the golden posteriors. Failsafe runs it after {@code package}, so the jar
 * exists. Needs Docker ({@link ContainerTest}). Container logs are printed when it fails.
 */
@ContainerTest
class AppImageContainerIT {

    private static final Path PROJECT_ROOT = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    /** The shipped {@code gda.partitions}: the application creates its topics with it. */
    private static final int PARTITIONS = 4;
    private static final int SCORE_EVERY_NTH_ROW = 5;
    private static final Duration IMAGE_BUILD_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration APP_START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    // Against the image's MaxRAMPercentage of a 24 GiB host: two applications beside other builds.
    private static final String APP_JAVA_OPTIONS = "-Xmx256m";
    private static final String CONFIG = "/app/config/app.properties";
    // The broker logs about 1,800 lines at start-up; the end of each log is what explains a failure.
    private static final int FAILURE_LOG_LINES = 300;

    @Test
    void shouldTrainAndScoreIrisWithTheApplicationImageAgainstTheBrokerContainer() throws Exception {
        assertTrue(AppImage.jarExists(PROJECT_ROOT), AppImage.JAR + " missing under " + PROJECT_ROOT
                + ": failsafe runs after package; run `mvn package` first when calling failsafe alone");
        IrisGolden golden = IrisGolden.fullMle();
        assertEquals(FitOptions.defaults(), golden.fitOptions(), "the golden case is the shipped scoring defaults");

        long t0 = System.nanoTime();
        ImageFromDockerfile appImage = AppImage.build(PROJECT_ROOT);
        // The image builds while the broker starts.
        CompletableFuture<String> built = CompletableFuture.supplyAsync(appImage::get);
        Map<String, ToStringConsumer> logs = new LinkedHashMap<>();
        List<GenericContainer<?>> containers = new ArrayList<>();
        try {
            HostNetworkKafkaContainer kafka = new HostNetworkKafkaContainer(BrokerImage.configured());
            containers.add(kafka);
            kafka.withLogConsumer(logTo(logs, "broker"));
            kafka.start();
            String image = built.get(IMAGE_BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            System.out.printf("application image %s (base %s) built in %.1f s%n", image,
                    AppImage.localBase().orElse("the Dockerfile's default"), seconds(t0));
            AppImage.removeSuperseded();

            try (ContainerBroker broker = new ContainerBroker(kafka);
                 KafkaProducer<byte[], byte[]> producer = broker.producer()) {
                Map<String, String> env = appEnvironment(kafka.getBootstrapServers());
                Topics topics = topicsOf(env);
                String modelId = env.get("GDA_MODEL_ID");

                containers.add(startApp(image, "train", "training", env, logTo(logs, "train")));
                for (IrisGolden.Row row : golden.rows()) {
                    send(producer, topics.labelled().name(), row, golden.labelledJson(row));
                }
                ModelParameters model = awaitModelAbsorbingAllLabelled(broker, topics, modelId);
                assertEquals(golden.rows().size(), model.totalCount(), "every labelled event counted once");
                TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), model);

                // Started once the model is complete: its global store loads the model before it scores anything.
                containers.add(startApp(image, "score", "scoring", env, logTo(logs, "score")));
                List<IrisGolden.Row> scored = golden.rows().stream()
                        .filter(row -> row.index() % SCORE_EVERY_NTH_ROW == 0).toList();
                for (IrisGolden.Row row : scored) {
                    send(producer, topics.unlabelled().name(), row, golden.unlabelledJson(row, key(row)));
                }
                assertScoredAtTheGoldenPosteriors(broker, topics, scored, modelId, model.version());
                List<ConsumerRecord<byte[], DeadLetter>> deadLetters = broker.readAll(topics.deadLetters(), TIMEOUT);
                assertEquals(List.of(), deadLetters.stream().map(ConsumerRecord::value).toList(), "no dead letters");
            }
            System.out.printf("application image smoke test passed in %.1f s (image build included)%n", seconds(t0));
        } catch (Throwable failure) {
            logs.forEach((name, log) -> System.out.printf("----- %s container log (last %d lines) -----%n%s%n",
                    name, FAILURE_LOG_LINES, lastLines(log.toUtf8String(), FAILURE_LOG_LINES)));
            throw failure;
        } finally {
            built.cancel(true);
            for (int i = containers.size() - 1; i >= 0; i--) {
                containers.get(i).stop();
            }
        }
    }

    /**
     * What an operator sets: the bootstrap servers, the application's identity and topics, and the fast test
     * cadence of the other integration tests. Names are unique so runs against one broker never meet; state stays in the image's
     * state directory, inside the container.
     */
    private static Map<String, String> appEnvironment(String bootstrapServers) {
        Map<String, String> env = new TreeMap<>();
        env.put("KAFKA_STREAMS_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("GDA_APPLICATION_ID", UniqueNames.of("app-image"));
        env.put("GDA_MODEL_ID", UniqueNames.of("iris"));
        env.put("GDA_TOPIC_LABELLED", UniqueNames.of("labelled"));
        env.put("GDA_TOPIC_UNLABELLED", UniqueNames.of("unlabelled"));
        env.put("GDA_TOPIC_MODEL", UniqueNames.of("model"));
        env.put("GDA_TOPIC_PREDICTIONS", UniqueNames.of("predictions"));
        env.put("GDA_TOPIC_DEAD_LETTERS", UniqueNames.of("dead-letters"));
        env.put("GDA_PUBLISH_INTERVAL_MS", "200");
        env.put("KAFKA_STREAMS_COMMIT_INTERVAL_MS", "100");
        env.put("KAFKA_STREAMS_STATESTORE_CACHE_MAX_BYTES", "0");
        env.put("KAFKA_STREAMS_PRODUCER_LINGER_MS", "0");
        env.put("JAVA_TOOL_OPTIONS", APP_JAVA_OPTIONS);
        return env;
    }

    private static Topics topicsOf(Map<String, String> env) {
        return new Topics(env.get("GDA_TOPIC_LABELLED"), env.get("GDA_TOPIC_UNLABELLED"), env.get("GDA_TOPIC_MODEL"),
                env.get("GDA_TOPIC_PREDICTIONS"), env.get("GDA_TOPIC_DEAD_LETTERS"));
    }

    /** Starts {@code command} of the image on the host network; ready once it reports running (topics exist). */
    private static GenericContainer<?> startApp(String image, String command, String role, Map<String, String> env,
                                                ToStringConsumer log) {
        GenericContainer<?> app = new GenericContainer<>(image)
                .withNetworkMode("host")
                .withEnv(env)
                .withCommand(command, "--config", CONFIG)
                .withLogConsumer(log)
                .waitingFor(Wait.forLogMessage(".*" + role + ": running as application.*\\n", 1)
                        .withStartupTimeout(APP_START_TIMEOUT));
        app.start();
        return app;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, IrisGolden.Row row, byte[] value)
            throws InterruptedException, ExecutionException {
        producer.send(new ProducerRecord<>(topic, row.index() % PARTITIONS,
                key(row).getBytes(StandardCharsets.UTF_8), value)).get();
    }

    /** The first published model whose lineage covers every record now on the labelled topic. */
    private static ModelParameters awaitModelAbsorbingAllLabelled(ContainerBroker broker, Topics topics,
                                                                  String modelId) {
        List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                topics.model(), TIMEOUT, () -> { });
        ConsumerRecord<String, ModelParameters> last = models.get(models.size() - 1);
        assertEquals(modelId, last.key(), "model record key");
        assertEquals(modelId, last.value().modelId());
        return last.value();
    }

    private static void assertScoredAtTheGoldenPosteriors(ContainerBroker broker, Topics topics,
                                                          List<IrisGolden.Row> rows, String modelId,
                                                          long modelVersion) {
        broker.readUntil(topics.predictions().name(), SerdeFactory.string().deserializer(), topics.predictions().valueDeserializer(), records -> records.size() >= rows.size(), TIMEOUT);
        List<ConsumerRecord<String, Prediction>> predictions = broker.readAll(topics.predictions().name(),
                SerdeFactory.string().deserializer(), topics.predictions().valueDeserializer(), TIMEOUT);
        assertEquals(rows.size(), predictions.size(), "exactly one prediction per unlabelled event");
        Map<String, Prediction> byKey = new HashMap<>();
        for (ConsumerRecord<String, Prediction> record : predictions) {
            assertNull(byKey.put(record.key(), record.value()), "second prediction for " + record.key());
        }
        for (IrisGolden.Row row : rows) {
            String where = "row " + row.index();
            Prediction p = byKey.get(key(row));
            assertTrue(p != null, where + " has a prediction");
            assertEquals(Prediction.Status.SCORED, p.status(), where + " " + p.reason());
            assertEquals(key(row), p.id(), where + " id");
            assertEquals(modelId, p.modelId(), where + " modelId");
            // The trainer may republish the same statistics under a newer version meanwhile.
            assertTrue(p.modelVersion() >= modelVersion, where + " scored by model version " + p.modelVersion()
                    + ", older than the complete model " + modelVersion);
            assertEquals(row.probabilities().keySet(), p.probabilities().keySet(), where + " classes");
            for (Map.Entry<String, Double> expected : row.probabilities().entrySet()) {
                assertEquals(expected.getValue(), p.probabilities().get(expected.getKey()),
                        IrisEndToEndScenario.POSTERIOR_TOLERANCE, where + " p(" + expected.getKey() + " | x)");
            }
            assertEquals(row.logDensity(), p.logDensity(), IrisEndToEndScenario.POSTERIOR_TOLERANCE,
                    where + " log p(x)");
            assertEquals(row.predictedLabel(), p.label(), where + " label");
        }
    }

    private static ToStringConsumer logTo(Map<String, ToStringConsumer> logs, String name) {
        ToStringConsumer log = new ToStringConsumer();
        logs.put(name, log);
        return log;
    }

    private static String lastLines(String text, int count) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    private static String key(IrisGolden.Row row) {
        return "row-" + row.index();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
