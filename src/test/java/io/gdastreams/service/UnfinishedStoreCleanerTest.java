package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.Stores;
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
    void shouldLeaveTheDirectoryAloneWhileAKafkaStreamsClientHoldsIt() throws IOException {
        Path broken = store("0_3", "class-stats", "000017.log");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"); // never reached: the client is not started
        props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("t", Materialized.<String, String>as(Stores.persistentKeyValueStore("s"))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
        // A client with a persistent store locks <state.dir>/<application.id>/.lock from its constructor on: the
        // store without CURRENT may be one it is creating.
        try (KafkaStreams client = new KafkaStreams(builder.build(), props)) {
            assertEquals(List.of(), UnfinishedStoreCleaner.clean(state, "app"));
            assertTrue(Files.exists(broken.resolve("000017.log")));
            client.close(java.time.Duration.ofSeconds(10));
        }
        assertEquals(List.of(broken), UnfinishedStoreCleaner.clean(state, "app"));
    }
}
