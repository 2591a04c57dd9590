package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker lines {@link SkippedMarkers} reads (the form of Kafka 4.3.1 and 4.4.0's) and the window it allows. */
class SkippedMarkersTest {

    @TempDir
    Path dir;

    @Test
    void shouldExplainACopyOnlyOnTheSkippedPartitionAfterItWasWritten() throws Exception {
        Path log = dir.resolve("broker.log");
        Files.write(log, List.of(
                "11:48:44.473 [INFO] ReplicationControlManager - [QuorumController id=1] Fencing broker 1 at epoch 14",
                "11:48:44.571 [INFO] TransactionMarkerChannelManager - [Transaction Marker Channel Manager 1]: Couldn't"
                        + " find leader endpoint for partitions Set(f-predictions-3, f-predictions-1, __consumer_offsets-1)"
                        + " while trying to send transaction markers for faults-scoring-df45-1, these partitions are"
                        + " likely deleted already and hence can be skipped",
                "11:48:44.583 [INFO] TransactionMarkerChannelManager - [Transaction Marker Channel Manager 1]: Couldn't"
                        + " find leader endpoint for partitions Set(f-predictions-0) while trying to send transaction"
                        + " markers for faults-scoring-dfc6-1, these partitions are likely deleted already and hence can"
                        + " be skipped"));
        SkippedMarkers skipped = SkippedMarkers.in(log);
        assertEquals(2, skipped.count());
        long written = at(11, 48, 16, 332); // 28 s before the skip: a transaction open across a broker restart
        assertTrue(skipped.explains("f-predictions", 3, written));
        assertTrue(skipped.explains("f-predictions", 1, written));
        assertTrue(skipped.explains("f-predictions", 0, written));
        assertFalse(skipped.explains("f-predictions", 2, written), "no marker of partition 2 was skipped");
        assertFalse(skipped.explains("f-dead-letters", 3, written), "another topic");
        assertFalse(skipped.explains("f-predictions", 3, at(11, 46, 44, 0)), "written more than 120 s before");
        assertFalse(skipped.explains("f-predictions", 3, at(11, 48, 46, 0)), "sent after the skip (+1 s slack)");
        assertTrue(skipped.explains("f-predictions", 3, at(11, 48, 45, 500)), "within the 1 s slack");
    }

    @Test
    void shouldFindNothingInALogWithoutTheLine() throws Exception {
        Path log = dir.resolve("broker.log");
        Files.write(log, List.of("11:48:20.840 [INFO] logger - [Broker id=1] Transitioning 39 partition(s) to local"
                + " leaders."));
        SkippedMarkers skipped = SkippedMarkers.in(log);
        assertEquals(0, skipped.count());
        assertFalse(skipped.explains("f-predictions", 3, at(11, 48, 16, 0)));
    }

    private static long at(int hour, int minute, int second, int millis) {
        return LocalTime.of(hour, minute, second, millis * 1_000_000).atDate(LocalDate.now())
                .atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }
}
