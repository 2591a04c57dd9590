package io.gdastreams.broker;

import io.gdastreams.it.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A real single-node KRaft broker in a JVM of its own ({@link EmbeddedBroker}) that a fault-injection test can
 * freeze ({@link #pause()} / {@link #resume()}: SIGSTOP / SIGCONT) and crash ({@link #killAndRestart()}: SIGKILL,
 * then a new broker JVM on the same data directory and the same port, so clients reconnect). Everything else
 * (topics, producer, readers, Streams settings) is {@link TestBroker}'s.
 *
 * <p>Lives in the test sources of {@code io.gdastreams.broker} to reach the broker's package-private test hooks; the
 * product never exposes them.
 */
public final class FaultInjectionBroker implements TestBroker, AutoCloseable {

    private final EmbeddedBroker broker;
    private final Admin admin;

    private FaultInjectionBroker(EmbeddedBroker broker) {
        this.broker = broker;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    /** Starts the broker and waits until it answers. */
    public static FaultInjectionBroker start() {
        return new FaultInjectionBroker(EmbeddedBroker.start(EmbeddedBroker.DEFAULT_START_TIMEOUT));
    }

    @Override
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Survives {@link #killAndRestart()}: the client reconnects to the same address. */
    @Override
    public Admin admin() {
        return admin;
    }

    /** SIGSTOP the broker JVM; returns once it is stopped. */
    public void pause() {
        broker.pause();
    }

    /** SIGCONT the broker JVM. */
    public void resume() {
        broker.resume();
    }

    /** SIGKILL, then restart on the same data directory and port; returns once the broker answers again. */
    public void killAndRestart() {
        broker.killAndRestart(EmbeddedBroker.DEFAULT_START_TIMEOUT);
    }

    public long pid() {
        return broker.pid();
    }

    public boolean isAlive() {
        return broker.isAlive();
    }

    /** The broker's output, appended across restarts. */
    public Path logFile() {
        return broker.logFile();
    }

    /** Stops the broker (resuming it first if paused) and deletes its directory. */
    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        broker.close();
    }
}
