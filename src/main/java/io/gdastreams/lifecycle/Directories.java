package io.gdastreams.lifecycle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recursive deletion of a directory tree, in the two forms the code needs: {@link #delete(Path)} for a deletion
 * that must not half-succeed unnoticed (an unfinished RocksDB store left in place keeps the application from
 * starting), {@link #deleteQuietly(Path)} for temporary directories, where a leftover is not worth failing a
 * finished run for.
 */
public final class Directories {

    private static final Logger LOG = LoggerFactory.getLogger(Directories.class);

    private Directories() {
    }

    /** Deletes {@code root} and everything below it; throws on the first path that cannot be deleted. */
    public static void delete(Path root) throws IOException {
        delete(root, (path, e) -> {
            throw e;
        });
    }

    /**
     * Deletes {@code root} and as much below it as it can, logging what it cannot delete; never throws. Nothing
     * to do when {@code root} does not exist.
     */
    public static void deleteQuietly(Path root) {
        try {
            delete(root, (path, e) -> LOG.warn("could not delete {}: {}", path, e.getMessage()));
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}: {}", root, e.getMessage());
        }
    }

    /** Children before their parents; {@code onFailure} decides whether a failed path ends the walk. */
    private static void delete(Path root, FailureHandler onFailure) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    onFailure.failed(path, e);
                }
            }
        }
    }

    @FunctionalInterface
    private interface FailureHandler {
        void failed(Path path, IOException e) throws IOException;
    }
}
