package io.gdastreams.ops;

import static io.gdastreams.ops.OpsHttp.metric;
import static io.gdastreams.ops.OpsHttp.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.reliability.HostileRecords;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.serde.Json;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.ScorerFit;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP endpoint of the product's own {@code train} and {@code score} commands (child JVMs running the slim
 * service jar, configured by file, {@code gda.http.port=0}) on a real broker: every route, with the figures checked against what the topics hold.
 * {@code /metrics} is read by an independent Prometheus text-format parser (Hawkular's), not by the registry that
 * wrote it. {@code POST /score} must give, byte for byte, the record the topology wrote for the same event.
 * The tied scorer form is checked by identities (Σβ_k = μ_k with the pooled Σ computed here from the published
 * class covariances; γ_k = −½μ_kᵀβ_k + log π_k) and by its posteriors, softmax(β_kᵀx + γ_k), against the
 * scorer's (a tied scorer, which computes them another way: one triangular solve against the pooled factor).
 */
@ExtendWith(KafkaBrokerExtension.class)
class OpsEndpointIT {

    private static final String MODEL_ID = "ops";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    /**
     * A look of the binder's takes milliseconds; this covers a loaded machine's scheduling and the scrape itself, and
     * is still far below Micrometer's default minute (before the 5 s refresh this test measured 58.7 s).
     */
    private static final Duration SCRAPE_SLACK = Duration.ofSeconds(10);
    /** Σβ_k against μ_k, relative to the size of μ_k: a solve of a well-conditioned 4×4 system. */
    private static final double SOLVE_TOLERANCE = 1e-9;
    /** Posteriors from β, γ against the scorer's, absolute: two exact-arithmetic-equivalent computations. */
    private static final double POSTERIOR_TOLERANCE = 1e-9;
    private static final int HELD = 5;
    private static final int SCORED = 30;
    private static final int MAX_REQUEST_BYTES = 4096;
    /** Both commands run from the slim jar, as an operator runs them: it must ship what the endpoint needs. */
    private static final Path SERVICE_JAR = Path.of("target", "gda-streams-service.jar");

    @TempDir
    Path dir;

    @Test
    void shouldServeHealthMetricsModelsAndScoresOfTrainAndScore(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> trainConfig = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID,
                KafkaBroker.uniqueName("ops"), dir.resolve("state"), 2);
        trainConfig.put("gda.features", String.join(",", Iris.FEATURES));
        trainConfig.put("gda.http.port", "0");
        trainConfig.put("gda.progress.interval.ms", "1000");
        Map<String, String> scoreConfig = new LinkedHashMap<>(trainConfig);
        scoreConfig.put("gda.covariance", "tied");
        scoreConfig.put("gda.http.max-request-bytes", Integer.toString(MAX_REQUEST_BYTES));

        try (ProductProcess scorer = new ProductProcess(ProductProcess.Command.SCORE, scoreConfig, dir, "scorer")
                     .fromJar(SERVICE_JAR);
             ProductProcess trainer = new ProductProcess(ProductProcess.Command.TRAIN, trainConfig, dir, "trainer")
                     .fromJar(SERVICE_JAR);
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            scorer.start();
            scorer.awaitRunning(TIMEOUT);
            OpsHttp scoring = OpsHttp.fromLog(scorer.log());
            assertNotNull(scoring, scorer.log());
            assertEquals("127.0.0.1", scoring.host(), "bound to the loopback interface by default");

            // No model yet: live, not ready (with the reason), events held and counted, /score refused with 503.
            assertEquals(200, scoring.get("/health/live").statusCode());
            HttpResponse<byte[]> notReady = await(scoring, "/health/ready",
                    r -> OpsHttp.text(r).contains("\"state\":\"RUNNING\""), scorer);
            assertEquals(503, notReady.statusCode(), OpsHttp.text(notReady));
            assertTrue(OpsHttp.text(notReady).contains("no model in force"), OpsHttp.text(notReady));
            assertEquals(503, scoring.post("/score", unlabelled(Iris.rows().get(0), "x")).statusCode());
            assertEquals(404, scoring.get("/models/" + MODEL_ID).statusCode());
            for (int i = 0; i < HELD; i++) {
                producer.send(new ProducerRecord<>(topics.unlabelled().name(), bytes("h" + i),
                        unlabelled(Iris.rows().get(i * 29), "h" + i))).get();
            }
            awaitMetric(scoring, "gda_pending_events", Map.of(), HELD, scorer);

            trainer.start();
            trainer.awaitRunning(TIMEOUT);
            OpsHttp training = OpsHttp.fromLog(trainer.log());
            assertNotNull(training, trainer.log());
            assertStoreMetricsSoonAfterReady(training, trainer);
            List<LabelledRow> rows = Iris.rows();
            for (int i = 0; i < rows.size(); i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), bytes("l" + i),
                        HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label())));
            }
            producer.send(new ProducerRecord<>(topics.labelled().name(), bytes("bad"), bytes("{not json"))).get();
            producer.send(new ProducerRecord<>(topics.labelled().name(), bytes("three"),
                    bytes("{\"features\": {\"sepal_length\": 5.0, \"sepal_width\": 3.0, \"petal_length\": 1.5},"
                            + " \"label\": \"setosa\"}"))).get();

            List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, trainer::assertAlive);
            ModelParameters last = models.get(models.size() - 1).value();
            List<ConsumerRecord<String, byte[]>> records = broker.readAll(topics.modelRecords(),
                    Duration.ofSeconds(5));
            byte[] lastBytes = records.get(records.size() - 1).value();

            // The trainer: the model it published last, byte for byte; its counts; ready; no /score.
            HttpResponse<byte[]> trained = await(training, "/models/" + MODEL_ID,
                    r -> r.statusCode() == 200 && version(r) == last.version(), trainer);
            assertArrayEquals(lastBytes, trained.body());
            assertEquals(200, training.get("/health/ready").statusCode());
            assertEquals(200, training.get("/health/live").statusCode());
            assertEquals(404, training.post("/score", unlabelled(rows.get(0), "x")).statusCode());
            List<MetricFamily> trainMetrics = training.metrics();
            assertEquals(rows.size(), value(trainMetrics, "gda_events_applied_total", Map.of()));
            assertEquals(1, value(trainMetrics, "gda_dead_letters_total", Map.of("reason", "invalid_event")));
            assertEquals(1, value(trainMetrics, "gda_dead_letters_total", Map.of("reason", "schema_mismatch")));
            assertEquals(0, value(trainMetrics, "gda_dead_letters_total", Map.of("reason", "model_bound")));
            assertEquals(last.version(), value(trainMetrics, "gda_model_version", Map.of()));
            assertEquals(0, value(trainMetrics, "gda_model_classes_left_out", Map.of()));
            assertKafkaStreamsMetrics(trainMetrics);

            // The scorer: the same model in force, ready; the held events were answered.
            HttpResponse<byte[]> inForce = await(scoring, "/models/" + MODEL_ID,
                    r -> r.statusCode() == 200 && version(r) == last.version(), scorer);
            assertArrayEquals(lastBytes, inForce.body());
            HttpResponse<byte[]> ready = await(scoring, "/health/ready", r -> r.statusCode() == 200, scorer);
            assertTrue(OpsHttp.text(ready).contains("\"version\":" + last.version()), OpsHttp.text(ready));

            List<byte[]> events = new ArrayList<>();
            for (int i = 0; i < SCORED; i++) {
                String id = "u" + i;
                events.add(unlabelled(rows.get((i * 37) % rows.size()), id));
                producer.send(new ProducerRecord<>(topics.unlabelled().name(), bytes(id), events.get(i)));
            }
            byte[] badEvent = bytes("{\"features\": [1, 2");
            producer.send(new ProducerRecord<>(topics.unlabelled().name(), null, badEvent)).get();
            int answers = HELD + SCORED + 1;
            List<ConsumerRecord<byte[], byte[]>> predictions = broker.readUntil(topics.predictions().name(),
                    new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                    new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                    r -> r.size() >= answers, TIMEOUT);
            assertEquals(answers, predictions.size());

            // POST /score: the topology's bytes for the same event and model, every one.
            Map<String, byte[]> byId = new LinkedHashMap<>();
            byte[] unscoredOnTopic = null;
            Map<String, Integer> byStatus = new LinkedHashMap<>(Map.of("scored", 0, "unscored", 0));
            for (ConsumerRecord<byte[], byte[]> p : predictions) {
                JsonNode node = Json.mapper().readTree(p.value());
                byStatus.merge(node.get("status").asText(), 1, Integer::sum);
                if (node.path("id").isTextual()) {
                    byId.put(node.get("id").asText(), p.value());
                } else {
                    unscoredOnTopic = p.value();
                }
            }
            for (int i = 0; i < SCORED; i++) {
                HttpResponse<byte[]> answer = scoring.post("/score", events.get(i));
                assertEquals(200, answer.statusCode(), OpsHttp.text(answer));
                assertArrayEquals(byId.get("u" + i), answer.body(), "u" + i);
            }
            HttpResponse<byte[]> refused = scoring.post("/score", badEvent);
            assertEquals(400, refused.statusCode());
            assertArrayEquals(unscoredOnTopic, refused.body());
            assertTrue(OpsHttp.text(refused).contains("\"status\":\"unscored\""), OpsHttp.text(refused));

            // The tied scorer form: identities, and its posteriors against the scorer's.
            HttpResponse<byte[]> tied = scoring.get("/models/" + MODEL_ID + "?covariance=tied");
            assertEquals(200, tied.statusCode(), OpsHttp.text(tied));
            checkLinearForm(last, Json.mapper().readTree(tied.body()).get("scorerForm"), events, byId);

            // The scorer's figures, read back through the parser.
            // The held events waited for a model that can score them (the first models in force may have every
            // class below gda.min.count): all are scored; the one unscored answer is the unreadable event's.
            List<MetricFamily> scoreMetrics = scoring.metrics();
            assertEquals(Map.of("scored", HELD + SCORED, "unscored", 1), byStatus);
            assertEquals(byStatus.get("scored").doubleValue(), value(scoreMetrics, "gda_predictions_total",
                    Map.of("status", "scored")), byStatus.toString());
            assertEquals(byStatus.get("unscored").doubleValue(), value(scoreMetrics, "gda_predictions_total",
                    Map.of("status", "unscored")), byStatus.toString());
            assertEquals(1, value(scoreMetrics, "gda_dead_letters_total", Map.of("reason", "invalid_event")));
            assertEquals(0, value(scoreMetrics, "gda_dead_letters_total", Map.of("reason", "schema_mismatch")));
            assertEquals(0, value(scoreMetrics, "gda_pending_events", Map.of()));
            assertEquals(last.version(), value(scoreMetrics, "gda_model_version", Map.of()));
            // The scorer states its fit (tied here), digest and all, as score read it from its configuration file.
            ScorerFit fit = ScorerFit.of(AppConfig.load(scorer.configFile(), Map.of()).scoringSettings());
            assertEquals(1, value(scoreMetrics, "gda_scoring_fit_info", Map.of("covariance", "tied", "estimator",
                    "mle", "fit", fit.digest())));
            double age = value(scoreMetrics, "gda_model_age_seconds", Map.of());
            assertTrue(age >= 0 && age < TIMEOUT.toSeconds(), "model age " + age);
            Histogram latency = (Histogram) metric(scoreMetrics, "gda_scoring_latency_seconds", Map.of());
            assertEquals(answers, latency.getSampleCount());
            assertTrue(latency.getSampleSum() > 0, "latency sum " + latency.getSampleSum());
            assertKafkaStreamsMetrics(scoreMetrics);

            // What is not served, and the bounds.
            assertEquals(404, scoring.get("/models/other").statusCode());
            assertEquals(404, scoring.get("/nothing-here").statusCode());
            assertEquals(405, scoring.get("/score").statusCode());
            assertEquals(Optional.of("POST"), scoring.get("/score").headers().firstValue("Allow"), "RFC 9110 15.5.6");
            assertEquals(405, scoring.post("/metrics", new byte[0]).statusCode());
            assertEquals(Optional.of("GET, HEAD"), scoring.post("/metrics", new byte[0]).headers()
                    .firstValue("Allow"));
            assertEquals(400, scoring.get("/models/" + MODEL_ID + "?covariance=full").statusCode());
            byte[] large = new byte[MAX_REQUEST_BYTES + 1];
            Arrays.fill(large, (byte) ' ');
            assertEquals(413, scoring.post("/score", large).statusCode());

            // One progress line per interval (1 s here), from the same counters.
            assertTrue(scorer.log().contains("scoring: " + answers + " events answered"), scorer.tails(20));
            assertTrue(trainer.log().contains("training: " + rows.size() + " events applied"), trainer.tails(20));

            // Micrometer's Kafka binder registers a store's renamed meters again whenever Kafka's metrics change;
            // Micrometer's note of it is not a warning to the operator (docs/CLI.md lists a start's WARN lines).
            for (ProductProcess child : List.of(scorer, trainer)) {
                assertFalse(child.log().contains("[WARN] MeterRegistry"), child.tails(40));
            }
        }
    }

    /** Σβ_k = μ_k, γ_k = −½μ_kᵀβ_k + log π_k, and softmax(β_kᵀx + γ_k) = the scorer's p(k | x). */
    private static void checkLinearForm(ModelParameters model, JsonNode form, List<byte[]> events,
                                        Map<String, byte[]> byId) throws Exception {
        assertEquals("tied", form.get("covariance").asText());
        int d = model.features().size();
        double[][] pooled = new double[d][d];
        for (ClassParameters c : model.classes()) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    pooled[i][j] += c.count() * c.covariance()[i][j] / model.totalCount();
                }
            }
        }
        Map<String, double[]> beta = new LinkedHashMap<>();
        Map<String, Double> gamma = new LinkedHashMap<>();
        for (ClassParameters c : model.classes()) {
            JsonNode entry = form.get("classes").get(c.label());
            double[] b = new double[d];
            for (int i = 0; i < d; i++) {
                b[i] = entry.get("beta").get(i).asDouble();
            }
            double scale = 0;
            for (int i = 0; i < d; i++) {
                double sum = 0;
                for (int j = 0; j < d; j++) {
                    sum += pooled[i][j] * b[j];
                }
                scale = Math.max(scale, Math.abs(c.mean()[i]));
                assertEquals(c.mean()[i], sum, SOLVE_TOLERANCE * Math.max(1, scale), c.label() + " Σβ[" + i + "]");
            }
            double expectedGamma = Math.log(c.prior());
            for (int i = 0; i < d; i++) {
                expectedGamma -= 0.5 * c.mean()[i] * b[i];
            }
            assertEquals(expectedGamma, entry.get("gamma").asDouble(), SOLVE_TOLERANCE * Math.abs(expectedGamma));
            beta.put(c.label(), b);
            gamma.put(c.label(), entry.get("gamma").asDouble());
        }
        for (byte[] event : events) {
            JsonNode e = Json.mapper().readTree(event);
            double[] x = new double[d];
            for (int i = 0; i < d; i++) {
                x[i] = e.get("features").get(model.features().get(i)).asDouble();
            }
            Map<String, Double> delta = new LinkedHashMap<>();
            double max = Double.NEGATIVE_INFINITY;
            for (String label : beta.keySet()) {
                double v = gamma.get(label);
                for (int i = 0; i < d; i++) {
                    v += beta.get(label)[i] * x[i];
                }
                delta.put(label, v);
                max = Math.max(max, v);
            }
            double total = 0;
            for (double v : delta.values()) {
                total += Math.exp(v - max);
            }
            JsonNode prediction = Json.mapper().readTree(byId.get(e.get("id").asText()));
            assertEquals("scored", prediction.get("status").asText());
            for (String label : delta.keySet()) {
                assertEquals(Math.exp(delta.get(label) - max) / total,
                        prediction.get("probabilities").get(label).asDouble(), POSTERIOR_TOLERANCE,
                        e.get("id").asText() + " p(" + label + ")");
            }
        }
    }

    private static void assertKafkaStreamsMetrics(List<MetricFamily> families) {
        assertTrue(families.stream().anyMatch(f -> f.getName().startsWith("kafka_stream")),
                "Kafka Streams' metrics through the binder");
    }

    /**
     * A client's store metrics exist only once its first rebalance has assigned it tasks, after the binder bound it;
     * the binder adds them at its next refresh. They are in {@code /metrics} within that refresh
     * ({@link OpsMetrics#STREAMS_METRICS_REFRESH}) and {@link #SCRAPE_SLACK} of the trainer being ready, not
     * Micrometer's default minute (a restarted client's families were missing that long).
     */
    private static void assertStoreMetricsSoonAfterReady(OpsHttp http, ProductProcess process) throws Exception {
        await(http, "/health/ready", r -> r.statusCode() == 200, process);
        long ready = System.nanoTime();
        String store = "state_id=\"" + TrainingTopology.CLASS_STATS_STORE + "\"";
        await(http, "/metrics", r -> OpsHttp.text(r).lines()
                .anyMatch(line -> line.startsWith("kafka_stream_state_") && line.contains(store)), process);
        Duration waited = Duration.ofNanos(System.nanoTime() - ready);
        assertTrue(waited.compareTo(OpsMetrics.STREAMS_METRICS_REFRESH.plus(SCRAPE_SLACK)) <= 0,
                "the trainer's store metrics appeared " + waited + " after it was ready");
    }

    private static void awaitMetric(OpsHttp http, String name, Map<String, String> labels, double expected,
                                    ProductProcess process) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        double seen = Double.NaN;
        while (System.nanoTime() < deadline) {
            process.assertAlive();
            seen = value(http.metrics(), name, labels);
            if (seen == expected) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(name + labels + " is " + seen + ", expected " + expected);
    }

    private static HttpResponse<byte[]> await(OpsHttp http, String path, Predicate<HttpResponse<byte[]>> done,
                                              ProductProcess process) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        HttpResponse<byte[]> last = null;
        while (System.nanoTime() < deadline) {
            process.assertAlive();
            last = http.get(path);
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(path + " never as expected; last: " + (last == null ? null
                : last.statusCode() + " " + OpsHttp.text(last)) + "\n" + process.tails(40));
    }

    private static long version(HttpResponse<byte[]> response) {
        try {
            return Json.mapper().readTree(response.body()).get("version").asLong();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] unlabelled(LabelledRow row, String id) {
        return Json.toBytes(Map.of("id", id, "features", row.features(Iris.FEATURES)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
