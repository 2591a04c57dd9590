package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import io.gdastreams.service.GroupCommittedInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * Test data and independent references for the training tests: the JSON of labelled events, the
 * numpy golden values (src/test/resources/fixtures/iris_golden.json, case 4 features / full / mle), a plain
 * two-pass batch MLE, and the TopologyTestDriver over the training topology.
 */
public final class TrainingFixtures {

    /** The sub-topology of the statistics tasks, as Kafka Streams numbers it (the global store counts too). */
    public static final int STATISTICS_SUBTOPOLOGY = TrainingTopology.build(TrainingSettings.defaults(Topics.defaults()),
            GroupCommittedInput::open)
            .describe().subtopologies().stream()
            .filter(s -> s.nodes().stream().anyMatch(n -> n.name().equals(TrainingTopology.PARTIAL_STATS)))
            .findFirst().orElseThrow().id();


    /**
     * The committed input of a topology test: TopologyTestDriver commits to no consumer group, so there is never a
     * committed offset, and a driver's state starts empty (the check of a restored state, {@link RestoreCheck}, is
     * tested with offsets in {@code RestoreCheckTest}, {@code TrainingPartialStatsProcessorTest} and on a broker
     * in {@code StaleRestoreIT}).
     */
    public static final CommittedInput.Source NO_CONSUMER_GROUP = configs -> new CommittedInput() {
        @Override
        public java.util.OptionalLong committedOffset(String topic, int partition) {
            return java.util.OptionalLong.empty();
        }

        @Override
        public boolean hasRecords(String topic, int partition, long from, long to) {
            throw new AssertionError("without a committed offset there is no range to read");
        }
    };

    /** The wall-clock time most topology tests start their driver at. */
    static final Instant DRIVER_START = Instant.parse("2026-01-01T00:00:00Z");

    /** Agreement of streamed (Welford + Chan) and batch statistics, relative to the scale of each quantity. */
    public static final double RELATIVE_TOLERANCE = 1e-12;

    /** Batch MLE of one class over named features. */
    public record Expected(long count, double prior, Map<String, Double> mean, Map<String, Map<String, Double>> cov) {
    }

    private TrainingFixtures() {
    }

    /**
     * The properties of a topology test: {@code applicationId}, a broker address that is never reached, and the
     * state under {@code stateDir}; Kafka Streams' defaults for the rest (at-least-once among them).
     */
    static Properties driverProperties(String applicationId, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return props;
    }

    /**
     * A driver over the training topology of {@code settings} with {@link #driverProperties} and no consumer group
     * ({@link #NO_CONSUMER_GROUP}), its wall clock at {@code start} (null: now, as the driver takes it).
     */
    static TopologyTestDriver trainingDriver(TrainingSettings settings, Path stateDir, String applicationId,
                                             Instant start) {
        return trainingDriver(settings, NO_CONSUMER_GROUP, driverProperties(applicationId, stateDir), start);
    }

    /** As {@link #trainingDriver(TrainingSettings, Path, String, Instant)}, with a processing guarantee. */
    static TopologyTestDriver trainingDriver(TrainingSettings settings, Path stateDir, String applicationId,
                                             Instant start, String guarantee) {
        Properties props = driverProperties(applicationId, stateDir);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        return trainingDriver(settings, NO_CONSUMER_GROUP, props, start);
    }

    /** A driver over the training topology of {@code settings} reading committed offsets from {@code input}. */
    static TopologyTestDriver trainingDriver(TrainingSettings settings, CommittedInput.Source input, Properties props,
                                             Instant start) {
        return new TopologyTestDriver(TrainingTopology.build(settings, input), props, start);
    }

    /** The JSON of a labelled event (README, "Topics"), features in file order. */
    public static byte[] labelledJson(List<String> names, double[] x, String label) {
        ObjectNode root = Json.mapper().createObjectNode();
        ObjectNode features = root.putObject("features");
        for (int i = 0; i < names.size(); i++) {
            features.put(names.get(i), x[i]);
        }
        root.put("label", label);
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Two-pass batch MLE: mean = Σx/n, then covariance = Σ(x−μ)(x−μ)ᵀ/n; prior = n_k/n. */
    public static Map<String, Expected> twoPassMle(List<String> names, List<LabelledRow> rows) {
        Map<String, List<double[]>> byLabel = new TreeMap<>();
        for (LabelledRow row : rows) {
            byLabel.computeIfAbsent(row.label(), l -> new ArrayList<>()).add(row.x());
        }
        int d = names.size();
        Map<String, Expected> expected = new TreeMap<>();
        for (var entry : byLabel.entrySet()) {
            List<double[]> xs = entry.getValue();
            double[] mean = new double[d];
            for (double[] x : xs) {
                for (int i = 0; i < d; i++) {
                    mean[i] += x[i];
                }
            }
            for (int i = 0; i < d; i++) {
                mean[i] /= xs.size();
            }
            double[][] cov = new double[d][d];
            for (double[] x : xs) {
                for (int i = 0; i < d; i++) {
                    for (int j = 0; j < d; j++) {
                        cov[i][j] += (x[i] - mean[i]) * (x[j] - mean[j]);
                    }
                }
            }
            for (double[] row : cov) {
                for (int j = 0; j < d; j++) {
                    row[j] /= xs.size();
                }
            }
            expected.put(entry.getKey(), named(names, xs.size(), (double) xs.size() / rows.size(), mean, cov));
        }
        return expected;
    }

    /** The numpy golden MLE (full covariance, 4 features) by label. */
    public static Map<String, Expected> goldenIrisMle() {
        Path path = Path.of("src", "test", "resources", "fixtures", "iris_golden.json");
        try {
            JsonNode root = Json.mapper().readTree(Files.readAllBytes(path));
            for (JsonNode c : root.get("cases")) {
                if (c.get("covarianceType").asText().equals("full") && c.get("estimator").asText().equals("mle")
                        && c.get("features").size() == 4) {
                    List<String> names = new ArrayList<>();
                    c.get("features").forEach(f -> names.add(f.asText()));
                    Map<String, Expected> expected = new TreeMap<>();
                    for (int k = 0; k < c.get("labels").size(); k++) {
                        double[] mean = Json.mapper().treeToValue(c.get("means").get(k), double[].class);
                        double[][] cov = Json.mapper().treeToValue(c.get("covariances").get(k), double[][].class);
                        expected.put(c.get("labels").get(k).asText(), named(names, c.get("counts").get(k).asLong(),
                                c.get("priors").get(k).asDouble(), mean, cov));
                    }
                    return expected;
                }
            }
            throw new IllegalStateException("no full/mle 4-feature case in " + path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Asserts that the model's classes equal {@code expected}: counts exactly; priors and means relative to their
     * magnitude; covariances relative to the correlation scale sqrt(Σ_ii Σ_jj), the natural unit of Σ_ij.
     */
    public static void assertModelEquals(Map<String, Expected> expected, ModelParameters model) {
        assertModelEquals(expected, model, RELATIVE_TOLERANCE);
    }

    /** As {@link #assertModelEquals(Map, ModelParameters)}, within {@code tolerance} relative to each scale. */
    public static void assertModelEquals(Map<String, Expected> expected, ModelParameters model, double tolerance) {
        assertEquals(List.copyOf(expected.keySet()), model.classes().stream().map(ClassParameters::label).toList(),
                "class labels");
        long total = expected.values().stream().mapToLong(Expected::count).sum();
        assertEquals(total, model.totalCount(), "totalCount");
        List<String> names = model.features();
        for (ClassParameters actual : model.classes()) {
            Expected e = expected.get(actual.label());
            String where = "class " + actual.label();
            assertEquals(e.count(), actual.count(), where + " count");
            assertRelative(e.prior(), actual.prior(), Math.abs(e.prior()), tolerance, where + " prior");
            for (int i = 0; i < names.size(); i++) {
                double mu = e.mean().get(names.get(i));
                assertRelative(mu, actual.mean()[i], Math.abs(mu), tolerance, where + " mean " + names.get(i));
                for (int j = 0; j < names.size(); j++) {
                    double sij = e.cov().get(names.get(i)).get(names.get(j));
                    double scale = Math.sqrt(e.cov().get(names.get(i)).get(names.get(i))
                            * e.cov().get(names.get(j)).get(names.get(j)));
                    assertRelative(sij, actual.covariance()[i][j], scale, tolerance,
                            where + " covariance " + names.get(i) + "," + names.get(j));
                }
            }
        }
    }

    private static void assertRelative(double expected, double actual, double scale, double tolerance,
                                       String what) {
        assertTrue(Math.abs(actual - expected) <= tolerance * scale,
                what + ": expected " + expected + " got " + actual + " (relative error "
                        + Math.abs(actual - expected) / scale + ")");
    }

    private static Expected named(List<String> names, long count, double prior, double[] mean, double[][] cov) {
        Map<String, Double> m = new TreeMap<>();
        Map<String, Map<String, Double>> c = new TreeMap<>();
        for (int i = 0; i < names.size(); i++) {
            m.put(names.get(i), mean[i]);
            Map<String, Double> row = new TreeMap<>();
            for (int j = 0; j < names.size(); j++) {
                row.put(names.get(j), cov[i][j]);
            }
            c.put(names.get(i), row);
        }
        return new Expected(count, prior, m, c);
    }
}
