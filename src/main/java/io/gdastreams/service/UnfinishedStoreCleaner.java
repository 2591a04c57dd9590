package io.gdastreams.service;

import io.gdastreams.lifecycle.Directories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes RocksDB stores whose creation a crash interrupted, before Kafka Streams opens them.
 *
 * <p>A process killed while RocksDB creates a new database can leave a write-ahead log but no {@code CURRENT}
 * file. RocksDB then refuses to open the directory ("While creating a new Db, wal_dir contains existing log
 * file"), and since Kafka Streams 4 opens the stores of local tasks inside {@code KafkaStreams.start()}, the
 * application could never start again. Such a directory holds nothing that was ever committed: the store is
 * rebuilt from its changelog. The task's checkpoint file is removed too, so that no store of the task trusts
 * offsets that the removed data was part of (under exactly-once Kafka Streams then wipes and restores the task).
 */
public final class UnfinishedStoreCleaner {

    private static final Logger LOG = LoggerFactory.getLogger(UnfinishedStoreCleaner.class);
    /** The file in {@code <state.dir>/<application.id>} that a Kafka Streams client locks while it uses it. */
    static final String KAFKA_STREAMS_LOCK_FILE = ".lock";
    /** The application directories a client of this process may hold. */
    private static final Set<Path> IN_USE = ConcurrentHashMap.newKeySet();

    private UnfinishedStoreCleaner() {
    }

    /**
     * Looks at {@code <stateDir>/<applicationId>/<task>/rocksdb/<store>} and removes every store directory that
     * has files but no {@code CURRENT}; returns the removed directories. Nothing when a Kafka Streams client holds
     * the directory (its {@code .lock}, which a client takes for its lifetime): a store without {@code CURRENT}
     * may then be one that client is creating, and that client's start is refused anyway. A client of this process
     * is known from {@link #inUse} and its lock file is not even opened: closing any channel of a file drops the
     * process's POSIX lock on it, the client's too; another process's lock is found by trying it.
     */
    public static List<Path> clean(Path stateDir, String applicationId) {
        Path appDir = stateDir.resolve(applicationId);
        if (!Files.isDirectory(appDir)) {
            return new ArrayList<>();
        }
        if (IN_USE.contains(key(stateDir, applicationId))) {
            LOG.info("{} is in use by a Kafka Streams client of this process: unfinished stores are not looked for",
                    appDir);
            return new ArrayList<>();
        }
        try (FileChannel channel = FileChannel.open(appDir.resolve(KAFKA_STREAMS_LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // a client of this process that is not a StreamsApp (tests) holds it
            }
            if (lock == null) {
                LOG.info("{} is in use by a Kafka Streams client: unfinished stores are not looked for", appDir);
                return new ArrayList<>();
            }
            return removeUnfinished(appDir); // closing the channel releases the lock, before Kafka Streams takes it
        } catch (IOException e) {
            throw new UncheckedIOException("cannot inspect the state directory " + appDir, e);
        }
    }

    /** A client of this process now uses {@code <stateDir>/<applicationId>} (until {@link #released}). */
    static void inUse(Path stateDir, String applicationId) {
        IN_USE.add(key(stateDir, applicationId));
    }

    /** The client that used {@code <stateDir>/<applicationId>} has stopped. */
    static void released(Path stateDir, String applicationId) {
        IN_USE.remove(key(stateDir, applicationId));
    }

    private static Path key(Path stateDir, String applicationId) {
        return stateDir.toAbsolutePath().normalize().resolve(applicationId);
    }

    private static List<Path> removeUnfinished(Path appDir) throws IOException {
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(appDir, Files::isDirectory)) {
            for (Path task : tasks) {
                Path rocksdb = task.resolve("rocksdb");
                if (!Files.isDirectory(rocksdb)) {
                    continue;
                }
                try (DirectoryStream<Path> stores = Files.newDirectoryStream(rocksdb, Files::isDirectory)) {
                    for (Path store : stores) {
                        if (isUnfinished(store)) {
                            Directories.delete(store);
                            Files.deleteIfExists(task.resolve(".checkpoint"));
                            removed.add(store);
                            LOG.warn("Removed the unfinished RocksDB store {} (a crash interrupted its creation);"
                                    + " it is restored from its changelog", store);
                        }
                    }
                }
            }
        }
        return removed;
    }

    private static boolean isUnfinished(Path store) throws IOException {
        if (Files.exists(store.resolve("CURRENT"))) {
            return false;
        }
        try (Stream<Path> entries = Files.list(store)) {
            return entries.anyMatch(p -> !p.getFileName().toString().equals("LOCK"));
        }
    }
}
