package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The largest prediction any accepted configuration can produce, through the production scoring topology: a
 * model of gda.max.classes × the default 4 partitions = 4,000 classes whose labels are 256 characters of 3-byte
 * UTF-8, an event whose key and id are as long as the scorer accepts (the id of control characters, 6 bytes each
 * in JSON), a 249-character model id, and an outlier flag. Before the listing was bounded such a prediction was
 * 3.2 MB (2,000 classes listed, 2,000 excluded), three times the broker's default record limit.
 */
class ScoringOutputBoundTest {

    /** The bound a prediction value must stay below (README, "Size limits"): key + value then fit in 1 MiB. */
    private static final int PREDICTION_VALUE_BOUND = 512 * 1024;
    /** Kafka's default record limit (producer max.request.size, broker message.max.bytes). */
    private static final int BROKER_DEFAULT_LIMIT = 1024 * 1024;
    private static final int PARTITIONS = 4;
    private static final int CLASSES = TrainingSettings.DEFAULT_MAX_CLASSES * PARTITIONS;
    /** Listed probabilities plus otherProbability against 1 (4,000 terms each within an ulp or so). */
    private static final double MASS_TOLERANCE = 1e-12;
    /** Each listed probability against the independent softmax (identity covariances: exact up to rounding). */
    private static final double RELATIVE_TOLERANCE = 1e-9;
    private static final double MEAN_SPACING = 0.01;
    private static final double[] EVENT = {10.00237, 0.5};
    private static final String MODEL_ID = "\u20ac".repeat(249);
    /**
     * The most an imputed map can take on the wire: every name character escaped (6 bytes), and per entry the
     * quotes, colon, comma and a 24-character number.
     */
    private static final int IMPUTED_BOUND_BYTES = 6 * PredictionDetails.MAX_IMPUTED_NAME_CHARS
            + 28 * PredictionDetails.MAX_IMPUTED_FEATURES;
    /**
     * The most a map of categorical feature → value can take on the wire, per entry: a name and a value of at most
     * 256 characters without control characters (the label's rules: at most 3 bytes of JSON each), the quotes, colon
     * and comma. {@code unseenValues} lists at most 16 entries, {@code imputedCategories} at most 8.
     */
    private static final int CATEGORY_ENTRY_BYTES = 2 * 3 * EventDecoder.MAX_LABEL_CHARS + 6;
    private static final int CATEGORY_MAPS_BOUND_BYTES = CATEGORY_ENTRY_BYTES
            * (CompiledCategories.MAX_UNSEEN_LISTED + CompiledCategories.MAX_IMPUTED_LISTED);

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    /** 256 UTF-16 units, each 3 bytes of UTF-8: four CJK digits of {@code i}, then the euro sign. */
    private static String label(int i) {
        String digits = String.format("%04d", i);
        StringBuilder s = new StringBuilder();
        for (char c : digits.toCharArray()) {
            s.append((char) (0x4E00 + (c - '0')));
        }
        String label = s + "\u20ac".repeat(EventDecoder.MAX_LABEL_CHARS - 4);
        assertEquals(3 * EventDecoder.MAX_LABEL_CHARS, label.getBytes(StandardCharsets.UTF_8).length);
        return label;
    }

    /**
     * Even classes take part (count 10, identity covariance, means 0.01 apart on the first axis); odd ones have
     * a single observation, below the minimum count 2, and are excluded.
     */
    private static ModelParameters model(boolean withScorable) {
        List<ClassParameters> classes = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < CLASSES; i++) {
            boolean scorable = withScorable && i % 2 == 0;
            long count = scorable ? 10 : 1;
            double[][] covariance = scorable ? new double[][] {{1, 0}, {0, 1}} : new double[][] {{0, 0}, {0, 0}};
            classes.add(new ClassParameters(label(i), count, 0.0, new double[] {(i / 2) * MEAN_SPACING, 0},
                    covariance));
            total += count;
        }
        return new ModelParameters(MODEL_ID, 7, List.of("x", "y"), total, classes, Map.of("0", total),
                "2026-01-01T00:00:00Z");
    }

    private byte[] scoreOne(ScoringSettings settings, ModelParameters model, byte[] key, byte[] event) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "scoring-bound");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        driver = new TopologyTestDriver(ScoringTopology.build(settings), props);
        Topics topics = settings.topics();
        TestInputTopic<String, ModelParameters> models = DriverTopics.input(driver, topics.model());
        TestInputTopic<byte[], byte[]> events = DriverTopics.input(driver, topics.unlabelled());
        // The prediction's size on the wire is what is bounded: read it as the bytes the topic holds.
        TestOutputTopic<byte[], byte[]> predictions = driver.createOutputTopic(topics.predictions().name(),
                topics.predictions().keyDeserializer(), SerdeFactory.rawBytes().deserializer());
        models.pipeInput(MODEL_ID, model);
        events.pipeInput(key, event);
        List<TestRecord<byte[], byte[]>> out = predictions.readRecordsToList();
        assertEquals(1, out.size());
        byte[] value = out.get(0).value();
        int recordBytes = (out.get(0).key() == null ? 0 : out.get(0).key().length) + value.length;
        System.out.printf("prediction of a %d-class model: value %,d B, key + value %,d B%n", CLASSES,
                value.length, recordBytes);
        assertTrue(value.length <= PREDICTION_VALUE_BOUND, "prediction value of " + value.length + " bytes");
        assertTrue(recordBytes < BROKER_DEFAULT_LIMIT, "prediction record of " + recordBytes + " bytes");
        return value;
    }

    private static byte[] longestKey() {
        byte[] key = new byte[OutputKey.MAX_BYTES];
        Arrays.fill(key, (byte) 'k');
        return key;
    }

    /** The longest id the scorer accepts (1024 bytes of UTF-8), each byte a control character. */
    private static byte[] eventWithLongestId() {
        String id = "\\u0001".repeat(ScoringProcessor.MAX_ID_BYTES);
        return ("{\"id\": \"" + id + "\", \"features\": {\"x\": " + EVENT[0] + ", \"y\": " + EVENT[1] + "}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static ScoringSettings settings() {
        return ScoringSettings.defaults(MODEL_ID).withOutlierThreshold(-1e6);
    }

    @Test
    void shouldListTheMostProbableClassesAndSummariseTheRestWithinTheRecordBound() {
        byte[] value = scoreOne(settings(), model(true), longestKey(), eventWithLongestId());
        Prediction p = SerdeFactory.prediction().deserializer().deserialize("p", value);
        assertEquals(Status.SCORED, p.status());
        int listed = ScoringSettings.MAX_OUTPUT_TOP_K;
        int scorable = CLASSES / 2;

        // Independent reference: equal priors and identity covariances, so p_k ∝ exp(−½‖x − μ_k‖²).
        Map<String, Double> reference = new HashMap<>();
        double[] logits = new double[scorable];
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < scorable; j++) {
            double dx = EVENT[0] - j * MEAN_SPACING;
            double dy = EVENT[1];
            logits[j] = -0.5 * (dx * dx + dy * dy);
            max = Math.max(max, logits[j]);
        }
        double sum = 0;
        for (double logit : logits) {
            sum += Math.exp(logit - max);
        }
        for (int j = 0; j < scorable; j++) {
            reference.put(label(2 * j), Math.exp(logits[j] - max) / sum);
        }
        List<String> byProbability = reference.keySet().stream()
                .sorted(Comparator.comparing(reference::get).reversed()).toList();
        assertEquals(new TreeSet<>(byProbability.subList(0, listed)), new TreeSet<>(p.probabilities().keySet()),
                "the listed classes are the most probable ones");
        assertEquals(byProbability.get(0), p.label());
        for (Map.Entry<String, Double> e : p.probabilities().entrySet()) {
            double expected = reference.get(e.getKey());
            assertEquals(expected, e.getValue(), expected * RELATIVE_TOLERANCE, e.getKey());
        }
        double otherReference = byProbability.subList(listed, scorable).stream().mapToDouble(reference::get).sum();
        assertTrue(otherReference > 0.1, "a real share of the mass is not listed: " + otherReference);
        assertEquals(otherReference, p.otherProbability(), otherReference * RELATIVE_TOLERANCE);
        assertEquals(scorable - listed, p.otherClasses());
        double listedMass = p.probabilities().values().stream().mapToDouble(Double::doubleValue).sum();
        assertEquals(1.0, listedMass + p.otherProbability(), MASS_TOLERANCE);

        List<String> excludedByName = IntStream.range(0, CLASSES).filter(i -> i % 2 == 1).mapToObj(i -> label(i))
                .sorted().toList();
        assertEquals(excludedByName.subList(0, listed), List.copyOf(p.excluded().keySet()));
        assertEquals("count 1 below minimum 2", p.excluded().get(excludedByName.get(0)));
        assertEquals(CLASSES / 2 - listed, p.otherExcluded());
        assertEquals(MODEL_ID, p.modelId());
        assertEquals("\u0001".repeat(ScoringProcessor.MAX_ID_BYTES), p.id());
    }

    /**
     * The same worst case with every optional part on: explanations, the tail probability, the outlier flag of both
     * tests, and an imputed feature. The explanation lists the 32 most probable of the listed classes, so the value
     * stays below the bound with room for the largest imputed map (measured in the next test) on top.
     */
    @Test
    void shouldStayWithinTheBoundWithExplanationsAndImputation() throws Exception {
        ScoringSettings settings = settings().withExtras(new PredictionExtras(true, true, OptionalDouble.of(0.01)));
        String id = "\\u0001".repeat(ScoringProcessor.MAX_ID_BYTES);
        byte[] event = ("{\"id\": \"" + id + "\", \"features\": {\"x\": " + EVENT[0] + "}}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] value = scoreOne(settings, model(true), longestKey(), event);
        Prediction p = SerdeFactory.prediction().deserializer().deserialize("p", value);
        assertEquals(PredictionDetails.MAX_EXPLAINED_CLASSES, p.explanation().classes().size());
        assertTrue(p.probabilities().keySet().containsAll(p.explanation().classes().keySet()));
        assertEquals(1, p.imputed().size());
        assertTrue(p.tailProbability() > 0.01 && !p.outlier(), "a point among the class means is no outlier");
        assertTrue(value.length + IMPUTED_BOUND_BYTES + CATEGORY_MAPS_BOUND_BYTES <= PREDICTION_VALUE_BOUND,
                "prediction value of " + value.length + " bytes leaves no room for the imputed map, the unseen values "
                        + "and the imputed categories");
    }

    /**
     * The largest imputed map: a model of 300 features whose names are 20 characters that JSON escapes (6 bytes
     * each), an event giving only the first. The map stops at 4096 characters of names (204 features, in model
     * order), counts the other 95, and stays within its bound.
     */
    @Test
    void shouldBoundTheImputedMapOfAModelWithManyLongFeatureNames() throws Exception {
        int d = 300;
        List<String> features = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            features.add("\u0001".repeat(16) + String.format("%04d", j));
        }
        double[][] identity = new double[d][d];
        for (int j = 0; j < d; j++) {
            identity[j][j] = 1.0;
        }
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", 10, 0.0, new double[d], identity),
                new ClassParameters("b", 10, 0.0, new double[d], identity));
        ModelParameters wide = new ModelParameters(MODEL_ID, 3, features, 20, classes, Map.of("0", 20L),
                "2026-01-01T00:00:00Z");
        byte[] event = Json.mapper().writeValueAsBytes(Map.of("features", Map.of(features.get(0), 0.5)));
        byte[] value = scoreOne(settings(), wide, "key".getBytes(StandardCharsets.UTF_8), event);
        Prediction p = SerdeFactory.prediction().deserializer().deserialize("p", value);
        int listed = PredictionDetails.MAX_IMPUTED_NAME_CHARS / 20;
        assertEquals(features.subList(1, 1 + listed), List.copyOf(p.imputed().keySet()));
        assertEquals(d - 1 - listed, p.otherImputed());
        // Both classes are centred at 0 with identity covariances: every conditional mean is 0.
        p.imputed().values().forEach(v -> assertEquals(0.0, v, 0.0));
        int imputedBytes = Json.mapper().writeValueAsBytes(p.imputed()).length;
        System.out.printf("imputed map of %d features: %,d B (bound %,d B)%n", listed, imputedBytes,
                IMPUTED_BOUND_BYTES);
        assertTrue(imputedBytes <= IMPUTED_BOUND_BYTES, "imputed map of " + imputedBytes + " bytes");
    }

    @Test
    void shouldBoundAnUnscoredPredictionWhenEveryClassOfAHugeModelIsExcluded() {
        // Events wait for a model that can score them; with no room to hold, the answer says why at once.
        byte[] value = scoreOne(settings().withMaxPending(0), model(false), longestKey(), eventWithLongestId());
        Prediction p = SerdeFactory.prediction().deserializer().deserialize("p", value);
        assertEquals(Status.UNSCORED, p.status());
        assertTrue(p.reason().startsWith("no model yet (no scorable class in model version 7: " + label(0)
                + " (count 1 below minimum 2); "), p.reason());
        assertTrue(p.reason().endsWith("; and " + (CLASSES - 10) + " more; 0 earlier events already held)"),
                p.reason());
        assertEquals(ScoringSettings.MAX_OUTPUT_TOP_K, p.excluded().size());
        assertEquals(CLASSES - ScoringSettings.MAX_OUTPUT_TOP_K, p.otherExcluded());
    }

    @Test
    void shouldListExactlyTopKClassesWhenConfigured() {
        int k = 3;
        byte[] value = scoreOne(settings().withOutputTopK(k), model(true), "key".getBytes(StandardCharsets.UTF_8),
                eventWithLongestId());
        Prediction p = SerdeFactory.prediction().deserializer().deserialize("p", value);
        // The three means nearest x = 10.00237 are 10.00, 10.01 and 9.99: classes 2000, 2002 and 1998, listed in
        // model order.
        assertEquals(List.of(label(1998), label(2000), label(2002)), List.copyOf(p.probabilities().keySet()));
        assertEquals(label(2000), p.label());
        assertEquals(CLASSES / 2 - k, p.otherClasses());
        assertEquals(k, p.excluded().size());
        assertEquals(CLASSES / 2 - k, p.otherExcluded());
        double listedMass = p.probabilities().values().stream().mapToDouble(Double::doubleValue).sum();
        assertEquals(1.0, listedMass + p.otherProbability(), MASS_TOLERANCE);
    }
}
