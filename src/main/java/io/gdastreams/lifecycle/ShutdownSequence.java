package io.gdastreams.lifecycle;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resources of one run, released in reverse order of registration: on {@link #close()}, or by a shutdown hook
 * when the JVM is stopped with Ctrl-C. One hook for all of them keeps the order (stream threads stop writing
 * before their state directory is deleted); separate hooks would run concurrently.
 */
public final class ShutdownSequence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final Thread hook = new Thread(this::releaseAll, "run-cleanup");

    public ShutdownSequence() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Registers {@code resource} to be closed before everything registered earlier; returns it. */
    public synchronized <T extends AutoCloseable> T register(T resource) {
        resources.push(resource);
        return resource;
    }

    /**
     * Closes {@code resource} now (if still registered) and forgets it. Under the lock: a Ctrl-C meanwhile must not
     * release what was registered before it (the state directory, the broker) while it is still closing.
     */
    public synchronized void close(AutoCloseable resource) {
        if (resources.remove(resource)) {
            closeQuietly(resource);
        }
    }

    /** Releases everything first and removes the hook after: a Ctrl-C in between still finds the hook. */
    @Override
    public void close() {
        releaseAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down; the hook finds nothing left to release.
        }
    }

    /**
     * Whether the JVM is shutting down (Ctrl-C, SIGTERM): its hooks then stop what a command waits on, and the
     * command's failure is the signal's doing, not the run's.
     */
    public static boolean jvmStopping() {
        Thread probe = new Thread(() -> { }, "shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
        } catch (IllegalStateException e) {
            return true;
        }
        Runtime.getRuntime().removeShutdownHook(probe);
        return false;
    }

    private synchronized void releaseAll() {
        while (!resources.isEmpty()) {
            closeQuietly(resources.pop());
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.warn("cannot release {}: {}", resource, e.toString());
        }
    }
}
