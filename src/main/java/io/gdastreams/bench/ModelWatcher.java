package io.gdastreams.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import io.gdastreams.topology.Topic;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the training stage's model topic from the beginning (committed records only), with append times and the
 * times it read them; and, when given the stage's dead-letter topic, stops a wait at the first record there: the
 * bench's events are all valid, so a dead letter means the model will never reach the count waited for, and the
 * reason is what the user needs (not a stage timeout minutes later).
 */
final class ModelWatcher implements AutoCloseable {

    /** One model record read back: its broker append time, and when this watcher read it (wall clock, ms). */
    record ModelAt(ModelParameters model, long appendTime, long readAt) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Topic<String, ModelParameters> topic;
    private final Duration timeout;

    /** Takes over {@code consumer} (closed with this watcher); gives up a wait after {@code timeout}. */
    ModelWatcher(KafkaConsumer<byte[], byte[]> consumer, Topic<String, ModelParameters> topic, Duration timeout) {
        this(consumer, topic, null, timeout);
    }

    /** As above, and fails a wait at the first record of {@code deadLetters} (a topic name; null: not watched). */
    ModelWatcher(KafkaConsumer<byte[], byte[]> consumer, Topic<String, ModelParameters> topic, String deadLetters,
                 Duration timeout) {
        this.topic = topic;
        this.consumer = consumer;
        this.timeout = timeout;
        List<TopicPartition> partitions = new ArrayList<>(List.of(new TopicPartition(topic.name(), 0)));
        if (deadLetters != null) {
            partitions.addAll(BenchClients.partitionsOf(consumer, deadLetters));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    ModelAt awaitTotal(long total, AppUnderTest app) {
        List<ModelAt> versions = collectUntilTotal(total, app);
        return versions.get(versions.size() - 1);
    }

    /** Every model read from now on, up to and including the first with {@code totalCount >= total}. */
    List<ModelAt> collectUntilTotal(long total, AppUnderTest app) {
        List<ModelAt> versions = new ArrayList<>();
        Deadline deadline = Deadline.after(Stage.TRAINING, timeout);
        while (true) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(BenchClients.POLL);
            long now = System.currentTimeMillis();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (!record.topic().equals(topic.name())) {
                    throw deadLettered(record, total);
                }
                ModelParameters model = topic.value(record.value());
                versions.add(new ModelAt(model, record.timestamp(), now));
                if (model.totalCount() >= total) {
                    // Later models of the same poll belong to the next phase; none exist before it starts.
                    return versions;
                }
            }
            app.checkHealthy();
            deadline.check("waiting for a model of " + total + " events");
        }
    }

    /** The newest committed model on the topic now, if any. */
    java.util.Optional<ModelParameters> latest() {
        TopicPartition partition = new TopicPartition(topic.name(), 0);
        long end = consumer.endOffsets(List.of(partition), timeout).get(partition);
        ModelParameters newest = null;
        Deadline deadline = Deadline.after(Stage.TRAINING, timeout);
        while (consumer.position(partition, timeout) < end) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(BenchClients.POLL)) {
                if (!record.topic().equals(topic.name())) {
                    throw deadLettered(record, -1);
                }
                newest = topic.value(record.value());
            }
            deadline.check("reading the model topic to offset " + end);
        }
        return java.util.Optional.ofNullable(newest);
    }

    /** The failure a dead letter means for a wait: its reason and where it is. */
    private static IllegalStateException deadLettered(ConsumerRecord<byte[], byte[]> record, long total) {
        String reason;
        try {
            JsonNode letter = Json.mapper().readTree(record.value());
            reason = letter.path("reason").asText("(no reason)") + " (from " + letter.path("topic").asText("?") + "-"
                    + letter.path("partition").asText("?") + " at offset " + letter.path("offset").asText("?") + ")";
        } catch (IOException | RuntimeException e) {
            reason = "(unreadable dead letter: " + e.getMessage() + ")";
        }
        return new IllegalStateException("training: the application dead-lettered a record, so the model will not "
                + (total >= 0 ? "reach " + total + " events" : "be complete") + ": " + reason + "; see "
                + record.topic() + "-" + record.partition() + " at offset " + record.offset());
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(10));
    }
}
