package io.gdastreams.broker;

import io.gdastreams.broker.EmbeddedBroker.BrokerException;
import io.gdastreams.lifecycle.Directories;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.UserError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded broker's temporary directory and whichever child JVM runs in it (the storage tool, then the
 * broker). A shutdown hook, registered before the first child starts, stops the child and deletes the directory
 * on Ctrl-C at any point of the broker's life.
 */
final class BrokerWorkspace {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerWorkspace.class);

    /** Prefix of the temporary directories; the owner's pid follows, so stale ones can be recognised. */
    private static final String DIRECTORY_PREFIX = "gda-streams-broker-";
    /** In a kept directory: locked while a broker uses it (Kafka's own lock comes after the metadata log is read). */
    static final String LOCK_FILE = "broker.lock";
    /** The broker's log (and metadata) directory inside a kept directory. */
    static final String DATA = "data";
    /** The lock file Kafka keeps in each log directory while a broker uses it. */
    static final String KAFKA_LOCK_FILE = ".lock";

    private final Path directory;
    /** A directory the user named (broker --data-dir): kept on exit, never treated as stale. */
    private final boolean kept;
    /** The lock of a kept directory, held until the broker has stopped; null for a temporary one. */
    private final FileChannel lock;
    private final Thread hook = new Thread(this::release, "embedded-broker-cleanup");
    private Process child;
    private boolean paused;
    private boolean released;

    BrokerWorkspace() {
        try {
            directory = Files.createTempDirectory(DIRECTORY_PREFIX + ProcessHandle.current().pid() + "-");
        } catch (IOException e) {
            throw new BrokerException("cannot create a temporary directory for the broker: " + e.getMessage());
        }
        kept = false;
        lock = null;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** A workspace in {@code directory} (created if missing) that outlives the process: its data is kept. */
    BrokerWorkspace(Path directory) {
        // The user's own path: what is wrong with it is a user error (exit 2), said as the file system says it.
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UserError("cannot create the data directory " + directory + ": "
                    + (e instanceof java.nio.file.FileAlreadyExistsException ? "a file of that name exists"
                    : FileProblem.reason(e)));
        }
        if (!Files.isWritable(directory)) {
            throw new UserError("the data directory " + directory + " is not writable");
        }
        this.directory = directory;
        this.kept = true;
        this.lock = lock(directory);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Locks {@code directory} for this process, before anything in it is read or written: a second broker started
     * on it (with another --port) would otherwise rewrite its server.properties and recover the running broker's
     * metadata log under it, which that broker does not survive. Kafka's own lock of the log directory, held by the
     * broker's child JVM, is probed too: a parent killed outright (SIGKILL) drops its lock at once, while its child
     * broker runs on until it notices (up to a second) and has shut down.
     */
    private static FileChannel lock(Path directory) {
        Path file = directory.resolve(LOCK_FILE);
        FileChannel channel;
        boolean taken;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                taken = channel.tryLock() != null;
            } catch (OverlappingFileLockException e) {
                taken = false; // this JVM holds it
            } catch (IOException e) {
                closeQuietly(channel);
                throw e;
            }
        } catch (IOException e) {
            throw new BrokerException("cannot lock the data directory " + directory + " (" + file + "): "
                    + e.getMessage());
        }
        Path brokerLock = directory.resolve(DATA).resolve(KAFKA_LOCK_FILE);
        Path holder = !taken ? file : heldElsewhere(brokerLock) ? brokerLock : null;
        if (holder != null) {
            closeQuietly(channel);
            throw new BrokerException("the data directory " + directory + " is in use by another broker (it holds "
                    + holder + "): stop that broker first; a directory serves one broker at a time");
        }
        return channel;
    }

    /** Whether another process (or this JVM) holds a lock on {@code file}; false when it does not exist. */
    private static boolean heldElsewhere(Path file) {
        if (!Files.exists(file)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            FileLock probe = channel.tryLock();
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false; // cannot tell: the broker's own start then fails on it, as it would without this probe
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("cannot close {}: {}", LOCK_FILE, e.getMessage());
        }
    }

    boolean kept() {
        return kept;
    }

    Path directory() {
        return directory;
    }

    /** Empties the directory for a new start attempt. */
    void clear() {
        try (Stream<Path> children = Files.list(directory)) {
            children.forEach(Directories::deleteQuietly);
        } catch (IOException e) {
            throw new BrokerException("cannot clean " + directory + ": " + e.getMessage());
        }
    }

    synchronized Process launch(ProcessBuilder builder) {
        if (released) {
            throw new BrokerException("the embedded broker is shutting down");
        }
        try {
            child = builder.start();
            return child;
        } catch (IOException e) {
            throw new BrokerException("cannot start a JVM for the broker: " + e.getMessage());
        }
    }

    synchronized void pause(Process process) {
        requireCurrent(process);
        BrokerProcesses.signal(process, "STOP");
        paused = true;
        BrokerProcesses.awaitRunState(process, true);
    }

    synchronized void resume(Process process) {
        requireCurrent(process);
        BrokerProcesses.signal(process, "CONT");
        paused = false;
        BrokerProcesses.awaitRunState(process, false);
    }

    /** SIGKILL and wait until the process is gone (a stopped process dies on SIGKILL too). */
    synchronized void kill(Process process) {
        requireCurrent(process);
        paused = false;
        BrokerProcesses.kill(process);
    }

    private void requireCurrent(Process process) {
        if (released || process != child || !process.isAlive()) {
            throw new BrokerException("the embedded broker is not running");
        }
    }

    /** Releases first and removes the hook after: a Ctrl-C in between finds the hook still there. */
    void close() {
        release();
        removeHook();
    }

    void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down; the hook finds everything released.
        }
    }

    private synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        if (child != null) {
            if (paused) {
                // A stopped process would hold SIGTERM pending until the grace period ran out.
                BrokerProcesses.signal(child, "CONT");
            }
            BrokerProcesses.stop(child);
        }
        if (!kept) {
            Directories.deleteQuietly(directory);
        } else {
            closeQuietly(lock);
        }
    }

    /** Directories left by an owner that was killed outright (no shutdown hook ran); its broker exited with it. */
    static void deleteStaleDirectories() {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> entries = Files.list(tmp)) {
            entries.filter(BrokerWorkspace::isStale)
                    .forEach(Directories::deleteQuietly);
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("cannot scan {} for stale broker directories: {}", tmp, e.getMessage());
        }
    }

    /** A broker directory whose owning process (pid in the name) no longer runs. */
    private static boolean isStale(Path directory) {
        String name = directory.getFileName().toString();
        if (!name.startsWith(DIRECTORY_PREFIX)) {
            return false;
        }
        String rest = name.substring(DIRECTORY_PREFIX.length());
        int dash = rest.indexOf('-');
        if (dash <= 0) {
            return false;
        }
        try {
            long pid = Long.parseLong(rest.substring(0, dash));
            return ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
