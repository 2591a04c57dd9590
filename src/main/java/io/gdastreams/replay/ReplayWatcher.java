package io.gdastreams.replay;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads what the topologies write during a replay (model topic, predictions, dead letters), from the beginning
 * and only committed records, and keeps what the replay waits for: the latest model of our model id, the dead
 * letters by source, and one prediction per id. Single-threaded: called from the replay loop only.
 */
final class ReplayWatcher implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Topics topics;
    private final String modelId;

    private ModelParameters model;
    private final List<DeadLetter> labelledDeadLetters = new ArrayList<>();
    private final List<DeadLetter> unlabelledDeadLetters = new ArrayList<>();
    private final Map<String, Prediction> predictionsById = new HashMap<>();
    private final List<String> duplicateIds = new ArrayList<>();
    private long recordsSeen;
    private final List<String> metrics = new ArrayList<>();
    /** The highest reset generation a drift record read so far started (0: none). */
    private long resetAlarmed;

    ReplayWatcher(String bootstrapServers, Properties clientOverrides, Topics topics, String modelId) {
        this(bootstrapServers, clientOverrides, topics, modelId, false);
    }

    /** With {@code metrics}, also reads the metrics topic (the trainer's prequential records). */
    ReplayWatcher(String bootstrapServers, Properties clientOverrides, Topics topics, String modelId,
                  boolean metrics) {
        this.topics = topics;
        this.modelId = modelId;
        Properties properties = new Properties();
        properties.putAll(clientOverrides);
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        List<String> read = new ArrayList<>(List.of(topics.model().name(), topics.deadLetters().name(),
                topics.predictions().name()));
        if (metrics) {
            read.add(topics.metrics().name());
        }
        try {
            for (String topic : read) {
                consumer.partitionsFor(topic, Duration.ofSeconds(30))
                        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        } catch (RuntimeException e) {
            consumer.close(); // the caller never gets a watcher to close
            throw e;
        }
    }

    /** Polls once; returns true when anything new arrived. */
    boolean poll() {
        boolean changed = false;
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            recordsSeen++;
            changed = true;
            if (record.topic().equals(topics.model().name())) {
                onModel(record);
            } else if (record.topic().equals(topics.metrics().name())) {
                String json = new String(record.value(), StandardCharsets.UTF_8);
                metrics.add(json);
                resetAlarmed = Math.max(resetAlarmed, PendingReset.resetGeneration(json));
            } else if (record.topic().equals(topics.deadLetters().name())) {
                onDeadLetter(record);
            } else {
                onPrediction(record);
            }
        }
        return changed;
    }

    private void onModel(ConsumerRecord<byte[], byte[]> record) {
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        if (modelId.equals(key) && record.value() != null) {
            model = topics.model().value(record.value());
        }
    }

    private void onDeadLetter(ConsumerRecord<byte[], byte[]> record) {
        DeadLetter letter = topics.deadLetters().value(record.value());
        if (topics.labelled().name().equals(letter.topic())) {
            labelledDeadLetters.add(letter);
        } else if (topics.unlabelled().name().equals(letter.topic())) {
            unlabelledDeadLetters.add(letter);
        }
    }

    private void onPrediction(ConsumerRecord<byte[], byte[]> record) {
        Prediction prediction = topics.predictions().value(record.value());
        String id = prediction.id() != null ? prediction.id()
                : record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        if (id == null) {
            return;
        }
        if (predictionsById.putIfAbsent(id, prediction) != null) {
            duplicateIds.add(id);
        }
    }

    /**
     * Polls until every committed record of the metrics topic at this moment was read (read_committed end
     * offsets); returns the metrics records read so far.
     */
    List<String> drainMetrics() {
        List<TopicPartition> partitions = consumer.assignment().stream()
                .filter(p -> p.topic().equals(topics.metrics().name())).toList();
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
        while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            poll();
        }
        return List.copyOf(metrics);
    }

    /**
     * How far this reader got on the model topic: the next offset it reads, per partition (the topic has one), for
     * the diagnosis of a stalled replay ({@link StallDiagnosis}).
     */
    String modelTopicPosition() {
        return consumer.assignment().stream().filter(p -> p.topic().equals(topics.model().name()))
                .map(p -> String.valueOf(consumer.position(p))).sorted().toList().toString();
    }

    /** The highest reset generation a drift record read so far started (0: none). */
    long resetAlarmed() {
        return resetAlarmed;
    }

    /** The latest model published under our model id, or null before the first. */
    ModelParameters model() {
        return model;
    }

    List<DeadLetter> labelledDeadLetters() {
        return labelledDeadLetters;
    }

    List<DeadLetter> unlabelledDeadLetters() {
        return unlabelledDeadLetters;
    }

    Map<String, Prediction> predictionsById() {
        return predictionsById;
    }

    /** Ids that received more than one prediction (exactly-once says: none). */
    List<String> duplicateIds() {
        return duplicateIds;
    }

    long recordsSeen() {
        return recordsSeen;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
