package io.gdastreams.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileProblem} on the exceptions real file operations throw, not on hand-made ones. */
class FileProblemTest {

    @TempDir
    Path dir;

    @Test
    void shouldSayWhatWentWrongRatherThanRepeatThePath() throws IOException {
        assertEquals("no such file or directory", reasonOf(() -> Files.writeString(dir.resolve("no/such/f"), "x")));
        Path existing = Files.writeString(dir.resolve("f"), "x");
        assertEquals("it already exists", reasonOf(() -> Files.createFile(existing)));
        assertEquals("not a directory", reasonOf(() -> Files.newDirectoryStream(existing).close()));
    }

    @Test
    void shouldSayWhyAFileCannotBeReadOrWrittenBeforeTrying() throws IOException {
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertEquals(null, FileProblem.unreadable(file));
        assertEquals("no such file", FileProblem.unreadable(dir.resolve("none")));
        assertEquals("a directory", FileProblem.unreadable(dir));
        assertEquals(null, FileProblem.unwritable(file));
        assertEquals(null, FileProblem.unwritable(dir.resolve("new")));
        assertEquals("a directory", FileProblem.unwritable(dir));
        assertEquals("no directory " + dir.resolve("no"), FileProblem.unwritable(dir.resolve("no/f")));
    }

    @Test
    void shouldLookInsideAnUncheckedIoException() {
        assertEquals("no such file or directory", FileProblem.reason(new UncheckedIOException(
                new java.nio.file.NoSuchFileException("/a/b"))));
        assertEquals("disk full", FileProblem.reason(new IOException("disk full")));
    }

    private interface FileAction {
        void run() throws IOException;
    }

    private static String reasonOf(FileAction action) {
        try {
            action.run();
        } catch (IOException e) {
            return FileProblem.reason(e);
        }
        throw new AssertionError("the action did not fail");
    }
}
