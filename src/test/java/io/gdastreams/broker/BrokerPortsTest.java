package io.gdastreams.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a broker's ports come from, and how a port it could not bind is found and said. */
class BrokerPortsTest {

    @TempDir
    Path dir;

    @Test
    void shouldChooseAFreePortBelowTheEphemeralRangeWhereItIsKnown() {
        int low = LocalPorts.ephemeralLow();
        for (int i = 0; i < 20; i++) {
            int port = LocalPorts.free(-1);
            assertTrue(BrokerLauncher.canListenOn(port), "free: " + port);
            if (low > 10_000) {
                assertTrue(port >= 10_000 && port < low, port + " below " + low);
            }
        }
    }

    @Test
    void shouldFindTheTakenPortAnywhereInThisStartsLinesOnly() throws Exception {
        Path log = dir.resolve("broker.log");
        Files.writeString(log, "ERROR Socket server failed to bind to 127.0.0.1:40001: Address already in use.\n");
        long from = BrokerReadiness.logSize(log);
        assertEquals(OptionalInt.empty(), BrokerReadiness.takenPort(log, from), "an earlier start's failure");

        StringBuilder start = new StringBuilder("INFO starting\n"
                + "ERROR [SocketServer] Socket server failed to bind to 127.0.0.1:43977: Address already in use.\n");
        for (int i = 0; i < 600; i++) {
            start.append("INFO Replayed PartitionRecord ").append(i).append('\n'); // far beyond the log's tail
        }
        Files.writeString(log, start, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        assertEquals(OptionalInt.of(43977), BrokerReadiness.takenPort(log, from));
        assertEquals(OptionalInt.empty(), BrokerReadiness.takenPort(dir.resolve("none.log"), 0));
    }

    @Test
    void shouldSayWhichPortIsTakenAndWhatToDo() {
        Path data = Path.of("/srv/kafka");
        assertEquals("the controller port 23977 of the broker in /srv/kafka is in use by another process (it was"
                + " chosen when the directory was formatted, and must stay the same): `ss -tanp | grep :23977` shows"
                + " who holds it; start the broker again once it is free",
                EmbeddedBroker.portTaken(23977, 9092, 23977, data));
        assertEquals("port 9092 on 127.0.0.1 is in use by another process: stop what holds it or choose another"
                + " --port", EmbeddedBroker.portTaken(9092, 9092, 23977, data));
        assertEquals("port 9092 (or the controller's, 23977) on 127.0.0.1 is in use by another process: stop what"
                + " holds it or choose another --port", EmbeddedBroker.portTaken(-1, 9092, 23977, data));
    }

    @Test
    void shouldWriteAnOverrideInPlaceOfItsDefaultAndANewKeyAtTheEnd() throws Exception {
        Path file = dir.resolve("server.properties");
        BrokerLauncher.writeServerProperties(file, dir.resolve("data"), 12001, 12002, java.util.Map.of(
                "log.retention.hours", "168", "log.retention.check.interval.ms", "100"));
        java.util.List<String> lines = Files.readAllLines(file);
        assertEquals(1, lines.stream().filter(l -> l.startsWith("log.retention.hours=")).count(), lines.toString());
        assertTrue(lines.contains("log.retention.hours=168"), lines.toString());
        assertEquals("log.retention.check.interval.ms=100", lines.get(lines.size() - 1));
        assertTrue(lines.contains("listeners=PLAINTEXT://127.0.0.1:12001,CONTROLLER://127.0.0.1:12002"),
                lines.toString());
    }
}
