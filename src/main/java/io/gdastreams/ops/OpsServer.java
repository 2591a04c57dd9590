package io.gdastreams.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's HTTP endpoint on the JDK's own server ({@code com.sun.net.httpserver}): a few routes, each a
 * {@link Route} that gets the request and gives a {@link Reply}. Routes are registered by path prefix
 * ({@link #route}); what is not routed is a 404 in JSON. A later page (e.g. a dashboard at {@code GET /}) is one more
 * route.
 *
 * <p>Bounded: {@value #THREADS} worker threads, request bodies read up to {@code maxRequestBytes} (a larger one is a
 * 413, read no further), and no error answer quotes more than the route's own message (no stack trace, no
 * configuration). The JDK server reads a request's line, headers and body on a worker thread, so a client that
 * sends them slowly holds one for up to the request time limit ({@link EndpointSocket}): with two workers, two such
 * clients kept every answer, health probes included, waiting 30 s. Sixteen idle threads cost nothing the stream
 * threads would miss (they go after a minute of no requests) and take that many slow clients to stall probes; where
 * clients cannot be trusted, probes go to a listener of their own ({@code gda.http.management-port},
 * {@value #MANAGEMENT_THREADS} threads) whose port is not exposed to those clients.
 */
final class OpsServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);
    static final int THREADS = 16;
    /** Workers of the management listener: probes and scrapes, a few requests a minute. */
    static final int MANAGEMENT_THREADS = 4;
    static final String JSON = "application/json";

    /** One request, as a route sees it. */
    record Request(String method, String path, String query, byte[] body) {
    }

    /** One answer: status, content type, body and any further headers. */
    record Reply(int status, String contentType, byte[] body, Map<String, String> headers) {

        Reply(int status, String contentType, byte[] body) {
            this(status, contentType, body, Map.of());
        }

        /** A copy with one more header. */
        Reply withHeader(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(headers);
            more.put(name, value);
            return new Reply(status, contentType, body, Map.copyOf(more));
        }

        static Reply json(int status, Object value) {
            return new Reply(status, JSON, Json.toBytes(value));
        }

        /** {@code {"error": message}} with {@code status}. */
        static Reply error(int status, String message) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("error", message);
            return json(status, body);
        }
    }

    /** A handler of the requests under one path prefix. */
    @FunctionalInterface
    interface Route {
        Reply handle(Request request);
    }

    private final HttpServer server;
    private final ExecutorService workers;
    private final int maxRequestBytes;
    private volatile Route root;
    /** Null: no token asked anywhere. */
    private final BearerGuard guard;

    /**
     * Serves with {@code server} (bound, not started) on {@code threads} workers named {@code threadName}; nothing
     * is served before {@link #start()}. With a {@code guard}, the routes registered by {@link #guarded} need its
     * token.
     */
    OpsServer(HttpServer server, int maxRequestBytes, BearerGuard guard, int threads, String threadName) {
        this.server = server;
        this.maxRequestBytes = maxRequestBytes;
        this.guard = guard;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, threadName);
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        this.workers = pool;
        server.setExecutor(workers);
        server.createContext("/", exchange -> {
            Route root = this.root;
            if (root != null && exchange.getRequestURI().getPath().equals("/")) {
                serve(exchange, root, false);
            } else {
                reply(exchange, Reply.error(404, "no such resource"));
            }
        });
    }

    /** Serves the exact path {@code /} with {@code route} (everything else unrouted stays a 404). */
    OpsServer root(Route route) {
        this.root = route;
        return this;
    }

    /** Serves {@code prefix} (an exact path, or a path ending in '/' for everything under it) with {@code route}. */
    OpsServer route(String prefix, Route route) {
        server.createContext(prefix, exchange -> serve(exchange, route, false));
        return this;
    }

    /** As {@link #route}, but the request needs the bearer token when one is configured (checked before the body). */
    OpsServer guarded(String prefix, Route route) {
        server.createContext(prefix, exchange -> serve(exchange, route, guard != null));
        return this;
    }

    /** Whether a token is asked (the {@code guarded} routes need it). */
    boolean hasToken() {
        return guard != null;
    }

    /** "http" or "https". */
    String scheme() {
        return server instanceof com.sun.net.httpserver.HttpsServer ? "https" : "http";
    }

    void start() {
        server.start();
    }

    /** The bound port (the chosen one when configured as 0). */
    int port() {
        return server.getAddress().getPort();
    }

    /** The bound host; every interface (0.0.0.0, which Java binds as the IPv6 any-address) as 0.0.0.0. */
    String host() {
        return server.getAddress().getAddress().isAnyLocalAddress() ? "0.0.0.0" : server.getAddress().getHostString();
    }

    /** scheme://host:port, an IPv6 host in brackets (the any-address was printed as 0:0:0:0:0:0:0:0, bare). */
    String url() {
        String host = host();
        return scheme() + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
    }

    /**
     * The warning a start prints when the endpoint answers beyond this host without a token, or empty: /score,
     * /models and /api then serve whoever reaches the port.
     */
    Optional<String> exposure() {
        if (hasToken() || server.getAddress().getAddress().isLoopbackAddress()) {
            return Optional.empty();
        }
        return Optional.of("the HTTP endpoint listens on " + host() + " (gda.http.host) without a token: whoever"
                + " reaches port " + port() + " can score and read the model; set GDA_HTTP_TOKEN (docs/SECURITY.md)");
    }

    private void serve(HttpExchange exchange, Route route, boolean needsToken) {
        Reply reply;
        try {
            String path = exchange.getRequestURI().getPath();
            String context = exchange.getHttpContext().getPath();
            Optional<Reply> refusal = needsToken
                    ? guard.check(exchange.getRequestHeaders().getFirst("Authorization")) : Optional.empty();
            if (!context.endsWith("/") && !path.equals(context)) {
                reply = Reply.error(404, "no such resource");
            } else if (refusal.isPresent()) {
                reply = refusal.get();
            } else {
                byte[] body = readBody(exchange);
                reply = body == null ? Reply.error(413, maxRequestBytes == 0 ? "this listener takes no request body"
                        : "request body larger than " + maxRequestBytes + " bytes (gda.http.max-request-bytes)")
                        : route.handle(new Request(exchange.getRequestMethod(), path,
                        exchange.getRequestURI().getRawQuery(), body));
            }
        } catch (IOException e) {
            // A body cut short or malformed (a bad chunk): answered at once (before the JDK drains what is left:
            // EndpointSocket); it used to get no answer at all.
            LOG.debug("HTTP request not read: {}", e.toString());
            reply = Reply.error(400, "the request body could not be read: " + (e.getMessage() != null ? e.getMessage()
                    : e.getClass().getSimpleName()));
        } catch (RuntimeException e) {
            LOG.error("HTTP {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI().getPath(), e);
            reply = Reply.error(500, "internal error (logged)");
        }
        reply(exchange, reply);
    }

    /** The body, or null when it is larger than the limit (not read beyond it). */
    private byte[] readBody(HttpExchange exchange) throws IOException {
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.trim()) > maxRequestBytes) {
                    return null;
                }
            } catch (NumberFormatException e) {
                return null;
            }
        }
        // Not closed here: closing drains what is left, which a malformed body may never end, before the answer.
        InputStream in = exchange.getRequestBody();
        byte[] body = in.readNBytes(maxRequestBytes + 1); // ValueType.MAX_REQUEST_BYTES + 1 at most: no overflow
        return body.length > maxRequestBytes ? null : body;
    }

    private static void reply(HttpExchange exchange, Reply reply) {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            reply.headers().forEach(exchange.getResponseHeaders()::set);
            if (exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(reply.status(), -1);
                return;
            }
            exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1 : reply.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply.body());
            }
        } catch (IOException e) {
            LOG.debug("HTTP reply not sent: {}", e.toString());
        }
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
        try {
            workers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
