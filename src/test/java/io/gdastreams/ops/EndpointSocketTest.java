package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.settings.HttpSecurity;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A guarded and an open route on a real (in-process) JDK server, through the JDK's HTTP client. */
class EndpointSocketTest {

    private static final String TOKEN = "unit-token-31";
    /** Far below the 30 s a probe waited behind slow clients, far above an answer's milliseconds. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    @Test
    void shouldGuardOnlyTheGuardedRoutesAndBoundSlowClients() throws Exception {
        String givenReqTime = System.getProperty("sun.net.httpserver.maxReqTime");
        String givenRspTime = System.getProperty("sun.net.httpserver.maxRspTime");
        HttpSecurity security = new HttpSecurity(Optional.of(TOKEN), false, Optional.empty());
        try (OpsServer server = EndpointSocket.open("127.0.0.1", 0, 64, security)) {
            server.route("/open", r -> OpsServer.Reply.json(200, "open"))
                    .guarded("/data", r -> OpsServer.Reply.json(200, r.body().length));
            server.start();
            HttpClient client = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.port();
            assertEquals(200, status(client, HttpRequest.newBuilder(URI.create(base + "/open")).GET()));
            HttpResponse<String> refused = client.send(HttpRequest.newBuilder(URI.create(base + "/data")).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, refused.statusCode());
            assertNotNull(refused.headers().firstValue("WWW-Authenticate").orElse(null));
            assertEquals(401, status(client, HttpRequest.newBuilder(URI.create(base + "/data"))
                    .header("Authorization", "Bearer " + TOKEN + "0").GET()));
            assertEquals(200, status(client, HttpRequest.newBuilder(URI.create(base + "/data"))
                    .header("Authorization", "Bearer " + TOKEN).GET()));
            // Refused before the body is read: no token, no 413 either (nothing about the request is disclosed).
            assertEquals(401, status(client, HttpRequest.newBuilder(URI.create(base + "/data"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[65]))));
            assertEquals(413, status(client, HttpRequest.newBuilder(URI.create(base + "/data"))
                    .header("Authorization", "Bearer " + TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[65]))));
        }
        // Unless given with -D, the JDK server's request and response time limits are set (read when it starts).
        assertEquals(givenReqTime != null ? givenReqTime : Long.toString(EndpointSocket.MAX_REQ_SECONDS),
                System.getProperty("sun.net.httpserver.maxReqTime"));
        assertEquals(givenRspTime != null ? givenRspTime : Long.toString(EndpointSocket.MAX_RSP_SECONDS),
                System.getProperty("sun.net.httpserver.maxRspTime"));
    }

    /**
     * The JDK server reads a request on a worker thread: clients that send their headers slowly each hold one for up
     * to the request time limit (30 s). Three of them, more than the two workers there were, left a probe waiting
     * those 30 s; now it is answered while they hold their threads.
     */
    @Test
    void shouldAnswerAProbeWhileSlowClientsHoldTheirRequestsOpen() throws Exception {
        HttpSecurity open = new HttpSecurity(Optional.empty(), false, Optional.empty());
        try (OpsServer server = EndpointSocket.open("127.0.0.1", 0, 64, open)) {
            server.route("/health/live", r -> OpsServer.Reply.json(200, "live"));
            server.start();
            try (SlowClients slow = SlowClients.hold("127.0.0.1", server.port(), 3)) {
                Thread.sleep(200); // the server has taken them to workers
                HttpResponse<String> probe = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + server.port() + "/health/live")).timeout(PROBE_TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, probe.statusCode());
            }
        }
    }

    /**
     * A chunked body that is not one (a chunk size of "zz") from a client that then waits: answered 400 at once. It
     * was answered nothing (the connection closed after the JDK's 30 s request time).
     */
    @Test
    void shouldAnswerAMalformedChunkedBodyAtOnceAndCloseItsConnection() throws Exception {
        HttpSecurity open = new HttpSecurity(Optional.empty(), false, Optional.empty());
        try (OpsServer server = EndpointSocket.open("127.0.0.1", 0, 64, open)) {
            server.route("/data", r -> OpsServer.Reply.json(200, r.body().length));
            server.start();
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout((int) PROBE_TIMEOUT.toMillis());
                socket.getOutputStream().write(("POST /data HTTP/1.1\r\nHost: localhost\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\nzz\r\n").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                // The answer, head and body, well before the request time (a timeout fails the test).
                String answer = answer(socket);
                assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
                assertTrue(answer.contains("the request body could not be read"), answer);
            }
        }
    }

    /** One answer read from {@code socket}: its head, then as many bytes of body as its Content-Length says. */
    private static String answer(Socket socket) throws java.io.IOException {
        java.io.InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return head.toString();
            }
            head.append((char) c);
        }
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)")
                .matcher(head);
        byte[] body = length.find() ? in.readNBytes(Integer.parseInt(length.group(1))) : new byte[0];
        return head + new String(body, StandardCharsets.UTF_8);
    }

    /** The management listener takes no body, and says so rather than name a setting that is not its own. */
    @Test
    void shouldRefuseABodyOnTheManagementListenerWithoutNamingTheEndpointsLimit() throws Exception {
        HttpSecurity open = new HttpSecurity(Optional.empty(), false, Optional.empty());
        try (OpsServer server = EndpointSocket.openManagement("127.0.0.1", 0, open)) {
            server.route("/metrics", r -> OpsServer.Reply.json(200, "metrics"));
            server.start();
            HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + server.port() + "/metrics")).POST(HttpRequest.BodyPublishers.ofString("x"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(413, refused.statusCode());
            assertTrue(refused.body().contains("this listener takes no request body"), refused.body());
        }
    }

    private static int status(HttpClient client, HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
