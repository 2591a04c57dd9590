package io.gdastreams.service;

import io.gdastreams.config.RecordBounds;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * What a Kafka Streams client that ran out of heap is started again with: fewer records a poll and fewer buffered.
 * The records a consumer hands over are decompressed into the heap, up to {@code max.poll.records} per poll, and
 * Kafka Streams buffers up to {@code buffered.records.per.partition} of each input partition before it pauses it
 * (1000 each by default); a topic's {@code max.decompressed.message.bytes} bounds each record (1 MiB on the input
 * topics gda-streams creates, 64 MiB on the model topic), so a stream of nothing but the largest records needs
 * gigabytes under those defaults. A smaller heap ran out on the same records after every restart. At each such
 * failure the main consumer's poll and the buffer are halved, and at once brought down to what a quarter of the heap
 * holds of 1 MiB records (the buffer across the input partitions), and so is the global consumer's poll of the model
 * topic, which cannot be told apart here (a heap nearly full of live records does not even fail: it collects garbage
 * without end). A few restarts at most (each reads again from the last commit) make room, at some cost in throughput
 * (docs/BENCHMARKS.md, "Records that decompress beyond their batch") for the rest of the process's life.
 */
final class HeapBackoff {

    /** Kafka Streams' own default for its consumers (the consumer's is 500). */
    static final int STREAMS_MAX_POLL_RECORDS = 1000;
    /** Kafka Streams' default of {@code buffered.records.per.partition}. */
    static final int STREAMS_BUFFERED_RECORDS = 1000;

    private static final String POLL_KEY = StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
    private static final String GLOBAL_POLL_KEY = StreamsConfig.globalConsumerPrefix(
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
    private static final String BUFFER_KEY = StreamsConfig.BUFFERED_RECORDS_PER_PARTITION_CONFIG;

    private HeapBackoff() {
    }

    /**
     * Whether {@code failure} (what stopped the client; may be null) is a heap exhausted, and if so lowers the
     * settings in {@code streams} (the properties every new client is made from) for {@code partitions} input
     * partitions and returns what they are now.
     */
    static Optional<String> lower(Throwable failure, Properties streams, int partitions) {
        return lower(failure, streams, partitions, Runtime.getRuntime().maxMemory());
    }

    /** As {@link #lower(Throwable, Properties, int)} for a heap of at most {@code maxHeapBytes}. */
    static Optional<String> lower(Throwable failure, Properties streams, int partitions, long maxHeapBytes) {
        if (StreamsApp.causeOfType(failure, OutOfMemoryError.class) == null) {
            return Optional.empty();
        }
        long events = Math.max(1, maxHeapBytes / 4 / RecordBounds.MAX_EVENT_RECORD_BYTES);
        long models = Math.max(1, maxHeapBytes / 4 / RecordBounds.MAX_RECORD_BYTES);
        int records = (int) Math.max(1, Math.min(maxPollRecords(streams) / 2, events));
        int buffered = (int) Math.max(1, Math.min(bufferedRecords(streams) / 2, events / Math.max(1, partitions)));
        int global = (int) Math.max(1, Math.min(globalMaxPollRecords(streams) / 2, models));
        streams.setProperty(POLL_KEY, Integer.toString(records));
        streams.setProperty(BUFFER_KEY, Integer.toString(buffered));
        streams.setProperty(GLOBAL_POLL_KEY, Integer.toString(global));
        return Optional.of("at most " + records + " records a poll (" + POLL_KEY + "), " + buffered
                + " buffered per input partition (" + BUFFER_KEY + ") and " + global + " a poll of the model topic ("
                + GLOBAL_POLL_KEY + ")");
    }

    /** The main consumer's {@code max.poll.records}, by Kafka Streams' precedence of prefixes. */
    static int maxPollRecords(Properties streams) {
        return poll(streams, POLL_KEY);
    }

    /** The global consumer's {@code max.poll.records}, by Kafka Streams' precedence of prefixes. */
    static int globalMaxPollRecords(Properties streams) {
        return poll(streams, GLOBAL_POLL_KEY);
    }

    static int bufferedRecords(Properties streams) {
        return number(streams.getProperty(BUFFER_KEY), STREAMS_BUFFERED_RECORDS);
    }

    private static int poll(Properties streams, String ownKey) {
        return number(streams.getProperty(ownKey, streams.getProperty(StreamsConfig.consumerPrefix(
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG), streams.getProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG))),
                STREAMS_MAX_POLL_RECORDS);
    }

    /** {@code value} as a number, else {@code otherwise} (absent, or a "${provider:…}" Kafka resolves later). */
    private static int number(String value, int otherwise) {
        try {
            return value == null ? otherwise : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
