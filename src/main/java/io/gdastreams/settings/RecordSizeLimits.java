package io.gdastreams.settings;

import io.gdastreams.config.RecordBounds;
import io.gdastreams.service.TopicProvisioner;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How large a record gda-streams may write, and the Kafka settings that allow it. The large records are the
 * partial snapshots and the combiner's kept snapshots (binary, about K·4·d² bytes: a packed scatter triangle per
 * class) and the model (JSON, about K·20·d² bytes: a full covariance per class as text). At d = 256 a snapshot of
 * 4 classes and the model of one class already exceed Kafka's default 1 MiB limits; docs/TRAINING.md has the
 * table.
 *
 * <p>Every limit on the way is raised to one bound, {@link #MAX_RECORD_BYTES}: the producers' request size and
 * buffer (a record larger than either is refused before it is sent), and {@code max.message.bytes} of every topic
 * that carries large records: the internal topics Kafka Streams creates (through the {@code topic.} prefix) and
 * the model topic {@link TopicProvisioner} creates. A topic-level {@code max.message.bytes}
 * overrides the broker's {@code message.max.bytes}, so no broker setting is needed. Consumers need nothing:
 * their fetch sizes are soft limits (a batch larger than the fetch size is still returned, alone).
 */
public final class RecordSizeLimits {

    /** The bound every limit is raised to (declared, with its reason, in {@link RecordBounds}). */
    public static final int MAX_RECORD_BYTES = RecordBounds.MAX_RECORD_BYTES;

    private RecordSizeLimits() {
    }

    /** Kafka Streams defaults: producer limits, and max.message.bytes of the internal topics Streams creates. */
    public static Map<String, String> streamsDefaults() {
        String bound = Integer.toString(MAX_RECORD_BYTES);
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), bound);
        // The producer also refuses a record larger than its whole buffer (32 MiB by default); the buffer is
        // allocated on demand, so raising the bound costs nothing until a record needs it.
        defaults.put(StreamsConfig.producerPrefix(ProducerConfig.BUFFER_MEMORY_CONFIG), bound);
        defaults.put(StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG), bound);
        return defaults;
    }

    /**
     * The largest model record the trainer may publish: the producer's {@code max.request.size} as configured
     * (default {@link #MAX_RECORD_BYTES}), less room for the record's key, headers and batch framing.
     */
    public static long modelRecordLimit(Map<String, String> kafkaSettings) {
        String configured = kafkaSettings.getOrDefault(
                StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                kafkaSettings.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
        long maxRequestSize = MAX_RECORD_BYTES;
        if (configured != null) {
            try {
                maxRequestSize = Long.parseLong(configured.trim());
            } catch (NumberFormatException e) {
                // Kafka's own validation reports it at start-up; keep the default bound here.
            }
        }
        return RecordBounds.modelRecordLimit(maxRequestSize);
    }

    /**
     * Topic configuration for a topic we create that carries large records (the model): batches and records, once
     * decompressed, up to {@link #MAX_RECORD_BYTES}.
     */
    public static Map<String, String> largeRecordTopicConfig() {
        return Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_RECORD_BYTES),
                TopicConfig.MAX_DECOMPRESSED_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_RECORD_BYTES));
    }

    /** Topic configuration for an input topic we create: events, once decompressed, up to 1 MiB (RecordBounds). */
    public static Map<String, String> eventTopicConfig() {
        return Map.of(TopicConfig.MAX_DECOMPRESSED_MESSAGE_BYTES_CONFIG,
                Integer.toString(RecordBounds.MAX_EVENT_RECORD_BYTES));
    }
}
