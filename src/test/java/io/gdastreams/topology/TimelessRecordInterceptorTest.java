package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** The consumers' restamping: only records without a valid timestamp change, offsets and positions as they were. */
class TimelessRecordInterceptorTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private static final String HEADER = TimelessRecordInterceptor.OWN_TIMESTAMP_HEADER;

    private static ConsumerRecord<Object, Object> record(TopicPartition p, long offset, long timestamp) {
        return new ConsumerRecord<>(p.topic(), p.partition(), offset, timestamp, TimestampType.CREATE_TIME, 1, 2,
                "k", "v" + offset, new RecordHeaders(), Optional.of(3), Optional.of((short) 4));
    }

    /** {@code records} of partition 0 as the interceptor passes them on, with next offset 100. */
    static List<ConsumerRecord<Object, Object>> asRead(List<ConsumerRecord<Object, Object>> records) {
        return new TimelessRecordInterceptor().onConsume(new ConsumerRecords<>(Map.of(P0, records),
                Map.of(P0, new OffsetAndMetadata(100)))).records(P0);
    }

    @Test
    void shouldPassAPollOfValidTimestampsOnAsItIs() {
        ConsumerRecords<Object, Object> records = new ConsumerRecords<>(Map.of(P0, List.of(record(P0, 0, 0),
                record(P0, 1, 5))), Map.of(P0, new OffsetAndMetadata(2)));
        assertSame(records, new TimelessRecordInterceptor().onConsume(records));
    }

    @Test
    void shouldRestampOnlyTheRecordsWithoutTimestampAtTheWallClockAndMarkThem() {
        ConsumerRecord<Object, Object> valid = record(P0, 0, 10);
        ConsumerRecord<Object, Object> other = record(P1, 4, 20);
        Map<TopicPartition, OffsetAndMetadata> next = Map.of(P0, new OffsetAndMetadata(2),
                P1, new OffsetAndMetadata(5));
        long before = System.currentTimeMillis();
        ConsumerRecords<Object, Object> out = new TimelessRecordInterceptor().onConsume(new ConsumerRecords<>(
                Map.of(P0, List.of(valid, record(P0, 1, -1)), P1, List.of(other)), next));

        assertEquals(next, out.nextOffsets());
        assertEquals(List.of(other), out.records(P1));
        List<ConsumerRecord<Object, Object>> p0 = out.records(P0);
        assertSame(valid, p0.get(0));
        ConsumerRecord<Object, Object> restamped = p0.get(1);
        assertTrue(restamped.timestamp() >= before && restamped.timestamp() <= System.currentTimeMillis());
        assertEquals(List.of(1L, "v1", 1, 2, Optional.of(3), Optional.of((short) 4), TimestampType.CREATE_TIME),
                List.of(restamped.offset(), restamped.value(), restamped.serializedKeySize(),
                        restamped.serializedValueSize(), restamped.leaderEpoch(), restamped.deliveryCount(),
                        restamped.timestampType()));
        assertEquals("-1", new String(restamped.headers().lastHeader(HEADER).value(), StandardCharsets.US_ASCII));
        assertEquals(-1L, TimelessRecordInterceptor.own(restamped.timestamp(), restamped.headers()));
    }

    /** A producer's header of that name: replaced on a record without timestamp, read only as a negative time. */
    @Test
    void shouldReplaceAProducersHeaderOnATimelessRecordAndReadOnlyNegativeTimes() {
        ConsumerRecord<Object, Object> timeless = record(P0, 0, -1);
        timeless.headers().add(HEADER, "12".getBytes(StandardCharsets.US_ASCII));
        ConsumerRecord<Object, Object> read = asRead(List.of(timeless)).get(0);
        assertEquals(1, read.headers().toArray().length);
        assertEquals(-1L, TimelessRecordInterceptor.own(read.timestamp(), read.headers()));

        assertEquals(1_000L, ownWithHeader("soon"), "not a number");
        assertEquals(1_000L, ownWithHeader("7"), "not a missing time");
        assertEquals(1_000L, ownWithHeader(null));
        assertEquals(-5L, ownWithHeader("-5"), "the producer's own word");
        assertEquals(1_000L, TimelessRecordInterceptor.own(1_000, new RecordHeaders()));
    }

    private static long ownWithHeader(String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(HEADER, value == null ? null : value.getBytes(StandardCharsets.US_ASCII));
        return TimelessRecordInterceptor.own(1_000, headers);
    }
}
