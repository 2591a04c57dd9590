package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.gdastreams.topology.Topics;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard of the product's own {@code train} and {@code score} (child JVMs on the slim service jar, a real
 * broker): {@code GET /} and its script; {@code /api/summary} against the model on the topic (version, classes,
 * counts, priors) and against {@code /metrics} read by the independent Prometheus parser (the same registry);
 * {@code /api/history} (ordered, bounded, a sample after the traffic agreeing with the topic);
 * {@code /api/regions} cell by cell against the scorer's own answer ({@code POST /score}, the topology's code) for an
 * event carrying only the two features at the cell's centre, computed here from the frame the grid states.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DashboardIT {

    private static final String MODEL_ID = "dash";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final Path SERVICE_JAR = Path.of("target", "gda-streams-service.jar");
    private static final int SCORED = 20;
    private static final int CELLS = 12;
    private static final String X = "petal_length";
    private static final String Y = "petal_width";
    /** Published means against the grid's: the same doubles through JSON twice. */
    private static final double EXACT = 0.0;

    @TempDir
    Path dir;

    @Test
    void shouldServeTheDashboardWithTheModelTheFiguresAndTheScorersRegions(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID,
                KafkaBroker.uniqueName("dash"), dir.resolve("state"), 2);
        config.put("gda.features", String.join(",", Iris.FEATURES));
        config.put("gda.http.port", "0");

        try (ProductProcess scorer = new ProductProcess(ProductProcess.Command.SCORE, config, dir, "scorer")
                     .fromJar(SERVICE_JAR);
             ProductProcess trainer = new ProductProcess(ProductProcess.Command.TRAIN, config, dir, "trainer")
                     .fromJar(SERVICE_JAR);
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            scorer.start();
            scorer.awaitRunning(TIMEOUT);
            OpsHttp scoring = OpsHttp.fromLog(scorer.log());
            assertNotNull(scoring, scorer.log());

            // The page and its script, from the jar.
            HttpResponse<byte[]> page = scoring.get("/");
            assertEquals(200, page.statusCode());
            assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElse(""));
            assertTrue(OpsHttp.text(page).contains("<script src=\"/dashboard.js\"></script>"), OpsHttp.text(page));
            HttpResponse<byte[]> script = scoring.get("/dashboard.js");
            assertEquals(200, script.statusCode());
            assertTrue(OpsHttp.text(script).contains("/api/summary") && OpsHttp.text(script).contains("/api/regions"));
            assertEquals(404, scoring.get("/index.html").statusCode(), "only the exact path / is the page");

            // No model yet: the summary says so, the regions are a 404.
            JsonNode empty = await(scoring, "/api/summary", s -> s.get("notReady").asText().startsWith("no model"),
                    scorer);
            assertEquals("scoring", empty.get("role").asText());
            assertEquals(MODEL_ID, empty.get("modelId").asText());
            assertTrue(empty.get("model").isNull(), empty.toString());
            assertEquals("no model in force: model '" + MODEL_ID + "' not published", empty.get("notReady").asText(),
                    "the reason /health/ready gives: " + empty);
            assertEquals(404, scoring.get("/api/regions?x=" + X + "&y=" + Y).statusCode());

            trainer.start();
            trainer.awaitRunning(TIMEOUT);
            OpsHttp training = OpsHttp.fromLog(trainer.log());
            assertNotNull(training, trainer.log());
            List<LabelledRow> rows = Iris.rows();
            for (int i = 0; i < rows.size(); i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), bytes("l" + i),
                        HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label())));
            }
            producer.send(new ProducerRecord<>(topics.labelled().name(), bytes("bad"), bytes("{not json"))).get();
            List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, trainer::assertAlive);
            ModelParameters last = models.get(models.size() - 1).value();

            // The summaries: the model on the topic, and the figures /metrics exports.
            JsonNode trained = await(training, "/api/summary", s -> version(s) == last.version(), trainer);
            assertEquals("training", trained.get("role").asText());
            checkModel(last, trained.get("model"));
            assertEquals(rows.size(), trained.get("metrics").get("eventsApplied").asLong());
            assertEquals(1, trained.get("metrics").get("deadLetters").get("invalid_event").asLong());
            List<MetricFamily> trainMetrics = training.metrics();
            assertEquals(OpsHttp.value(trainMetrics, "gda_events_applied_total", Map.of()),
                    trained.get("metrics").get("eventsApplied").asDouble());

            JsonNode inForce = await(scoring, "/api/summary",
                    s -> version(s) == last.version() && s.get("notReady").isNull(), scorer);
            checkModel(last, inForce.get("model"));
            double age = inForce.get("model").get("ageSeconds").asDouble();
            assertTrue(age >= 0 && age < TIMEOUT.toSeconds(), "model age " + age);
            for (int i = 0; i < SCORED; i++) {
                producer.send(new ProducerRecord<>(topics.unlabelled().name(), bytes("u" + i),
                        Json.toBytes(Map.of("id", "u" + i, "features", rows.get(i * 7).features(Iris.FEATURES)))));
            }
            producer.flush();
            broker.readUntil(topics.predictions().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    r -> r.size() >= SCORED, TIMEOUT);
            JsonNode figures = await(scoring, "/api/summary",
                    s -> s.get("metrics").get("latencyCount").asLong() >= SCORED, scorer).get("metrics");
            assertEquals(SCORED, figures.get("predictions").get("scored").asLong());
            assertEquals(0, figures.get("predictions").get("unscored").asLong());
            assertEquals(0, figures.get("pendingEvents").asLong());
            List<MetricFamily> scoreMetrics = scoring.metrics();
            Histogram latency = (Histogram) OpsHttp.metric(scoreMetrics, "gda_scoring_latency_seconds",
                    Map.of());
            assertEquals(latency.getSampleCount(), figures.get("latencyCount").asLong());
            assertEquals(latency.getSampleSum(), figures.get("latencySumSeconds").asDouble(), 1e-9);
            assertEquals(OpsHttp.value(scoreMetrics, "gda_predictions_total", Map.of("status", "scored")),
                    figures.get("predictions").get("scored").asDouble());

            // The history: samples of the same figures, oldest first, bounded; one taken after the traffic agrees.
            JsonNode history = awaitHistory(scoring, h -> h.size() > 0 && h.get(h.size() - 1).get("metrics")
                    .get("predictions").get("scored").asLong() == SCORED, scorer);
            assertTrue(history.size() <= DashboardHistory.CAPACITY, history.size() + " samples");
            for (int i = 1; i < history.size(); i++) {
                assertTrue(history.get(i).get("time").asLong() > history.get(i - 1).get("time").asLong());
            }
            JsonNode newest = history.get(history.size() - 1);
            assertEquals(last.version(), newest.get("model").get("version").asLong());
            assertEquals(SCORED, newest.get("metrics").get("latencyCount").asLong());

            // The regions: every cell is the scorer's answer for an event with only x and y, at the cell's centre.
            HttpResponse<byte[]> answer = scoring.get("/api/regions?x=" + X + "&y=" + Y + "&cells=" + CELLS);
            assertEquals(200, answer.statusCode(), OpsHttp.text(answer));
            JsonNode grid = json(answer);
            assertEquals(last.version(), grid.get("version").asLong());
            assertEquals(List.of("sepal_length", "sepal_width"), Json.mapper().convertValue(grid.get("marginalised"),
                    List.class));
            checkMeans(last, grid);
            double xMin = grid.get("xMin").asDouble();
            double xMax = grid.get("xMax").asDouble();
            double yMin = grid.get("yMin").asDouble();
            double yMax = grid.get("yMax").asDouble();
            Set<String> seen = new HashSet<>();
            for (int r = 0; r < CELLS; r++) {
                for (int c = 0; c < CELLS; c++) {
                    double x = xMin + (c + 0.5) * (xMax - xMin) / CELLS;
                    double y = yMax - (r + 0.5) * (yMax - yMin) / CELLS;
                    Map<String, Object> features = new LinkedHashMap<>();
                    features.put(X, x);
                    features.put(Y, y);
                    HttpResponse<byte[]> scored = scoring.post("/score",
                            Json.toBytes(Map.of("id", "cell", "features", features)));
                    assertEquals(200, scored.statusCode(), OpsHttp.text(scored));
                    String label = grid.get("labels").get(grid.get("cells").get(r).get(c).asInt()).asText();
                    assertEquals(json(scored).get("label").asText(), label, "cell " + r + "," + c + " at " + x + ","
                            + y);
                    seen.add(label);
                }
            }
            assertEquals(3, seen.size(), "the frame shows all three Iris regions: " + seen);
            // The trainer draws the same model with the same options: the same grid.
            assertEquals(grid, json(training.get("/api/regions?x=" + X + "&y=" + Y + "&cells=" + CELLS)));

            assertEquals(400, scoring.get("/api/regions?x=" + X + "&y=" + X).statusCode());
            assertEquals(400, scoring.get("/api/regions?x=" + X + "&y=nope").statusCode());
            assertEquals(400, scoring.get("/api/regions?x=" + X + "&y=" + Y + "&cells=201").statusCode());
            assertEquals(400, scoring.get("/api/regions?x=" + X + "&y=" + Y + "&cells=many").statusCode());
            assertEquals(405, scoring.post("/api/summary", new byte[0]).statusCode());
        }
    }

    private static void checkModel(ModelParameters expected, JsonNode model) {
        assertEquals(expected.version(), model.get("version").asLong());
        assertEquals(expected.totalCount(), model.get("totalCount").asLong());
        assertEquals(expected.updatedAt(), model.get("updatedAt").asText());
        assertEquals(Iris.FEATURES, Json.mapper().convertValue(model.get("features"), List.class));
        assertEquals(expected.classes().size(), model.get("classes").size());
        for (int k = 0; k < expected.classes().size(); k++) {
            ClassParameters c = expected.classes().get(k);
            JsonNode entry = model.get("classes").get(k);
            assertEquals(c.label(), entry.get("label").asText());
            assertEquals(c.count(), entry.get("count").asLong());
            assertEquals(c.prior(), entry.get("prior").asDouble(), EXACT);
        }
        assertEquals(150, expected.totalCount(), "Iris: 150 labelled events");
    }

    private static void checkMeans(ModelParameters model, JsonNode grid) {
        int xi = model.features().indexOf(X);
        int yi = model.features().indexOf(Y);
        assertEquals(model.classes().size(), grid.get("means").size());
        for (JsonNode mean : grid.get("means")) {
            ClassParameters c = model.classes().stream().filter(p -> p.label().equals(mean.get("label").asText()))
                    .findFirst().orElseThrow();
            assertEquals(c.mean()[xi], mean.get("x").asDouble(), EXACT);
            assertEquals(c.mean()[yi], mean.get("y").asDouble(), EXACT);
        }
    }

    private static JsonNode await(OpsHttp http, String path, Predicate<JsonNode> done, ProductProcess process)
            throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            process.assertAlive();
            HttpResponse<byte[]> response = http.get(path);
            if (response.statusCode() == 200) {
                last = json(response);
                if (done.test(last)) {
                    return last;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError(path + " never as expected; last: " + last + "\n" + process.tails(40));
    }

    private static JsonNode awaitHistory(OpsHttp http, Predicate<JsonNode> done, ProductProcess process)
            throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            process.assertAlive();
            HttpResponse<byte[]> response = http.get("/api/history");
            assertEquals(200, response.statusCode());
            last = json(response);
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("/api/history never as expected; last: " + last);
    }

    private static long version(JsonNode summary) {
        return summary.get("model").isNull() ? -1 : summary.get("model").get("version").asLong();
    }

    private static JsonNode json(HttpResponse<byte[]> response) throws java.io.IOException {
        return Json.mapper().readTree(response.body());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
