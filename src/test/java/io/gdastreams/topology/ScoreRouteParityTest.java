package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /score}'s path ({@link LiveScoring#score}) writes the bytes the topology writes for the same event and
 * model, over six scorer settings (defaults, imputation and explanations with the tail test, top-k 1, an outlier
 * threshold, a decision threshold) and 80 events: seeded Iris rows with missing, null and unknown features and ids
 * of every kind, and hand-written edge cases (duplicate keys, trailing bytes, strings and booleans for numbers,
 * 1e100, −0, a lone surrogate, no JSON at all). From an HTTP audit that found none differ; kept so none will.
 */
class ScoreRouteParityTest {

    private static final Instant START = Instant.parse("2024-01-01T00:00:00Z");

    @TempDir
    Path stateDir;

    @Test
    void theRouteAnswersEveryEventWithTheTopologysBytes() {
        Map<String, ScoringSettings> variants = new LinkedHashMap<>();
        ScoringSettings base = ScoringSettings.defaults(ScoringFixtures.MODEL_ID);
        variants.put("defaults", base);
        variants.put("imputed+explain+outlierP", base.withExtras(new PredictionExtras(true, true,
                OptionalDouble.of(0.01))));
        variants.put("imputed", base.withExtras(new PredictionExtras(true, false, OptionalDouble.empty())));
        variants.put("topk1", base.withOutputTopK(1));
        variants.put("outlierThreshold", base.withOutlierThreshold(-3));
        variants.put("threshold", base.withDecisionRule(new DecisionRule.Threshold("virginica", 0.2)));
        List<String> events = events();
        List<String> differences = new ArrayList<>();
        int n = 0;
        for (Map.Entry<String, ScoringSettings> v : variants.entrySet()) {
            ScoringSettings settings = v.getValue();
            LiveScoring scoring = new LiveScoring(settings, StreamObserver.NONE);
            Topics topics = settings.topics();
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "parity-" + (n++));
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            try (TopologyTestDriver driver = new TopologyTestDriver(scoring.topology(), props, START)) {
                TestInputTopic<byte[], byte[]> in = DriverTopics.input(driver, topics.unlabelled());
                TestInputTopic<String, byte[]> models = DriverTopics.input(driver, topics.modelRecords());
                TestOutputTopic<byte[], byte[]> out = driver.createOutputTopic(topics.predictions().name(),
                        new ByteArrayDeserializer(), new ByteArrayDeserializer());
                ModelParameters model = ScoringFixtures.irisModel(1);
                models.pipeInput(model.modelId(), topics.model().valueBytes(model));
                for (String e : events) {
                    byte[] value = e.getBytes(StandardCharsets.UTF_8);
                    in.pipeInput(null, value, START.plusMillis(1));
                    List<byte[]> written = out.readValuesToList();
                    LiveScoring.Answer answer = scoring.score(value);
                    String topo = written.isEmpty() ? "<none>" : new String(written.get(0), StandardCharsets.UTF_8);
                    String rest = answer.bytes() == null ? "<null:" + answer.verdict() + ">"
                            : new String(answer.bytes(), StandardCharsets.UTF_8);
                    assertEquals(1, written.size(), "one answer per event: " + e);
                    if (!topo.equals(rest)) {
                        differences.add("[" + v.getKey() + "] " + e + "\n  topology " + topo + "\n  route    " + rest
                                + " (" + answer.verdict() + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), differences, differences.size() + " of " + events.size() * variants.size());
    }

    /** Seeded Iris rows with features missing or null, unknown features and ids of every kind; then edge cases. */
    private static List<String> events() {
        List<String> events = new ArrayList<>();
        Random random = new Random(7);
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 60; i++) {
            LabelledRow row = rows.get(random.nextInt(rows.size()));
            Map<String, Double> f = row.features(Iris.FEATURES);
            StringBuilder sb = new StringBuilder("{");
            int mode = random.nextInt(4);
            if (mode == 0) {
                sb.append("\"id\":\"e").append(i).append("\",");
            } else if (mode == 1) {
                sb.append("\"id\":").append(i).append(',');
            } else if (mode == 2) {
                sb.append("\"id\":null,");
            }
            sb.append("\"features\":{");
            boolean first = true;
            for (Map.Entry<String, Double> fe : f.entrySet()) {
                int r = random.nextInt(6);
                if (r == 0) {
                    continue; // missing
                }
                if (!first) {
                    sb.append(',');
                }
                first = false;
                sb.append('"').append(fe.getKey()).append("\":").append(r == 1 ? "null" : fe.getValue());
            }
            if (random.nextInt(8) == 0) {
                sb.append(first ? "" : ",").append("\"colour\":null");
                first = false;
            }
            if (first) {
                sb.append("\"sepal_length\":5.0");
            }
            sb.append("}");
            if (random.nextInt(5) == 0) {
                sb.append(",\"extra\":{\"a\":[1,2]}");
            }
            sb.append("}");
            events.add(sb.toString());
        }
        events.add("{\"features\":{\"sepal_length\":5.1,\"sepal_width\":3.5,\"petal_length\":1.4,\"petal_width\":0.2}}");
        events.add("{\"features\":{\"sepal_length\":1e99,\"sepal_width\":3.5}}");
        events.add("{\"features\":{\"sepal_length\":-0.0}}");
        events.add("{\"features\":{\"colour\":1.0,\"sepal_length\":5.0}}");
        events.add("{\"features\":{\"sepal_length\":5.0},\"id\":123456789012345678901234567890}");
        events.add("{\"features\":{\"sepal_length\":5.0},\"id\":1.5}");
        events.add("{\"features\":{\"sepal_length\":5.0},\"id\":\"\"}");
        events.add("{\"features\":{\"sepal_length\":5.0, \"sepal_length\":6.0}}");
        events.add("{\"features\":{\"sepal_length\":5.0}} ");
        events.add("{\"features\":{\"sepal_length\":5.0}}x");
        events.add("{\"features\":{\"sepal_length\":500000}}");
        events.add("{\"features\":{\"sepal_length\":1e100,\"sepal_width\":-1e100,\"petal_length\":1e100}}");
        events.add("{\"features\":{\"Sepal_length\":5.0}}");
        events.add("{\"features\":{\"sepal_length\":5}}");
        events.add("{\"features\":{\"sepal_length\":5.0}, \"label\":\"setosa\"}");
        events.add("{\"features\":{\"sepal_length\":\"5.0\"}}");
        events.add("{\"features\":{\"sepal_length\":true}}");
        events.add("[1]");
        events.add("");
        events.add("{\"id\":\"\\ud800\",\"features\":{\"sepal_length\":5.0}}");
        return events;
    }
}
