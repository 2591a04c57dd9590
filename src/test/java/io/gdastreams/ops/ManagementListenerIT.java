package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.topology.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product's own {@code score} (a child JVM from the slim jar) on a real broker with the endpoint and the
 * management listener ({@code gda.http.port=0}, {@code gda.http.management-port=0}, the latter on an address of its
 * own, {@code gda.http.management-host=127.0.0.2}: loopback too on Linux): health and metrics answer on the
 * management listener only, the model and {@code POST /score} on the endpoint only; with every worker of the endpoint
 * held by clients that never finish their requests, the readiness probe on the management listener still answers.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ManagementListenerIT {

    private static final String MODEL_ID = "managed";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    /** Far below the 30 s a probe waits behind slow clients that hold every worker, far above an answer's ms. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    /** The management listener's own address (all of 127/8 is loopback on Linux). */
    private static final String MANAGEMENT_HOST = "127.0.0.2";
    private static final Path SERVICE_JAR = Path.of("target", "gda-streams-service.jar");
    private static final Pattern API = Pattern.compile("scoring: HTTP endpoint on (http://\\S+) ");
    private static final Pattern MANAGEMENT = Pattern.compile("scoring: management endpoint on (http://\\S+) ");

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();

    @Test
    void shouldAnswerProbesOnTheManagementListenerWhileTheEndpointIsHeld(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID,
                KafkaBroker.uniqueName("managed"), dir.resolve("state"), 1);
        config.put("gda.features", String.join(",", Iris.FEATURES));
        config.put("gda.http.port", "0");
        config.put("gda.http.management-port", "0");
        config.put("gda.http.management-host", MANAGEMENT_HOST);
        List<LabelledRow> rows = Iris.rows();
        try (ProductProcess scorer = new ProductProcess(ProductProcess.Command.SCORE, config, dir, "scorer")
                .fromJar(SERVICE_JAR);
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            scorer.start();
            scorer.awaitRunning(TIMEOUT);
            URI api = URI.create(printed(API, scorer.log()));
            URI management = URI.create(printed(MANAGEMENT, scorer.log()));
            assertEquals("127.0.0.1", api.getHost(), "gda.http.host, the default");
            assertEquals(MANAGEMENT_HOST, management.getHost());
            producer.send(new ProducerRecord<>(topics.model().name(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    topics.model().valueBytes(Iris.model(MODEL_ID, 1, rows)))).get();
            awaitReady(management.resolve("/health/ready"), scorer);

            assertEquals(200, get(management.resolve("/health/live")).statusCode());
            String metrics = new String(get(management.resolve("/metrics")).body(), StandardCharsets.UTF_8);
            assertTrue(metrics.contains("gda_scoring_fit_info{"), metrics);
            for (String path : List.of("/health/live", "/health/ready", "/metrics")) {
                assertEquals(404, get(api.resolve(path)).statusCode(), path + " on the endpoint");
            }
            for (String path : List.of("/", "/models/" + MODEL_ID, "/score")) {
                assertEquals(404, get(management.resolve(path)).statusCode(), path + " on the management listener");
            }
            assertEquals(200, get(api.resolve("/models/" + MODEL_ID)).statusCode());
            HttpResponse<byte[]> scored = client.send(HttpRequest.newBuilder(api.resolve("/score"))
                    .timeout(PROBE_TIMEOUT).POST(HttpRequest.BodyPublishers.ofString("{\"id\": \"s0\", \"features\": "
                            + features(rows.get(0)) + "}")).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, scored.statusCode());
            assertTrue(new String(scored.body(), StandardCharsets.UTF_8).contains("\"label\":\"setosa\""),
                    new String(scored.body(), StandardCharsets.UTF_8));

            try (SlowClients slow = SlowClients.hold(api.getHost(), api.getPort(), OpsServer.THREADS + 4)) {
                Thread.sleep(500); // the endpoint has taken them to its workers
                HttpResponse<byte[]> held = null;
                try {
                    held = client.send(HttpRequest.newBuilder(api.resolve("/models/" + MODEL_ID))
                            .timeout(Duration.ofSeconds(1)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
                } catch (HttpTimeoutException expected) {
                    // every worker of the endpoint is held: what a probe there would meet
                }
                assertNull(held, "the endpoint answered although every worker was held: the test proves nothing");
                assertEquals(200, get(management.resolve("/health/ready")).statusCode());
                assertEquals(200, get(management.resolve("/metrics")).statusCode());
            }
            scorer.assertAlive();
        }
    }

    private HttpResponse<byte[]> get(URI uri) throws Exception {
        return client.send(HttpRequest.newBuilder(uri).timeout(PROBE_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private void awaitReady(URI ready, ProductProcess scorer) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        int status = -1;
        while (System.nanoTime() < deadline) {
            scorer.assertAlive();
            status = get(ready).statusCode();
            if (status == 200) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("never ready; last " + status + "\n" + scorer.log());
    }

    private static String printed(Pattern line, String log) {
        Matcher m = line.matcher(log);
        assertTrue(m.find(), log);
        return m.group(1);
    }

    private static String features(LabelledRow row) {
        StringBuilder json = new StringBuilder("{");
        for (int j = 0; j < Iris.FEATURES.size(); j++) {
            json.append(j == 0 ? "" : ", ").append('"').append(Iris.FEATURES.get(j)).append("\": ")
                    .append(row.x()[j]);
        }
        return json.append('}').toString();
    }
}
