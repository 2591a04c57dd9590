package io.gdastreams.replay;

import io.gdastreams.service.StreamsApp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * What a replay that stalls while training reports beside its status line, so that the failure explains itself:
 * where the rows got to. Read once, when the replay gives up; a part that cannot be read says why.
 * <ul>
 *   <li>the trainer: its Kafka Streams state, each stream thread's state and active tasks, and the changelog
 *       restores in progress;</li>
 *   <li>the rows of the labelled topic its consumer group committed (under exactly-once, with the statistics);</li>
 *   <li>per topic (the internal partials topic the partition tasks snapshot to, the model topic, the metrics
 *       topic): the log end offset, everything written including open and aborted transactions, beside the last
 *       stable offset, what a read_committed reader (the combiner, this replay) can read.</li>
 * </ul>
 * How to read it: no rows committed means the trainer never got a transaction through (rebalancing, restoring, a
 * stuck thread); rows committed but no partials, that the tasks' snapshots were not sent or not committed; partials
 * but an empty model topic, that the combiner held or never ran its publish (its log says why, "waits for …");
 * model records this replay did not read, a reader problem.
 */
final class StallDiagnosis {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private StallDiagnosis() {
    }

    /**
     * The diagnosis of {@code trainer}, whose group committed {@code committedRows} of {@code rowsSent} rows, and of
     * {@code topics} (name → what it is), read through an admin client of {@code bootstrapServers} with
     * {@code clientProperties}.
     */
    static String of(StreamsApp trainer, long committedRows, int rowsSent, Map<String, String> topics,
                     String bootstrapServers, Properties clientProperties) {
        StringBuilder text = new StringBuilder("trainer ").append(trainer.state());
        try {
            for (ThreadMetadata thread : trainer.kafkaStreams().metadataForLocalThreads()) {
                text.append("; thread ").append(thread.threadName()).append(' ').append(thread.threadState())
                        .append(" tasks ").append(thread.activeTasks().stream().map(t -> t.taskId().toString())
                                .sorted().toList());
            }
        } catch (RuntimeException e) {
            text.append("; threads unknown (").append(e.getMessage()).append(')');
        }
        if (!trainer.restoring().isEmpty()) {
            text.append("; restoring ").append(trainer.restoring());
        }
        text.append("; committed ").append(committedRows).append(" of ").append(rowsSent).append(" rows");
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(properties)) {
            for (Map.Entry<String, String> topic : topics.entrySet()) {
                text.append("; ").append(topic.getValue()).append(' ').append(topic.getKey()).append(": ")
                        .append(offsets(admin, topic.getKey()));
            }
        } catch (RuntimeException e) {
            text.append("; topics unknown (").append(e.getMessage()).append(')');
        }
        return text.toString();
    }

    /**
     * "end E, stable S" per partition (one partition: without its number), or why it cannot be read: E the log end
     * offset, S the last stable offset (below the first open transaction).
     */
    static String offsets(Admin admin, String topic) {
        try {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic).partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            var end = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            var stable = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<Integer, String> byPartition = new TreeMap<>();
            for (TopicPartition p : latest.keySet()) {
                byPartition.put(p.partition(), "end " + end.get(p).offset() + ", stable " + stable.get(p).offset());
            }
            if (byPartition.size() == 1) {
                return byPartition.values().iterator().next();
            }
            List<String> parts = new ArrayList<>();
            byPartition.forEach((partition, offsets) -> parts.add(partition + ": " + offsets));
            return String.join(" | ", parts);
        } catch (ExecutionException | TimeoutException e) {
            return "unknown (" + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()) + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown (interrupted)";
        }
    }
}
