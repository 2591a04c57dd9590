package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** What the extractor returns and how it marks a record without a valid timestamp, record by record. */
class RecordTimestampsTest {

    private static final String HEADER = RecordTimestamps.OWN_TIMESTAMP_HEADER;
    private final RecordTimestamps extractor = new RecordTimestamps();

    private static ConsumerRecord<Object, Object> record(long timestamp, RecordHeaders headers) {
        return new ConsumerRecord<>("t", 0, 7, timestamp, TimestampType.CREATE_TIME, 1, 1, new byte[1], new byte[1],
                headers, Optional.empty());
    }

    private static String header(RecordHeaders headers) {
        return new String(headers.lastHeader(HEADER).value(), StandardCharsets.US_ASCII);
    }

    @Test
    void shouldKeepAValidTimestampAndZeroAndLeaveNoMark() {
        RecordHeaders headers = new RecordHeaders();
        assertEquals(1_700_000_000_000L, extractor.extract(record(1_700_000_000_000L, headers), 5));
        assertEquals(0L, extractor.extract(record(0, headers), 5), "the epoch is a valid time");
        assertNull(headers.lastHeader(HEADER));
        assertEquals(0L, RecordTimestamps.own(0, headers));
    }

    @Test
    void shouldProcessARecordWithoutTimestampAtStreamTimeAndKeepItsOwn() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace", new byte[] {1});
        assertEquals(5_000L, extractor.extract(record(-1, headers), 5_000L));
        assertEquals("-1", header(headers));
        assertEquals(-1L, RecordTimestamps.own(5_000L, headers));
        assertEquals(1, headers.toArray()[0].value()[0], "its other headers as they were");
        // Extracted again (a task that fetches it anew): still one mark.
        extractor.extract(record(-1, headers), 5_000L);
        assertEquals(2, headers.toArray().length);
    }

    @Test
    void shouldTakeTheWallClockBeforeThePartitionHasAStreamTime() {
        long before = System.currentTimeMillis();
        long at = extractor.extract(record(-1, new RecordHeaders()), -1);
        assertTrue(at >= before && at <= System.currentTimeMillis(), "now, not negative: " + at);
    }

    /** A producer's header of that name: replaced on a record without timestamp, not read when not a negative time. */
    @Test
    void shouldReplaceAProducersHeaderOnATimelessRecordAndReadOnlyNegativeTimes() {
        RecordHeaders other = new RecordHeaders();
        other.add(HEADER, "12".getBytes(StandardCharsets.US_ASCII));
        extractor.extract(record(-1, other), 3);
        assertEquals("-1", header(other));
        assertEquals(1, other.toArray().length);

        RecordHeaders forged = new RecordHeaders();
        forged.add(HEADER, "soon".getBytes(StandardCharsets.US_ASCII));
        assertEquals(1_000L, extractor.extract(record(1_000, forged), -1));
        assertEquals(1_000L, RecordTimestamps.own(1_000, forged), "not a number");
        RecordHeaders positive = new RecordHeaders();
        positive.add(HEADER, "7".getBytes(StandardCharsets.US_ASCII));
        assertEquals(1_000L, RecordTimestamps.own(1_000, positive), "not a missing time");
        RecordHeaders empty = new RecordHeaders();
        empty.add(HEADER, null);
        assertEquals(1_000L, RecordTimestamps.own(1_000, empty));
    }
}
