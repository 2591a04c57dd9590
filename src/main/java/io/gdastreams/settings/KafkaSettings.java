package io.gdastreams.settings;

import io.gdastreams.topology.TimelessRecordInterceptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** The Kafka Streams keys gda-streams defaults, derives, reads or warns about; every other one passes through. */
final class KafkaSettings {

    private static final String PROCESSING_GUARANTEE_KEY = "processing.guarantee";
    private static final String GLOBAL_HANDLER_KEY = "processing.exception.handler.global.enabled";
    private static final String MAIN_CONSUMER_PREFIX = "main.consumer.";
    private static final String GLOBAL_CONSUMER_PREFIX = "global.consumer.";
    private static final String CONSUMER_PREFIX = "consumer.";
    private static final String INTERCEPTORS_KEY = "interceptor.classes";
    private static final String BOOTSTRAP_SERVERS_KEY = "bootstrap.servers";
    private static final String STATE_DIR_KEY = "state.dir";
    private static final String POLL_MS_KEY = "poll.ms";
    private static final String MAX_TASK_IDLE_KEY = "max.task.idle.ms";
    private static final String COMPRESSION_KEY = "compression.type";
    private static final String METADATA_MAX_AGE_KEY = "metadata.max.age.ms";

    /**
     * Kafka Streams settings we default differently from Kafka (the file and environment may override them).
     * {@code processing.exception.handler.global.enabled=true}: the scorer's global model updater catches every
     * exception of its own (a bad model record is logged and skipped), so the handler changes nothing today; it
     * makes a configured {@code processing.exception.handler} govern the global thread like the stream threads,
     * anticipates the Kafka 5.0 default, and silences Kafka Streams' start-up warning that it is disabled (with the
     * copy {@link #forRole} adds for the partition assignor). {@code state.dir=gda-streams-state}: local state
     * outside the OS temp directory. {@code poll.ms=10}: wall-clock punctuation on time in an idle thread (below).
     * {@code max.task.idle.ms=-1}: no per-record idling check in tasks that have nothing to order (below).
     * {@code compression.type=lz4}: the producers' batches compressed (below). {@code metadata.max.age.ms=30000}: a
     * topic's new partitions seen within 30 s (below). The record size limits:
     * {@link RecordSizeLimits}.
     */
    static final Map<String, String> DEFAULTS = defaults();

    private KafkaSettings() {
    }

    private static Map<String, String> defaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put(PROCESSING_GUARANTEE_KEY, "exactly_once_v2");
        defaults.put(GLOBAL_HANDLER_KEY, "true");
        // Not under the OS temp directory (Kafka's default, /tmp/kafka-streams): the OS may clear it, and Kafka
        // Streams warns about it at every start. Relative to the working directory; services set an absolute one.
        defaults.put(STATE_DIR_KEY, "gda-streams-state");
        // An idle stream thread waits this long in poll() before it runs its wall-clock punctuators (Kafka's
        // default: 100 ms). The trainer snapshots and publishes on 10 ms checks (SnapshotTicks): with 100 ms, in a
        // sparse stream, snapshots and publishes could be up to 100 ms late (docs/BENCHMARKS.md, "Model freshness
        // of a sparse stream"). Polling more often costs an idle thread about a hundred empty polls per second; a
        // busy one returns from poll() at once either way.
        defaults.put(POLL_MS_KEY, "10");
        // Task idling (Kafka's default, 0) waits until every partition of a task has data, to process their
        // records in timestamp order; it checks before every record, and with idling on that check builds a set,
        // a string builder and, for an empty queue, a String.format message: 7-9 % of the training and scoring
        // stream threads' profile samples. Without it training used 12-13 % less CPU per event (scoring: no
        // difference measurable; docs/BENCHMARKS.md, "Task idling off"). Every task of both topologies reads one
        // partition of one topic (the model arrives through a global store; SingleInputTasksTest holds them to it),
        // so there is nothing to order and -1, which turns idling off, changes no result.
        defaults.put(MAX_TASK_IDLE_KEY, "-1");
        // Every producer of the application (predictions, dead letters, models, changelogs) compresses its batches
        // with LZ4 (Kafka's default: none). A prediction is JSON whose keys repeat from record to record; sent
        // compressed, the broker receives, validates, writes and serves a fraction of the bytes, and the producer's
        // network thread sends fewer: the scorer used less CPU per event with it, not more, and ran 1.3x faster
        // with the broker on the same cores (docs/BENCHMARKS.md, "Compressed producer batches"). Unprefixed, so
        // that a file's compression.type replaces it and producer.compression.type overrides it; consumers
        // decompress whatever they read, with no setting.
        defaults.put(COMPRESSION_KEY, "lz4");
        // Every client refreshes its metadata each 30 s (Kafka's default: 5 min). An input topic given more
        // partitions is seen only then: until it is, events on the new partitions are neither processed nor
        // reported; once seen, the service ends saying how to go on (docs/RELIABILITY.md, "Topics changed under a
        // running service"). An audit waited over 4 minutes with the default. Costs one small request per client
        // every 30 s.
        defaults.put(METADATA_MAX_AGE_KEY, "30000");
        defaults.putAll(RecordSizeLimits.streamsDefaults());
        return Collections.unmodifiableMap(defaults);
    }

    /**
     * Kafka Streams properties for one application ({@code suffix}: a role, or a bench stage): the Kafka keys plus
     * {@code application.id = <applicationId>-<suffix>}, so one file configures both applications.
     */
    static Properties forRole(Map<String, String> kafka, String applicationId, String suffix) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put("application.id", applicationId + "-" + suffix);
        // The consumers restamp records without a valid timestamp before Kafka Streams reads them: a global store
        // fails on one, and the sources refuse it, at every start (TimelessRecordInterceptor). Added to the
        // interceptors the configuration names for those consumers, never instead of them.
        for (String consumer : List.of(MAIN_CONSUMER_PREFIX, GLOBAL_CONSUMER_PREFIX)) {
            // Kafka's precedence: the consumer's own prefix, then consumer., then the unprefixed key.
            properties.put(consumer + INTERCEPTORS_KEY, withRestamping(properties.getProperty(consumer
                    + INTERCEPTORS_KEY, properties.getProperty(CONSUMER_PREFIX + INTERCEPTORS_KEY,
                    properties.getProperty(INTERCEPTORS_KEY, "")))));
        }
        // Kafka Streams 4.3 builds a second StreamsConfig inside its partition assignor, from the main consumer's
        // configuration, which carries only consumer keys and main.consumer.* ones: without this copy that config
        // sees the global handler disabled and logs the "not enabled for the GlobalThread" warning at every start
        // even though the application enabled it. The assignor only reads assignment keys from it.
        String global = properties.getProperty(GLOBAL_HANDLER_KEY);
        if (global != null) {
            properties.putIfAbsent(MAIN_CONSUMER_PREFIX + GLOBAL_HANDLER_KEY, global);
        }
        return properties;
    }

    /**
     * Valid settings that weaken what gda-streams promises, one sentence each (empty when there are none).
     * {@code processing.guarantee=at_least_once} is accepted (some clusters cannot run transactions), but then a
     * crash replays the records read since the last commit: the trainer counts them again, the scorer answers
     * them again.
     */
    static List<String> warnings(Map<String, String> kafka) {
        List<String> warnings = new ArrayList<>();
        String guarantee = kafka.get(PROCESSING_GUARANTEE_KEY);
        if (guarantee != null && guarantee.trim().equals("at_least_once")) {
            warnings.add(PROCESSING_GUARANTEE_KEY + "=at_least_once: after a crash the events read since the last "
                    + "commit are processed again, so the model's counts may double for them and the scorer may "
                    + "answer an event twice; exactly_once_v2 (the gda-streams default) prevents both");
        }
        warnings.addAll(KafkaValueCheck.misspelt(kafka));
        return warnings;
    }

    private static String withRestamping(String interceptors) {
        String ours = TimelessRecordInterceptor.class.getName();
        List<String> names = new ArrayList<>(List.of(ours)); // first: the others see what Kafka Streams will
        for (String name : interceptors.split(",")) {
            if (!name.isBlank() && !name.trim().equals(ours)) {
                names.add(name.trim());
            }
        }
        return String.join(",", names);
    }

    /** The bootstrap servers, or a user error saying how to set them. */
    static String bootstrapServers(Map<String, String> kafka) {
        String servers = kafka.get(BOOTSTRAP_SERVERS_KEY);
        if (servers == null || servers.isBlank()) {
            throw new ConfigException(BOOTSTRAP_SERVERS_KEY + " is not set (set it in the config file, with "
                    + "--bootstrap-servers, or with KAFKA_STREAMS_BOOTSTRAP_SERVERS)");
        }
        return servers;
    }
}
