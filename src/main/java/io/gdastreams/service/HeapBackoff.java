package io.gdastreams.service;

import io.gdastreams.config.RecordBounds;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * What a Kafka Streams client that ran out of heap is started again with: half as many records a poll and half as
 * many buffered per partition. The records a consumer hands over are decompressed into the heap, up to
 * {@code max.poll.records} per poll, and Kafka Streams buffers up to {@code buffered.records.per.partition} of each
 * input partition before it pauses it (1000 each by default); a topic's {@code max.decompressed.message.bytes}
 * bounds each record (1 MiB on the input topics gda-streams creates), so a stream of nothing but the largest records
 * needs gigabytes under those defaults. A smaller heap ran out on the same records after every restart. At each such
 * failure both are halved, and at once brought down to what a quarter of the heap holds of the largest records (a
 * heap nearly full of live records does not even fail: it collects garbage without end), so that a few restarts at
 * most (each reads again from the last commit) make room, at some cost in throughput (docs/BENCHMARKS.md, "Records
 * that decompress beyond their batch") for the rest of the process's life.
 */
final class HeapBackoff {

    /** Kafka Streams' own default for its main consumer (the consumer's is 500). */
    static final int STREAMS_MAX_POLL_RECORDS = 1000;
    /** Kafka Streams' default of {@code buffered.records.per.partition}. */
    static final int STREAMS_BUFFERED_RECORDS = 1000;

    private static final String POLL_KEY = StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
    private static final String BUFFER_KEY = StreamsConfig.BUFFERED_RECORDS_PER_PARTITION_CONFIG;

    private HeapBackoff() {
    }

    /**
     * Whether {@code failure} (what stopped the client; may be null) is a heap exhausted, and if so lowers the two
     * settings in {@code streams} (the properties every new client is made from) and returns what they are now.
     */
    static Optional<String> lower(Throwable failure, Properties streams) {
        return lower(failure, streams, Runtime.getRuntime().maxMemory());
    }

    /** As {@link #lower(Throwable, Properties)} for a heap of at most {@code maxHeapBytes}. */
    static Optional<String> lower(Throwable failure, Properties streams, long maxHeapBytes) {
        if (StreamsApp.causeOfType(failure, OutOfMemoryError.class) == null) {
            return Optional.empty();
        }
        long held = Math.max(1, maxHeapBytes / 4 / RecordBounds.MAX_EVENT_RECORD_BYTES);
        int records = (int) Math.max(1, Math.min(maxPollRecords(streams) / 2, held));
        int buffered = (int) Math.max(1, Math.min(bufferedRecords(streams) / 2, held));
        streams.setProperty(POLL_KEY, Integer.toString(records));
        streams.setProperty(BUFFER_KEY, Integer.toString(buffered));
        return Optional.of("at most " + records + " records a poll (" + POLL_KEY + ") and " + buffered
                + " buffered per partition (" + BUFFER_KEY + ")");
    }

    /** The main consumer's {@code max.poll.records}, by Kafka Streams' precedence of prefixes. */
    static int maxPollRecords(Properties streams) {
        String value = streams.getProperty(POLL_KEY, streams.getProperty(StreamsConfig.consumerPrefix(
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG), streams.getProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG)));
        return value == null ? STREAMS_MAX_POLL_RECORDS : Integer.parseInt(value.trim());
    }

    static int bufferedRecords(Properties streams) {
        String value = streams.getProperty(BUFFER_KEY);
        return value == null ? STREAMS_BUFFERED_RECORDS : Integer.parseInt(value.trim());
    }
}
