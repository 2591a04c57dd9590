package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.Role;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.TopicProvisioner;
import io.gdastreams.topology.Topics;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/**
 * The sizes of the large records (partial snapshot, combiner store entry, model JSON) as d and K grow, checked
 * against the byte layout of the formats, and the product's record limits checked against them. Prints the table
 * of docs/TRAINING.md ("Record sizes"): {@code mvn -o -q test -Dtest=RecordSizesTest}.
 */
class RecordSizesTest {

    /** Kafka's default producer max.request.size and broker message.max.bytes (1 MiB). */
    private static final int KAFKA_DEFAULT_LIMIT = 1024 * 1024;
    private static final int[] DIMENSIONS = {16, 64, 256};
    private static final int[] CLASS_COUNTS = {3, 10};
    /** Events per class: more than d, as a usable covariance needs. */
    private static final int EVENTS_PER_CLASS = 300;
    private static final long SEED = 20261122L;
    private static final String MODEL_ID = "gda";
    private static final String COMBINER_KEY = "partial:0";

    private record Sizes(int d, int k, int snapshot, int combinerEntry, int modelJson) {
    }

    @Test
    void shouldMatchTheBinaryLayoutAndStayWithinTheConfiguredRecordBound() {
        List<Sizes> table = new ArrayList<>();
        for (int d : DIMENSIONS) {
            for (int k : CLASS_COUNTS) {
                table.add(measure(d, k));
            }
        }
        StringBuilder markdown = new StringBuilder(
                "| d | K | partial snapshot | combiner store entry | model JSON |\n|---|---|---|---|---|\n");
        for (Sizes s : table) {
            markdown.append(String.format("| %d | %d | %,d B | %,d B | %,d B |%n", s.d(), s.k(), s.snapshot(),
                    s.combinerEntry(), s.modelJson()));
            assertEquals(expectedSnapshotBytes(s.d(), s.k()), s.snapshot(), "snapshot layout at d=" + s.d());
            assertTrue(s.modelJson() < RecordSizeLimits.MAX_RECORD_BYTES / 2, "model JSON within half the bound");
        }
        System.out.print(markdown);

        Sizes largest = table.get(table.size() - 1);
        assertEquals(256, largest.d());
        // What the review found: at d = 256 Kafka's defaults refuse both the snapshot and the model.
        assertTrue(largest.snapshot() > KAFKA_DEFAULT_LIMIT, "snapshot at d=256, K=10 exceeds 1 MiB");
        assertTrue(largest.modelJson() > KAFKA_DEFAULT_LIMIT, "model at d=256, K=10 exceeds 1 MiB");
        assertTrue(expectedSnapshotBytes(256, 4) > KAFKA_DEFAULT_LIMIT, "4 classes at d=256 exceed 1 MiB");
    }

    @Test
    void shouldRaiseEveryProducerAndTopicLimitToTheRecordBound() {
        String bound = Integer.toString(RecordSizeLimits.MAX_RECORD_BYTES);
        Properties streams = AppConfig.defaults().streamsProperties(Role.TRAINING);
        assertEquals(bound, streams.getProperty("producer.max.request.size"));
        assertEquals(bound, streams.getProperty("producer.buffer.memory"));
        assertEquals(bound, streams.getProperty("topic.max.message.bytes"));

        Topics topics = AppConfig.defaults().topics();
        Map<String, NewTopic> plan = new TreeMap<>();
        TopicProvisioner.plan(topics, 4, (short) -1).forEach(t -> plan.put(t.name(), t));
        assertEquals(bound, plan.get(topics.model().name()).configs().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG));
        assertEquals(TopicConfig.CLEANUP_POLICY_COMPACT,
                plan.get(topics.model().name()).configs().get(TopicConfig.CLEANUP_POLICY_CONFIG));
    }

    @Test
    void shouldDocumentTheRecordLimitsInAppPropertiesAsTheyAreBuiltIn() throws IOException {
        Properties documented = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("config/app.properties"), StandardCharsets.UTF_8)) {
            documented.load(reader);
        }
        RecordSizeLimits.streamsDefaults().forEach((key, value) -> assertEquals(value, documented.getProperty(key),
                key));
    }

    @Test
    void shouldLetAFileOverrideTheRecordBound() {
        Properties file = new Properties();
        file.setProperty("producer.max.request.size", "2097152");
        Properties streams = ConfigSources.resolve(file, "test file", Map.of()).streamsProperties(Role.SCORING);
        assertEquals("2097152", streams.getProperty("producer.max.request.size"));
    }

    private static Sizes measure(int d, int k) {
        Random random = new Random(SEED + 31L * d + k);
        List<String> features = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            features.add(String.format("f%03d", j));
        }
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        for (int c = 0; c < k; c++) {
            classes.put(label(c), sampleClass(d, random));
        }
        long applied = (long) k * EVENTS_PER_CLASS;
        PartialSnapshot snapshot = new PartialSnapshot(MODEL_ID,
                new PartitionProgress(0, applied, applied, 0, features), classes);
        byte[] snapshotBytes = SerdeFactory.partialSnapshot().serializer().serialize("t", snapshot);
        // The combiner keeps the record value as it came, under the key "partial:<partition>".
        int combinerEntry = COMBINER_KEY.getBytes(StandardCharsets.UTF_8).length + snapshotBytes.length;

        ModelParameters model = ModelParameters.ofStatistics(MODEL_ID, 1_000_000L, features, classes,
                Map.of("0", applied / 4, "1", applied / 4, "2", applied / 4, "3", applied / 4),
                "2026-11-22T10:00:00Z", "");
        byte[] modelJson = SerdeFactory.model().serializer().serialize("t", model);
        return new Sizes(d, k, snapshotBytes.length, combinerEntry, modelJson.length);
    }

    /** Correlated Gaussian data around a random mean: coordinates as a real model has them (all 17 digits). */
    private static RunningGaussian sampleClass(int d, Random random) {
        double[] mean = new double[d];
        for (int j = 0; j < d; j++) {
            mean[j] = 20 * random.nextDouble() - 10;
        }
        RunningGaussian g = new RunningGaussian(d);
        double[] z = new double[d];
        double[] x = new double[d];
        for (int i = 0; i < EVENTS_PER_CLASS; i++) {
            for (int j = 0; j < d; j++) {
                z[j] = random.nextGaussian();
                x[j] = mean[j] + z[j] + (j > 0 ? 0.5 * z[j - 1] : 0);
            }
            g.update(x);
        }
        return g;
    }

    private static String label(int c) {
        return "class-" + c;
    }

    /**
     * PartialSnapshotSerde's layout: version byte, model id, partition, three longs, features, classes; strings
     * as int length + UTF-8; each class as label, int length and RunningGaussian bytes (version byte, int d,
     * long n, pivot and mean of d doubles, the packed triangle of d(d+1)/2 doubles).
     */
    private static int expectedSnapshotBytes(int d, int k) {
        int header = 1 + (4 + MODEL_ID.length()) + 4 + 3 * 8 + 4 + d * (4 + "f000".length()) + 4;
        int gaussian = 1 + 4 + 8 + 2 * d * 8 + d * (d + 1) / 2 * 8;
        int perClass = 0;
        for (int c = 0; c < k; c++) {
            perClass += 4 + label(c).length() + 4 + gaussian;
        }
        return header + perClass;
    }
}
