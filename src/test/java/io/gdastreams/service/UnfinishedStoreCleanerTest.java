package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnfinishedStoreCleanerTest {

    @TempDir
    Path state;

    private Path store(String task, String name, String... files) throws IOException {
        Path dir = Files.createDirectories(state.resolve("app").resolve(task).resolve("rocksdb").resolve(name));
        for (String file : files) {
            Files.writeString(dir.resolve(file), "x");
        }
        return dir;
    }

    @Test
    void shouldRemoveAStoreWhoseCreationWasInterruptedAndItsTaskCheckpoint() throws IOException {
        Path broken = store("0_3", "class-stats", "000017.log", "LOCK");
        Path healthy = store("0_3", "other", "CURRENT", "MANIFEST-000005", "000017.log");
        Path checkpoint = Files.writeString(state.resolve("app/0_3/.checkpoint"), "0\n");
        Path otherTask = store("0_1", "class-stats", "CURRENT", "000009.log");
        Path otherCheckpoint = Files.writeString(state.resolve("app/0_1/.checkpoint"), "0\n");

        assertEquals(List.of(broken), UnfinishedStoreCleaner.clean(state, "app"));

        assertFalse(Files.exists(broken));
        assertFalse(Files.exists(checkpoint), "the task's offsets included the removed data");
        assertTrue(Files.exists(healthy.resolve("CURRENT")));
        assertTrue(Files.exists(otherTask.resolve("000009.log")));
        assertTrue(Files.exists(otherCheckpoint));
    }

    @Test
    void shouldLeaveEmptyOrLockOnlyStoresAndMissingDirectoriesAlone() throws IOException {
        Path lockOnly = store("1_0", "scoring-pending", "LOCK");
        assertEquals(List.of(), UnfinishedStoreCleaner.clean(state, "app"));
        assertTrue(Files.exists(lockOnly.resolve("LOCK")));
        assertEquals(List.of(), UnfinishedStoreCleaner.clean(state, "no-such-app"));
    }

    @Test
    void shouldLeaveTheDirectoryAloneWhileAClientOfThisProcessUsesIt() throws IOException {
        // Its lock file is not even opened: closing a channel of it would drop the client's POSIX lock.
        Path broken = store("0_3", "class-stats", "000017.log");
        UnfinishedStoreCleaner.inUse(state, "app");
        assertEquals(List.of(), UnfinishedStoreCleaner.clean(state, "app"));
        assertTrue(Files.exists(broken.resolve("000017.log")));
        assertFalse(Files.exists(state.resolve("app").resolve(UnfinishedStoreCleaner.KAFKA_STREAMS_LOCK_FILE)));
        UnfinishedStoreCleaner.released(state, "app");
        assertEquals(List.of(broken), UnfinishedStoreCleaner.clean(state, "app"));
    }

    @Test
    void shouldLeaveTheDirectoryAloneWhileAnotherProcessHoldsItsLock() throws Exception {
        // Another process locks <state.dir>/<application.id>/.lock as a Kafka Streams client does for its lifetime.
        Path broken = store("0_3", "class-stats", "000017.log");
        Path holder = Files.writeString(state.resolve("Hold.java"), """
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                public class Hold {
                    public static void main(String[] args) throws Exception {
                        FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE);
                        System.out.println(channel.tryLock() != null ? "locked" : "not locked");
                        Thread.sleep(60_000);
                    }
                }
                """);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, holder.toString(),
                state.resolve("app").resolve(UnfinishedStoreCleaner.KAFKA_STREAMS_LOCK_FILE).toString())
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertEquals("locked", out.readLine());
            assertEquals(List.of(), UnfinishedStoreCleaner.clean(state, "app"));
            assertTrue(Files.exists(broken.resolve("000017.log")));
        } finally {
            child.destroyForcibly().waitFor();
        }
        assertEquals(List.of(broken), UnfinishedStoreCleaner.clean(state, "app"));
    }
}
