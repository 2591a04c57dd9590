package io.gdastreams.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.broker.EmbeddedBroker.BrokerException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kept data directory (broker --data-dir) serves one broker at a time: a second start on it, with another port,
 * once rewrote the first broker's server.properties and recovered its live metadata log, and the first died of it.
 */
class BrokerWorkspaceTest {

    @TempDir
    Path dir;

    @Test
    void shouldRefuseASecondWorkspaceOnAKeptDirectoryUntilTheFirstIsClosed() throws Exception {
        Path data = dir.resolve("kafka");
        BrokerWorkspace first = new BrokerWorkspace(data);
        Files.writeString(data.resolve("server.properties"), "first", StandardCharsets.UTF_8);
        try {
            BrokerException refused = assertThrows(BrokerException.class, () -> new BrokerWorkspace(data));
            assertTrue(refused.getMessage().contains("the data directory " + data + " is in use by another broker"),
                    refused.getMessage());
            assertEquals("first", Files.readString(data.resolve("server.properties"), StandardCharsets.UTF_8));
        } finally {
            first.close();
        }
        BrokerWorkspace again = new BrokerWorkspace(data);
        again.close();
        assertTrue(Files.exists(data.resolve("server.properties")), "a kept directory outlives its workspace");
    }

    /**
     * A broker whose parent was killed outright: the parent's lock is gone, but the broker (a child JVM) still holds
     * Kafka's lock of its log directory until it has shut down. Held here by this JVM, as a child would hold it.
     */
    @Test
    void shouldRefuseADirectoryWhoseLogDirectoryABrokerStillHolds() throws Exception {
        Path data = dir.resolve("kafka");
        Path kafkaLock = data.resolve(BrokerWorkspace.DATA).resolve(BrokerWorkspace.KAFKA_LOCK_FILE);
        Files.createDirectories(kafkaLock.getParent());
        try (FileChannel channel = FileChannel.open(kafkaLock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            BrokerException refused = assertThrows(BrokerException.class, () -> new BrokerWorkspace(data));
            assertTrue(refused.getMessage().contains("is in use by another broker (it holds " + kafkaLock + ")"),
                    refused.getMessage());
        }
        new BrokerWorkspace(data).close(); // released: the directory serves again
    }
}
