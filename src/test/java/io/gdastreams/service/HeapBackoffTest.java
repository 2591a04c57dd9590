package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/** What a client that ran out of heap is started again with, from the settings and the heap. */
class HeapBackoffTest {

    private static final long MIB = 1L << 20;
    private static final Throwable OUT_OF_HEAP = new StreamsException(new OutOfMemoryError("Java heap space"));

    @Test
    void shouldLeaveEveryOtherFailureAlone() {
        Properties streams = new Properties();
        assertEquals(Optional.empty(), HeapBackoff.lower(new StreamsException(new KafkaException("x")), streams,
                4096 * MIB));
        assertEquals(Optional.empty(), HeapBackoff.lower(null, streams, 4096 * MIB));
        assertEquals(new Properties(), streams);
    }

    @Test
    void shouldHalveKafkaStreamsDefaultsWhereTheHeapHoldsThem() {
        Properties streams = new Properties();
        assertEquals(Optional.of("at most 500 records a poll (main.consumer.max.poll.records) and 500 buffered per"
                + " partition (buffered.records.per.partition)"), HeapBackoff.lower(OUT_OF_HEAP, streams, 4096 * MIB));
        assertEquals("500", streams.getProperty("main.consumer.max.poll.records"));
        assertEquals("500", streams.getProperty("buffered.records.per.partition"));
        HeapBackoff.lower(OUT_OF_HEAP, streams, 4096 * MIB);
        assertEquals(250, HeapBackoff.maxPollRecords(streams));
        assertEquals(250, HeapBackoff.bufferedRecords(streams));
    }

    @Test
    void shouldComeDownAtOnceToWhatAQuarterOfTheHeapHoldsOfTheLargestRecords() {
        Properties streams = new Properties();
        HeapBackoff.lower(OUT_OF_HEAP, streams, 256 * MIB); // a quarter: 64 records of 1 MiB
        assertEquals(64, HeapBackoff.maxPollRecords(streams));
        assertEquals(64, HeapBackoff.bufferedRecords(streams));
        HeapBackoff.lower(OUT_OF_HEAP, streams, 256 * MIB);
        assertEquals(32, HeapBackoff.maxPollRecords(streams), "halved again below the heap's share");
        for (int i = 0; i < 10; i++) {
            HeapBackoff.lower(OUT_OF_HEAP, streams, 256 * MIB);
        }
        assertEquals(1, HeapBackoff.maxPollRecords(streams), "never below one record");
        assertEquals(1, HeapBackoff.bufferedRecords(streams));
        Properties tiny = new Properties();
        HeapBackoff.lower(OUT_OF_HEAP, tiny, 2 * MIB);
        assertEquals(1, HeapBackoff.maxPollRecords(tiny));
    }

    @Test
    void shouldStartFromTheConfiguredValueByKafkaStreamsPrecedence() {
        Properties streams = new Properties();
        streams.setProperty("max.poll.records", "300");
        assertEquals(300, HeapBackoff.maxPollRecords(streams));
        streams.setProperty("consumer.max.poll.records", "200");
        assertEquals(200, HeapBackoff.maxPollRecords(streams));
        streams.setProperty("main.consumer.max.poll.records", "100");
        streams.setProperty("buffered.records.per.partition", "40");
        HeapBackoff.lower(OUT_OF_HEAP, streams, 4096 * MIB);
        assertEquals(50, HeapBackoff.maxPollRecords(streams));
        assertEquals(20, HeapBackoff.bufferedRecords(streams));
        assertEquals("200", streams.getProperty("consumer.max.poll.records"), "the other consumers keep theirs");
    }
}
