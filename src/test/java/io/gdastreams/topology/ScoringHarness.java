package io.gdastreams.topology;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** The production scoring topology in a TopologyTestDriver, with its cache in reach and string keys. */
final class ScoringHarness implements AutoCloseable {

    final CompiledModelCache cache;
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, byte[]> models;
    private final TestInputTopic<byte[], byte[]> events;
    private final Topics topics;
    private final TestOutputTopic<byte[], Prediction> predictions;
    private final TestOutputTopic<byte[], DeadLetter> deadLetters;

    ScoringHarness(ScoringSettings settings, Path stateDir) {
        cache = CompiledModelCache.of(settings);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "scoring-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        driver = new TopologyTestDriver(ScoringTopology.build(settings, cache), props);
        topics = settings.topics();
        models = DriverTopics.input(driver, topics.modelRecords());
        events = DriverTopics.input(driver, topics.unlabelled());
        predictions = DriverTopics.output(driver, topics.predictions());
        deadLetters = DriverTopics.output(driver, topics.deadLetters());
    }

    void publish(ModelParameters model) {
        models.pipeInput(model.modelId(), topics.model().valueBytes(model));
    }

    void publishRaw(String key, byte[] value) {
        models.pipeInput(key, value);
    }

    /** A model record with its headers (a signature, or a forged one). */
    void publishRaw(String key, byte[] value, org.apache.kafka.common.header.Headers headers) {
        models.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(key, value, headers));
    }

    /** Sends an event keyed by the UTF-8 bytes of {@code key} (null stays null). */
    void send(String key, byte[] value) {
        events.pipeInput(key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
    }

    /** Sends an event keyed by {@code key}'s bytes as they are (a serialised number, say). */
    void sendKeyBytes(byte[] key, byte[] value) {
        events.pipeInput(key, value);
    }

    /** Sends an event keyed by the UTF-8 bytes of {@code key}, with record headers {@code headers}. */
    void send(String key, byte[] value, org.apache.kafka.common.header.Headers headers) {
        events.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(key.getBytes(StandardCharsets.UTF_8), value,
                headers));
    }

    /** The unlabelled events' input topic. */
    TestInputTopic<byte[], byte[]> events() {
        return events;
    }

    /** Prediction records emitted since the last call (a read of {@link #predictions()} takes them too). */
    List<org.apache.kafka.streams.test.TestRecord<byte[], Prediction>> predictionRecords() {
        return predictions.readRecordsToList();
    }

    /** Dead-letter records emitted since the last call (a read of {@link #deadLetters()} takes them too). */
    List<org.apache.kafka.streams.test.TestRecord<byte[], DeadLetter>> deadLetterRecords() {
        return deadLetters.readRecordsToList();
    }

    /** Sends {@code {"id": id, "features": {...}}}; a null id is left out, a null value is written as null. */
    void sendEvent(String key, String id, Map<String, Double> features) {
        Map<String, Object> event = new LinkedHashMap<>();
        if (id != null) {
            event.put("id", id);
        }
        event.put("features", features);
        try {
            send(key, Json.mapper().writeValueAsBytes(event));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Predictions emitted since the last call, with their keys as text. */
    List<KeyValue<String, Prediction>> predictions() {
        return predictions.readKeyValuesToList().stream()
                .map(kv -> KeyValue.pair(kv.key == null ? null : new String(kv.key, StandardCharsets.UTF_8),
                        kv.value))
                .toList();
    }

    List<DeadLetter> deadLetters() {
        return deadLetters.readValuesToList();
    }

    void advanceWallClock(Duration duration) {
        driver.advanceWallClockTime(duration);
    }

    @Override
    public void close() {
        driver.close();
    }
}
