package io.gdastreams.lifecycle;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoriesTest {

    @TempDir
    Path dir;

    /** A tree with nested directories, files and a link to a directory outside it. */
    private Path tree(Path outside) throws IOException {
        Path root = Files.createDirectories(dir.resolve("root/a/b"));
        Files.writeString(root.resolve("file"), "x");
        Files.writeString(dir.resolve("root/a/other"), "y");
        Files.createSymbolicLink(dir.resolve("root/link"), outside);
        return dir.resolve("root");
    }

    @Test
    void shouldDeleteATreeButNotWhatALinkInItPointsTo() throws IOException {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path kept = Files.writeString(outside.resolve("kept"), "z");

        Directories.delete(tree(outside));

        assertFalse(Files.exists(dir.resolve("root")));
        assertEquals("z", Files.readString(kept));
    }

    @Test
    void shouldDeleteATreeQuietlyButNotWhatALinkInItPointsTo() throws IOException {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path kept = Files.writeString(outside.resolve("kept"), "z");

        Directories.deleteQuietly(tree(outside));

        assertFalse(Files.exists(dir.resolve("root")));
        assertEquals("z", Files.readString(kept));
    }

    @Test
    void shouldDoNothingForAMissingDirectory() {
        Path missing = dir.resolve("missing");
        assertDoesNotThrow(() -> Directories.delete(missing));
        assertDoesNotThrow(() -> Directories.deleteQuietly(missing));
        assertTrue(Files.isDirectory(dir));
    }
}
