package io.gdastreams.containers;

import com.github.dockerjava.api.command.InspectContainerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A single-node KRaft {@link KafkaContainer} on the host's network, listening on 127.0.0.1 only.
 *
 * <p>Why not the stock container: on our machines the Docker engine runs without a bridge
 * ({@code dockerd --bridge=none --iptables=false}), so there are no port mappings, and no traffic may leave
 * the loopback interface. The stock container publishes port 9092, advertises
 * {@code getHost():getMappedPort(9092)} and the container's host name, and writes its start script once the
 * mapping is known. In host mode none of that exists, so this subclass:
 * <ul>
 *   <li>exposes no ports and picks three free loopback ports up front (client, inter-broker, controller);</li>
 *   <li>sets listeners, advertised listeners and the controller quorum to those 127.0.0.1 ports in the
 *       environment, which the image's {@code /etc/kafka/docker/run} turns into server.properties exactly as
 *       the official image does, so it runs that entry point directly instead of a copied start script;</li>
 *   <li>waits for the broker's {@code Transitioning from RECOVERY to RUNNING} log line, which needs no port;</li>
 *   <li>answers {@link #getBootstrapServers()} with {@code 127.0.0.1:<client port>}.</li>
 * </ul>
 * Everything else (the KAFKA_* defaults: replication factor 1 for internal and transaction topics, no initial
 * rebalance delay) is the stock container's.
 */
public class HostNetworkKafkaContainer extends KafkaContainer {

    private static final String LOOPBACK = "127.0.0.1";
    private static final String RUN = "/etc/kafka/docker/run";
    private static final String RUNNING_LINE = ".*Transitioning from RECOVERY to RUNNING.*";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);
    // The official image's 1 GiB heap is more than a test broker on a shared 2-core machine needs.
    private static final String HEAP = "-Xmx512m -Xms128m";

    private final int clientPort;

    public HostNetworkKafkaContainer(DockerImageName image) {
        super(image);
        List<Integer> ports = freeLoopbackPorts(3);
        clientPort = ports.get(0);
        int brokerPort = ports.get(1);
        int controllerPort = ports.get(2);

        setExposedPorts(List.of());
        withNetworkMode("host");
        withEnv("KAFKA_LISTENERS", String.format("PLAINTEXT://%1$s:%2$d,BROKER://%1$s:%3$d,CONTROLLER://%1$s:%4$d",
            LOOPBACK, clientPort, brokerPort, controllerPort));
        withEnv("KAFKA_ADVERTISED_LISTENERS", String.format("PLAINTEXT://%1$s:%2$d,BROKER://%1$s:%3$d",
            LOOPBACK, clientPort, brokerPort));
        withEnv("KAFKA_CONTROLLER_QUORUM_VOTERS", String.format("1@%s:%d", LOOPBACK, controllerPort));
        withEnv("KAFKA_HEAP_OPTS", HEAP);
        withCommand(RUN);
        waitingFor(Wait.forLogMessage(RUNNING_LINE, 1).withStartupTimeout(STARTUP_TIMEOUT));
    }

    @Override
    public String getBootstrapServers() {
        return LOOPBACK + ":" + clientPort;
    }

    /** Nothing to copy: the advertised listeners are fixed in the environment before the start. */
    @Override
    protected void containerIsStarting(InspectContainerResponse containerInfo) {
    }

    /** Extra listeners rely on network aliases, which host networking does not have. */
    @Override
    public KafkaContainer withListener(String listener) {
        throw new UnsupportedOperationException("extra listeners need a container network; this container uses the host's");
    }

    @Override
    public KafkaContainer withListener(String listener, Supplier<String> advertisedListener) {
        throw new UnsupportedOperationException("extra listeners need a container network; this container uses the host's");
    }

    /**
     * Distinct ports that are free on the loopback interface now. All sockets stay open until every port is
     * chosen, so the kernel cannot hand out the same port twice; another process could still take one before the
     * broker binds it, which the start-up then reports as a bind failure.
     */
    private static List<Integer> freeLoopbackPorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
                sockets.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + LOOPBACK, e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // The port was only being reserved.
                }
            }
        }
    }
}
