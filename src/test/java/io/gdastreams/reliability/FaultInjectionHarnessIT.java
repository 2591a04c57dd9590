package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.broker.FaultInjectionBroker;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault-injection harness works: the child-JVM broker can be frozen and resumed, killed with SIGKILL and
 * restarted where clients find it with everything acknowledged still there, and the product's own {@code train}
 * command runs against it in a JVM of its own, stops on SIGTERM and does not outlive a killed test JVM.
 */
class FaultInjectionHarnessIT {

    private static final Duration PAUSE = Duration.ofSeconds(3);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int ACKNOWLEDGED_BEFORE_KILL = 200;
    private static final int PARTITIONS = 2;
    /** Every fifth Iris row: 30 labelled events, 10 per class. */
    private static final int IRIS_STRIDE = 5;
    /** Streamed (Welford + Chan across partitions) vs the batch MLE of the same rows, relative to scale. */
    private static final double RELATIVE_TOLERANCE = 1e-12;

    private static FaultInjectionBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        broker = FaultInjectionBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void shouldCompleteASendIssuedWhileTheBrokerWasPausedOnceItResumes() throws Exception {
        String topic = UniqueNames.of("pause");
        broker.createTopics(Map.of(topic, 1));
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            producer.send(record(topic, "before")).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

            broker.pause();
            long pausedAt = System.nanoTime();
            Future<RecordMetadata> during;
            try {
                during = producer.send(record(topic, "during"));
                Thread.sleep(PAUSE.toMillis());
                assertFalse(during.isDone(), "a frozen broker acknowledged a send");
            } finally {
                broker.resume();
            }
            RecordMetadata acked = during.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            double waited = (System.nanoTime() - pausedAt) / 1e9;
            System.out.printf("fault-injection/pause: send acknowledged %.1f s after the pause began%n", waited);

            assertEquals(1, acked.offset());
            assertTrue(waited >= PAUSE.toSeconds(), "acknowledged after " + waited + " s");
            assertEquals(List.of("before", "during"), values(broker.readAll(topic, TIMEOUT)));
        }
    }

    @Test
    void shouldKeepEveryAcknowledgedRecordAcrossASigkillAndRestartOnTheSamePort() throws Exception {
        String topic = UniqueNames.of("crash");
        broker.createTopics(Map.of(topic, PARTITIONS));
        List<String> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < ACKNOWLEDGED_BEFORE_KILL; i++) {
                sent.add("r" + i);
                acks.add(producer.send(record(topic, "r" + i)));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
            String bootstrap = broker.bootstrapServers();
            long pid = broker.pid();

            long t0 = System.nanoTime();
            broker.killAndRestart();
            System.out.printf("fault-injection/kill: broker %d killed, %d answering on %s after %.1f s%n", pid,
                    broker.pid(), broker.bootstrapServers(), (System.nanoTime() - t0) / 1e9);

            assertNotEquals(pid, broker.pid(), "a new broker JVM");
            assertEquals(bootstrap, broker.bootstrapServers(), "same address");
            // The producer from before the crash reconnects to the same address.
            sent.add("after-restart");
            producer.send(record(topic, "after-restart")).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        List<String> read = values(broker.readAll(topic, TIMEOUT));
        assertEquals(sent.size(), read.size(), "every acknowledged record, once");
        assertEquals(sent.stream().sorted().toList(), read.stream().sorted().toList());
    }

    @Test
    void shouldPublishTheModelWithTheProductTrainCommandAndStopCleanlyOnSigterm() throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String modelId = UniqueNames.of("iris");
        List<LabelledRow> rows = Iris.every(IRIS_STRIDE, 0);
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, modelId,
                UniqueNames.of("harness"), dir.resolve("state"), PARTITIONS);
        config.put("gda.features", String.join(",", Iris.FEATURES));
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train")) {
            train.start();
            train.awaitRunning(TIMEOUT);
            try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
                for (int i = 0; i < rows.size(); i++) {
                    producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + i).getBytes(StandardCharsets.UTF_8),
                            HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label()))).get();
                }
            }
            List<ConsumerRecord<String, ModelParameters>> models;
            try {
                models = broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), TIMEOUT, () -> {
                    assertTrue(train.isAlive(), "train exited:\n" + train.log());
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + train.log(), e);
            }
            ModelParameters model = models.get(models.size() - 1).value();
            assertEquals(modelId, models.get(models.size() - 1).key());
            assertModelIsBatchMle(Iris.model(modelId, model.version(), rows), model);

            int exit = train.sigterm().status();
            String log = train.log();
            System.out.printf("fault-injection/train: model version %d of %d events; SIGTERM exit %d%n",
                    model.version(), model.totalCount(), exit);
            assertTrue(log.contains("training: stopping"), "the shutdown hook ran:\n" + log);
            assertFalse(log.contains("unexpected error"), log);
            assertEquals(ProductProcess.SIGTERM_EXIT, exit, "the JVM's status after SIGTERM:\n" + log);
        }
    }

    /**
     * A test JVM killed with SIGKILL runs no shutdown hook, yet takes the product's JVM with it: the watch that
     * {@link ProductProcess} starts beside the product sees the pipe from the dead JVM close. A stand-in plays the
     * test JVM, so that this one can kill it.
     */
    @Test
    void shouldTakeTheProductDownWithATestJvmKilledWithSigkill() throws Exception {
        Process testJvm = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", StreamsChildProcess.classpath(), TestJvmStandIn.class.getName(),
                broker.bootstrapServers(), dir.toString()).redirectErrorStream(true).start();
        Optional<ProcessHandle> product = Optional.empty();
        try {
            product = ProcessHandle.of(productPid(testJvm));
            assertTrue(product.map(ProcessHandle::isAlive).orElse(false), "the product runs before the kill");

            testJvm.destroyForcibly();
            assertTrue(testJvm.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the stand-in test JVM died");
            long killedAt = System.nanoTime();
            long deadline = killedAt + TIMEOUT.toNanos();
            while (product.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            System.out.printf("fault-injection/orphan: product %d gone %.1f s after its test JVM's SIGKILL%n",
                    product.get().pid(), (System.nanoTime() - killedAt) / 1e9);
            assertFalse(product.get().isAlive(), "the product outlived its test JVM by " + TIMEOUT);
        } finally {
            testJvm.destroyForcibly();
            product.ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** The product's pid, once the stand-in prints it: the product is running. */
    private static long productPid(Process testJvm) throws IOException {
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(testJvm.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith(TestJvmStandIn.PID)) {
                    return Long.parseLong(line.substring(TestJvmStandIn.PID.length()));
                }
                output.append(line).append('\n');
            }
        }
        throw new AssertionError("the stand-in test JVM exited before the product ran:\n" + output);
    }

    /** A test JVM in miniature: runs the product's train through {@link ProductProcess}, prints its pid, waits. */
    public static final class TestJvmStandIn {

        static final String PID = "PRODUCT PID ";

        private TestJvmStandIn() {
        }

        /** {@code TestJvmStandIn BOOTSTRAP WORK_DIR}. */
        public static void main(String[] args) throws Exception {
            Path workDir = Path.of(args[1]);
            Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"),
                    UniqueNames.of("model"), UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
            ProductProcess train = new ProductProcess(Command.TRAIN, ProductProcess.testConfig(args[0], topics,
                    "orphan", UniqueNames.of("orphan"), workDir.resolve("state"), 1), workDir, "orphan-train");
            train.start();
            train.awaitRunning(TIMEOUT);
            System.out.println(PID + train.pid());
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    private static void assertModelIsBatchMle(ModelParameters expected, ModelParameters actual) {
        assertEquals(expected.features(), actual.features());
        assertEquals(expected.totalCount(), actual.totalCount(), "every labelled event counted once");
        Map<String, ClassParameters> byLabel = actual.classes().stream()
                .collect(Collectors.toMap(ClassParameters::label, Function.identity()));
        assertEquals(expected.classes().size(), byLabel.size());
        for (ClassParameters e : expected.classes()) {
            ClassParameters a = byLabel.get(e.label());
            assertEquals(e.count(), a.count(), e.label());
            assertEquals(e.prior(), a.prior(), RELATIVE_TOLERANCE, e.label() + " prior");
            for (int i = 0; i < e.mean().length; i++) {
                assertEquals(e.mean()[i], a.mean()[i], RELATIVE_TOLERANCE * Math.abs(e.mean()[i]), e.label());
                for (int j = 0; j < e.mean().length; j++) {
                    double scale = Math.sqrt(e.covariance()[i][i] * e.covariance()[j][j]);
                    assertEquals(e.covariance()[i][j], a.covariance()[i][j], RELATIVE_TOLERANCE * scale,
                            e.label() + " covariance " + i + "," + j);
                }
            }
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String value) {
        return new ProducerRecord<>(topic, value.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }
}
