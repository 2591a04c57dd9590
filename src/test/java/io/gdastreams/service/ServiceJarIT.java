package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.reliability.HostileRecords;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.settings.RecordSizeLimits;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slim jar that production {@code train}/{@code score} (and the Docker image) use: small, runs the training
 * topology with RocksDB from its own natives against a real broker, and refuses what needs the embedded broker.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ServiceJarIT {

    /** Built by the package phase before failsafe runs. */
    private static final Path SERVICE_JAR = Paths.get("target", "gda-streams-service.jar");
    /** The size the architecture step set for the service jar. */
    private static final long MAX_SERVICE_JAR_BYTES = 40L * 1000 * 1000;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void shouldStayUnderFortyMegabytes() throws IOException {
        long size = Files.size(SERVICE_JAR);
        System.out.printf("service jar: %,d bytes; full jar: %,d bytes%n", size,
                Files.size(Paths.get("target", "gda-streams.jar")));
        assertTrue(size <= MAX_SERVICE_JAR_BYTES, size + " bytes");
    }

    @Test
    void shouldRefuseTheDemoWithAMessageNamingTheFullJar() throws Exception {
        Process demo = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", SERVICE_JAR.toString(), "demo").redirectErrorStream(true).start();
        String output = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(demo.waitFor(60, TimeUnit.SECONDS));
        assertEquals(ExitCodes.USAGE, demo.exitValue(), output);
        assertTrue(output.contains("this jar has no embedded broker") && output.contains("gda-streams.jar"), output);
        assertTrue(!output.contains("Kafka broker") && !output.contains("gda-streams demo: an online"),
                "refused before announcing a broker: " + output);
    }

    /** The service jar has no charting library: plot says so (exit 2) instead of failing on a missing class. */
    @Test
    void shouldRefusePlotWithAMessageNamingTheFullJar() throws Exception {
        Path model = dir.resolve("model.json");
        Files.write(model, new io.gdastreams.serde.ModelSerde().serializer().serialize("m",
                Iris.model("iris", 1, Iris.rows())));
        Process plot = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", SERVICE_JAR.toString(), "plot", "--model", model.toString(), "--x", "petal_length", "--y",
                "petal_width", "--output", dir.resolve("plot.png").toString()).redirectErrorStream(true).start();
        String output = new String(plot.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(plot.waitFor(60, TimeUnit.SECONDS));
        assertEquals(ExitCodes.USAGE, plot.exitValue(), output);
        assertTrue(output.contains("this jar cannot draw") && output.contains("gda-streams.jar"), output);
        assertEquals(1, output.strip().lines().count(), output);
    }

    @Test
    void shouldTrainTheBatchMleFromTheServiceJar(KafkaBroker broker) throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        List<LabelledRow> rows = Iris.rows();
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris",
                UniqueNames.of("service-jar"), dir.resolve("state"), 2);
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train").fromJar(SERVICE_JAR);
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            train.start();
            train.awaitRunning(TIMEOUT);
            for (int i = 0; i < rows.size(); i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + i).getBytes(StandardCharsets.UTF_8),
                        HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label()))).get();
            }
            List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, () -> assertTrue(train.isAlive(), train.log()));
            ModelParameters model = models.get(models.size() - 1).value();
            assertEquals(150, model.totalCount());
            assertEquals(List.of(50L, 50L, 50L), model.classes().stream().map(ClassParameters::count).toList());
            assertPartialsTopicMadeBeforeStart(broker, config.get("gda.application.id") + "-training", train.log());
        }
    }

    /**
     * {@code train} creates its internal partials topic before Kafka Streams starts, as Kafka Streams would make a
     * repartition topic: the stream thread's consumer never meets a missing topic (no UNKNOWN_TOPIC_OR_PARTITION
     * warnings at a first start), and Kafka Streams accepted the topic (the model above went through it).
     */
    private static void assertPartialsTopicMadeBeforeStart(KafkaBroker broker, String applicationId, String log)
            throws Exception {
        String name = TrainingTopology.partials(applicationId).name();
        assertEquals(1, broker.admin().describeTopics(List.of(name)).allTopicNames().get().get(name)
                .partitions().size());
        Config config = broker.admin().describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, name)))
                .all().get().values().iterator().next();
        assertEquals("delete", config.get("cleanup.policy").value());
        assertEquals("-1", config.get("retention.ms").value());
        assertEquals(Integer.toString(RecordSizeLimits.MAX_RECORD_BYTES), config.get("max.message.bytes").value());
        assertFalse(log.contains("UNKNOWN_TOPIC_OR_PARTITION"), log);
    }
}
