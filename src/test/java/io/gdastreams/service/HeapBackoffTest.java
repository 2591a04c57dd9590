package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/** What a client that ran out of heap is started again with, from the settings, the heap and the partitions. */
class HeapBackoffTest {

    private static final long MIB = 1L << 20;
    private static final Throwable OUT_OF_HEAP = new StreamsException(new OutOfMemoryError("Java heap space"));

    @Test
    void shouldLeaveEveryOtherFailureAlone() {
        Properties streams = new Properties();
        assertEquals(Optional.empty(), HeapBackoff.lower(new StreamsException(new KafkaException("x")), streams, 1,
                4096 * MIB));
        assertEquals(Optional.empty(), HeapBackoff.lower(null, streams, 1, 4096 * MIB));
        assertEquals(new Properties(), streams);
    }

    @Test
    void shouldHalveKafkaStreamsDefaultsWhereTheHeapHoldsThem() {
        Properties streams = new Properties();
        // A quarter of 16 GiB: 4096 records of 1 MiB (over 4 partitions 1024 each), 64 of 64 MiB.
        assertEquals(Optional.of("at most 500 records a poll (main.consumer.max.poll.records), 500 buffered per input"
                + " partition (buffered.records.per.partition) and 64 a poll of the model topic"
                + " (global.consumer.max.poll.records)"), HeapBackoff.lower(OUT_OF_HEAP, streams, 4, 16384 * MIB));
        assertEquals("500", streams.getProperty("main.consumer.max.poll.records"));
        assertEquals("500", streams.getProperty("buffered.records.per.partition"));
        assertEquals("64", streams.getProperty("global.consumer.max.poll.records"));
        HeapBackoff.lower(OUT_OF_HEAP, streams, 4, 16384 * MIB);
        assertEquals(250, HeapBackoff.maxPollRecords(streams));
        assertEquals(250, HeapBackoff.bufferedRecords(streams));
        assertEquals(32, HeapBackoff.globalMaxPollRecords(streams));
    }

    @Test
    void shouldComeDownAtOnceToWhatAQuarterOfTheHeapHoldsOfTheLargestRecords() {
        Properties streams = new Properties();
        HeapBackoff.lower(OUT_OF_HEAP, streams, 4, 256 * MIB); // a quarter: 64 records of 1 MiB, 16 per partition
        assertEquals(64, HeapBackoff.maxPollRecords(streams));
        assertEquals(16, HeapBackoff.bufferedRecords(streams), "4 partitions buffer no more than a poll");
        assertEquals(1, HeapBackoff.globalMaxPollRecords(streams), "no 64 MiB model fits a quarter: one at a time");
        HeapBackoff.lower(OUT_OF_HEAP, streams, 4, 256 * MIB);
        assertEquals(32, HeapBackoff.maxPollRecords(streams), "halved again below the heap's share");
        assertEquals(8, HeapBackoff.bufferedRecords(streams));
        for (int i = 0; i < 10; i++) {
            HeapBackoff.lower(OUT_OF_HEAP, streams, 4, 256 * MIB);
        }
        assertEquals(1, HeapBackoff.maxPollRecords(streams), "never below one record");
        assertEquals(1, HeapBackoff.bufferedRecords(streams));
        Properties tiny = new Properties();
        HeapBackoff.lower(OUT_OF_HEAP, tiny, 100, 2 * MIB);
        assertEquals(1, HeapBackoff.maxPollRecords(tiny));
        assertEquals(1, HeapBackoff.bufferedRecords(tiny));
    }

    @Test
    void shouldStartFromTheConfiguredValueByKafkaStreamsPrecedence() {
        Properties streams = new Properties();
        streams.setProperty("max.poll.records", "300");
        assertEquals(300, HeapBackoff.maxPollRecords(streams));
        assertEquals(300, HeapBackoff.globalMaxPollRecords(streams));
        streams.setProperty("consumer.max.poll.records", "200");
        assertEquals(200, HeapBackoff.maxPollRecords(streams));
        streams.setProperty("main.consumer.max.poll.records", "100");
        streams.setProperty("global.consumer.max.poll.records", "10");
        streams.setProperty("buffered.records.per.partition", "40");
        HeapBackoff.lower(OUT_OF_HEAP, streams, 1, 16384 * MIB);
        assertEquals(50, HeapBackoff.maxPollRecords(streams));
        assertEquals(20, HeapBackoff.bufferedRecords(streams));
        assertEquals(5, HeapBackoff.globalMaxPollRecords(streams));
        assertEquals("200", streams.getProperty("consumer.max.poll.records"), "the other consumers keep theirs");
    }

    @Test
    void shouldTakeAValueKafkaResolvesLaterAsTheDefault() {
        Properties streams = new Properties();
        streams.setProperty("main.consumer.max.poll.records", "${file:/etc/kafka.properties:poll}");
        assertEquals(1000, HeapBackoff.maxPollRecords(streams));
        HeapBackoff.lower(OUT_OF_HEAP, streams, 1, 16384 * MIB);
        assertEquals(500, HeapBackoff.maxPollRecords(streams));
    }
}
