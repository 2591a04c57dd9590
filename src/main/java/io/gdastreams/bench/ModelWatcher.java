package io.gdastreams.bench;

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
 * times it read them.
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
        this.topic = topic;
        this.consumer = consumer;
        this.timeout = timeout;
        TopicPartition partition = new TopicPartition(topic.name(), 0);
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
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
                newest = topic.value(record.value());
            }
            deadline.check("reading the model topic to offset " + end);
        }
        return java.util.Optional.ofNullable(newest);
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(10));
    }
}
