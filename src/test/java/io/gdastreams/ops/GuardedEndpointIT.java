package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.reliability.HostileRecords;
import io.gdastreams.reliability.ProductProcess;
import io.gdastreams.serde.Json;
import io.gdastreams.topology.Topics;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guarded endpoint of the product's own commands (child JVMs from the slim jar) on a real broker: a trainer on
 * plain HTTP with its token in a file, a scorer on HTTPS (a keystore made here with the JDK's keytool, password from
 * the environment) with its token from the environment. The trainer also protects health and metrics
 * ({@code gda.http.protect-metrics=true}). Without or with a wrong token: 401 and the challenge; with
 * the right one: 200; health and metrics open; 413 above the size limit; 400 for bad JSON. Neither the token nor the
 * keystore password appears in anything the processes print.
 */
@ExtendWith(KafkaBrokerExtension.class)
class GuardedEndpointIT {

    private static final String MODEL_ID = "guarded";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int MAX_REQUEST_BYTES = 2048;
    private static final String TOKEN = "it-token-7Qx2vLp9Zr";
    private static final String TRAINER_TOKEN = "it-trainer-token-K3m8";
    private static final String PASSWORD = "it-keystore-pw-4Hs6";
    private static final Path SERVICE_JAR = Path.of("target", "gda-streams-service.jar");
    private static final Pattern ENDPOINT = Pattern.compile(": HTTP endpoint on (https?)://([^:]+):(\\d+) ");

    @TempDir
    Path dir;

    @Test
    void shouldAskTheTokenOverHttpsAndHttpAndNeverPrintIt(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> trainConfig = ProductProcess.testConfig(broker.bootstrapServers(), topics, MODEL_ID,
                KafkaBroker.uniqueName("guarded"), dir.resolve("state"), 1);
        trainConfig.put("gda.features", String.join(",", Iris.FEATURES));
        trainConfig.put("gda.http.port", "0");
        Path tokenFile = Files.writeString(dir.resolve("trainer.token"), TRAINER_TOKEN + "\n");
        trainConfig.put("gda.http.token.file", tokenFile.toString());
        Map<String, String> scoreConfig = new java.util.LinkedHashMap<>(trainConfig);
        scoreConfig.remove("gda.http.token.file");
        trainConfig.put("gda.http.protect-metrics", "true");
        scoreConfig.put("gda.http.max-request-bytes", Integer.toString(MAX_REQUEST_BYTES));
        Path keystore = TestKeystore.make(dir, PASSWORD);
        scoreConfig.put("gda.http.tls.keystore", keystore.toString());

        try (ProductProcess scorer = new ProductProcess(ProductProcess.Command.SCORE, scoreConfig, dir, "scorer")
                     .fromJar(SERVICE_JAR).withEnvironment(Map.of("GDA_HTTP_TOKEN", TOKEN,
                             "GDA_HTTP_TLS_KEYSTORE_PASSWORD", PASSWORD));
             ProductProcess trainer = new ProductProcess(ProductProcess.Command.TRAIN, trainConfig, dir, "trainer")
                     .fromJar(SERVICE_JAR);
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            trainer.start();
            trainer.awaitRunning(TIMEOUT);
            scorer.start();
            scorer.awaitRunning(TIMEOUT);
            Client training = Client.fromLog(trainer.log(), null);
            Client scoring = Client.fromLog(scorer.log(), trustOnly(keystore));
            assertNotNull(training, trainer.log());
            assertNotNull(scoring, scorer.log());
            assertEquals("http", training.scheme);
            assertEquals("https", scoring.scheme, "a keystore turns the endpoint to HTTPS");

            List<LabelledRow> rows = Iris.rows();
            for (int i = 0; i < rows.size(); i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), bytes("l" + i),
                        HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label())));
            }
            producer.flush();

            // Open without a token: health and metrics, the page and its script. The trainer protects its health
            // and metrics (gda.http.protect-metrics=true): they need its token, the page and script stay open.
            for (String open : List.of("/health/live", "/metrics", "/", "/dashboard.js")) {
                assertEquals(200, scoring.get(open, null).statusCode(), open);
            }
            for (String open : List.of("/", "/dashboard.js")) {
                assertEquals(200, training.get(open, null).statusCode(), open);
            }
            for (String guarded : List.of("/health/live", "/health/ready", "/metrics")) {
                assertRefused(training.get(guarded, null), null);
                assertRefused(training.get(guarded, "Bearer " + TOKEN), "the scorer's token");
                // Ready may still say 503 (restoring); what matters is that the token is accepted.
                int status = training.get(guarded, "Bearer " + TRAINER_TOKEN).statusCode();
                assertTrue(status == 200 || guarded.equals("/health/ready") && status == 503, guarded + ": " + status);
            }
            // Guarded: no token, another scheme, a wrong token (the trainer's), the right token with a byte more.
            for (String header : new String[] {null, "Basic " + TOKEN, "Bearer " + TRAINER_TOKEN,
                    "Bearer " + TOKEN + "x"}) {
                for (String path : List.of("/models/" + MODEL_ID, "/api/summary", "/api/history")) {
                    assertRefused(scoring.get(path, header), header);
                }
                assertRefused(scoring.post("/score", unlabelled(rows.get(0), "x"), header), header);
            }
            assertRefused(training.get("/models/" + MODEL_ID, "Bearer " + TOKEN), "the scorer's token");

            // The right token: the model once the trainer published it (both), the dashboard data, a score.
            awaitStatus(training, "/models/" + MODEL_ID, "Bearer " + TRAINER_TOKEN, 200, trainer);
            awaitStatus(scoring, "/models/" + MODEL_ID, "Bearer " + TOKEN, 200, scorer);
            assertEquals(200, scoring.get("/api/summary", "Bearer " + TOKEN).statusCode());
            assertEquals(200, training.get("/api/summary", "Bearer " + TRAINER_TOKEN).statusCode());
            HttpResponse<byte[]> scored = scoring.post("/score", unlabelled(rows.get(0), "s0"), "Bearer " + TOKEN);
            assertEquals(200, scored.statusCode(), text(scored));
            assertTrue(text(scored).contains("\"setosa\""), text(scored));
            HttpResponse<byte[]> badJson = scoring.post("/score", bytes("{not json"), "Bearer " + TOKEN);
            assertEquals(400, badJson.statusCode(), text(badJson));
            HttpResponse<byte[]> tooLarge = scoring.post("/score", new byte[MAX_REQUEST_BYTES + 1],
                    "Bearer " + TOKEN);
            assertEquals(413, tooLarge.statusCode(), text(tooLarge));

            String logs = scorer.allLogs() + trainer.allLogs();
            for (String secret : List.of(TOKEN, TRAINER_TOKEN, PASSWORD)) {
                assertFalse(logs.contains(secret), "a secret in the processes' output");
            }
            assertTrue(scorer.log().contains("bearer token required"), scorer.log());
        }
    }

    private static void assertRefused(HttpResponse<byte[]> response, String presented) {
        assertEquals(401, response.statusCode(), presented + ": " + text(response));
        assertEquals("Bearer realm=\"gda-streams\"", response.headers().firstValue("WWW-Authenticate").orElse(null));
        assertTrue(text(response).contains("\"error\""), text(response));
        for (String secret : List.of(TOKEN, TRAINER_TOKEN)) {
            assertFalse(text(response).contains(secret), "a 401 quotes a token: " + text(response));
        }
    }

    private static void awaitStatus(Client client, String path, String header, int status, ProductProcess process)
            throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        HttpResponse<byte[]> last = null;
        while (System.nanoTime() < deadline) {
            process.assertAlive();
            last = client.get(path, header);
            if (last.statusCode() == status) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(path + " never " + status + "; last: " + (last == null ? null
                : last.statusCode() + " " + text(last)));
    }

    /** A client context that trusts exactly the keystore's certificate (not the private key: only its certificate). */
    private static SSLContext trustOnly(Path keystore) throws Exception {
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            server.load(in, PASSWORD.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("gda", server.getCertificate("gda"));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    /** The endpoint a process printed, over HTTP or HTTPS. */
    private static final class Client {
        private final String scheme;
        private final String base;
        private final HttpClient http;

        private Client(String scheme, String host, int port, SSLContext tls) {
            this.scheme = scheme;
            this.base = scheme + "://" + host + ":" + port;
            HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
            this.http = (tls == null ? builder : builder.sslContext(tls)).build();
        }

        static Client fromLog(String log, SSLContext tls) {
            Matcher m = ENDPOINT.matcher(log);
            return m.find() ? new Client(m.group(1), m.group(2), Integer.parseInt(m.group(3)), tls) : null;
        }

        HttpResponse<byte[]> get(String path, String authorization) throws Exception {
            return send(request(path, authorization).GET());
        }

        HttpResponse<byte[]> post(String path, byte[] body, String authorization) throws Exception {
            return send(request(path, authorization).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        }

        private HttpRequest.Builder request(String path, String authorization) {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(10));
            return authorization == null ? builder : builder.header("Authorization", authorization);
        }

        private HttpResponse<byte[]> send(HttpRequest.Builder request) throws Exception {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        }
    }

    private static byte[] unlabelled(LabelledRow row, String id) {
        return Json.toBytes(Map.of("id", id, "features", row.features(Iris.FEATURES)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
