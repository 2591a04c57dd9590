package io.gdastreams.broker;

import io.gdastreams.broker.EmbeddedBroker.BrokerException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports on 127.0.0.1 for a broker's listeners, taken below the operating system's range of ephemeral ports
 * where it can be read (Linux: {@code /proc/sys/net/ipv4/ip_local_port_range}, 32768–60999 by default). A port of
 * that range is what the system gives any outgoing connection: a broker started again on its data directory must
 * bind the controller port it was formatted with (the standalone quorum records it), and a client's connection that
 * happened to get that port meanwhile kept it from starting.
 */
final class LocalPorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Below the registered ports most services use, above the well-known ones. */
    private static final int LOWEST = 10_000;
    private static final int ATTEMPTS = 200;

    private LocalPorts() {
    }

    /** A port nothing listens on now, other than {@code taken}; below the ephemeral range when it can be. */
    static int free(int taken) {
        int below = ephemeralLow();
        if (below > LOWEST) {
            for (int i = 0; i < ATTEMPTS; i++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
                if (port != taken && BrokerLauncher.canListenOn(port)) {
                    return port;
                }
            }
        }
        int port;
        do {
            port = anyFree();
        } while (port == taken);
        return port;
    }

    /** The first port of the ephemeral range, or 0 when it cannot be read (not Linux). */
    static int ephemeralLow() {
        try {
            // Files.readString read one byte of this file (its size is given as 0): read it as lines.
            String[] range = Files.readAllLines(EPHEMERAL_RANGE, StandardCharsets.US_ASCII).get(0).trim()
                    .split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static int anyFree() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new BrokerException("cannot find a free local port: " + e.getMessage());
        }
    }
}
