package io.gdastreams.bench;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.Topic;
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
    /** Null when not watched. */
    private final Topic<byte[], DeadLetter> deadLetters;
    private final Duration timeout;

    /** Takes over {@code consumer} (closed with this watcher); gives up a wait after {@code timeout}. */
    ModelWatcher(KafkaConsumer<byte[], byte[]> consumer, Topic<String, ModelParameters> topic, Duration timeout) {
        this(consumer, topic, null, timeout);
    }

    /** As above, and fails a wait at the first record of {@code deadLetters} (null: not watched). */
    ModelWatcher(KafkaConsumer<byte[], byte[]> consumer, Topic<String, ModelParameters> topic,
                 Topic<byte[], DeadLetter> deadLetters, Duration timeout) {
        this.topic = topic;
        this.deadLetters = deadLetters;
        this.consumer = consumer;
        this.timeout = timeout;
        List<TopicPartition> partitions = new ArrayList<>(List.of(new TopicPartition(topic.name(), 0)));
        if (deadLetters != null) {
            partitions.addAll(BenchClients.partitionsOf(consumer, deadLetters.name()));
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
                ModelParameters model = modelOf(record, "reach " + total + " events");
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
                newest = modelOf(record, "be complete");
            }
            deadline.check("reading the model topic to offset " + end);
        }
        return java.util.Optional.ofNullable(newest);
    }

    /**
     * The model a record of the model topic holds; a record of the dead-letter topic fails the wait, with the letter's
     * reason and where it came from ({@code outcome}: what the model will now not do).
     */
    private ModelParameters modelOf(ConsumerRecord<byte[], byte[]> record, String outcome) {
        if (record.topic().equals(topic.name())) {
            return topic.value(record.value());
        }
        DeadLetter letter = deadLetters.value(record.value());
        throw new IllegalStateException("training: the application dead-lettered a record, so the model will not "
                + outcome + ": " + letter.reason() + " (from " + letter.topic() + "-" + letter.partition()
                + " at offset " + letter.offset() + "); see " + record.topic() + "-" + record.partition()
                + " at offset " + record.offset());
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(10));
    }
}
