package io.gdastreams.ops;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.gdastreams.settings.HttpSecurity;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Opens the endpoint's listening socket as configured: plain HTTP, or HTTPS with the keystore of
 * {@code gda.http.tls.keystore}, and the bearer guard when a token is set.
 *
 * <p>Slow clients: the JDK server closes a connection whose request is not read within {@link #MAX_REQ_SECONDS}
 * or whose answer is not taken within {@link #MAX_RSP_SECONDS} (its {@code sun.net.httpserver.maxReqTime} and
 * {@code maxRspTime}, set here unless the operator set them with {@code -D}); idle keep-alive connections close
 * after its default 30 s. At most {@link #MAX_CONNECTIONS} connections are open at once
 * ({@code jdk.httpserver.maxConnections}). These are read once per JVM, when the first server is created. What a
 * request's body has left unread after the answer (a 401, a 413, a malformed chunk) the JDK reads and drops (up
 * to 64 KiB, its {@code drainAmount}) before it closes or reuses the connection: closing with unread input would
 * reset the connection and could lose the answer on its way (a drain of 0 lost 401s in the tests). A client that
 * stops sending in the middle of a body therefore holds its worker for up to the request time, answered: a slow
 * client.
 */
final class EndpointSocket {

    static final long MAX_REQ_SECONDS = 30;
    static final long MAX_RSP_SECONDS = 30;
    /**
     * Open connections a listener accepts at once (the JDK's {@code jdk.httpserver.maxConnections}, unbounded by
     * default): a flood of idle connections, accepted before any token is checked, took every file descriptor of a
     * scorer (18,000 in 10 s), and its next Kafka client failed with "Too many open files", which ended the process.
     * Beyond the bound the JDK closes new connections at once.
     */
    static final long MAX_CONNECTIONS = 1000;
    private static final int BACKLOG = 16;

    private EndpointSocket() {
    }

    /** The endpoint's listener: {@link OpsServer#THREADS} workers. */
    static OpsServer open(String host, int port, int maxRequestBytes, HttpSecurity security)
            throws IOException, GeneralSecurityException {
        return open(host, port, maxRequestBytes, security, OpsServer.THREADS, "gda-http");
    }

    /** The management listener (health and metrics): {@link OpsServer#MANAGEMENT_THREADS} workers of its own. */
    static OpsServer openManagement(String host, int port, HttpSecurity security)
            throws IOException, GeneralSecurityException {
        return open(host, port, 0, security, OpsServer.MANAGEMENT_THREADS, "gda-http-management");
    }

    private static OpsServer open(String host, int port, int maxRequestBytes, HttpSecurity security, int threads,
                                  String threadName) throws IOException, GeneralSecurityException {
        setIfAbsent("sun.net.httpserver.maxReqTime", MAX_REQ_SECONDS);
        setIfAbsent("sun.net.httpserver.maxRspTime", MAX_RSP_SECONDS);
        setIfAbsent("jdk.httpserver.maxConnections", MAX_CONNECTIONS);
        InetSocketAddress address = new InetSocketAddress(host, port);
        BearerGuard guard = security.token().map(BearerGuard::new).orElse(null); // before the port is bound
        HttpServer server;
        if (security.tls().isPresent()) {
            SSLContext context = sslContext(security.tls().get()); // a bad keystore must not leave a port bound
            HttpsServer https = HttpsServer.create(address, BACKLOG);
            https.setHttpsConfigurator(new HttpsConfigurator(context));
            server = https;
        } else {
            server = HttpServer.create(address, BACKLOG);
        }
        return new OpsServer(server, maxRequestBytes, guard, threads, threadName);
    }

    private static SSLContext sslContext(HttpSecurity.Tls tls) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(tls.type());
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            store.load(in, tls.password());
        } catch (IOException e) {
            if (tls.password().length == 0 && !(e instanceof java.nio.file.FileSystemException)) {
                // The JDK says "keystore password was incorrect" of a password nobody gave.
                throw new IOException(e.getMessage() + " (no keystore password was given: set it in"
                        + " GDA_HTTP_TLS_KEYSTORE_PASSWORD or in the file gda.http.tls.keystore.password.file"
                        + " names)", e);
            }
            throw e;
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, tls.password());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    private static void setIfAbsent(String property, long value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, Long.toString(value));
        }
    }
}
