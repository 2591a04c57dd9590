package io.gdastreams.ops;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients that open a request and never finish its headers: the JDK server reads a request on a worker thread, so
 * each holds one until the server's request time limit (30 s) or until closed here.
 */
final class SlowClients implements AutoCloseable {

    private final List<Socket> sockets = new ArrayList<>();

    /** {@code count} connections to {@code host}:{@code port}, each with a request begun and left unfinished. */
    static SlowClients hold(String host, int port, int count) throws IOException {
        SlowClients clients = new SlowClients();
        try {
            for (int i = 0; i < count; i++) {
                Socket socket = new Socket(host, port);
                clients.sockets.add(socket);
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "
                        .getBytes(StandardCharsets.US_ASCII)); // and never the end of the headers
                socket.getOutputStream().flush();
            }
            return clients;
        } catch (IOException | RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    @Override
    public void close() {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a test's socket: nothing to do
            }
        }
    }
}
