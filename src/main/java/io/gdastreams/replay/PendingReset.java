package io.gdastreams.replay;

import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.MetricsJson;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A drift reset the published model does not show yet ({@code gda.drift.action=reset}; docs/TRAINING.md, "Drift
 * detection"): the trainer holds the first model of a new reset generation until every class has gda.min.count
 * again, so while the rows of the new regime are too few the newest model cannot absorb the rows sent. A replay in
 * batches would then wait for a model that only more rows can bring; instead it takes a batch as done when the
 * trainer has committed every row of it (its consumer group's offsets on the labelled topic, which under
 * exactly-once commit with the statistics) and a reset is pending. Opens one admin client, closed with this.
 */
final class PendingReset implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String groupId;
    private final String topic;
    private final Properties adminProperties;
    private Admin admin;

    /** @param groupId the training application's id (its consumer group) */
    PendingReset(String bootstrapServers, Properties clientProperties, String groupId, String topic) {
        this.groupId = groupId;
        this.topic = topic;
        this.adminProperties = new Properties();
        adminProperties.putAll(clientProperties);
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    }

    /**
     * The reset generation the drift record {@code json} started, or 0 (another record, an alert only, or a record
     * {@link MetricsJson} cannot read: not ours, and no reason to stop a replay in the middle of a batch).
     */
    static long resetGeneration(String json) {
        if (!json.contains("\"reset\"")) {
            return 0; // cheap: most records are windows
        }
        try {
            return MetricsJson.read(json).orElse(null) instanceof MetricsRecord.DriftAlarm alarm
                    ? alarm.resetGeneration() : 0;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /** The reset generation alarmed ({@code alarmed}) above {@code model}'s, or 0 when none is pending. */
    static long pendingGeneration(long alarmed, ModelParameters model) {
        return alarmed > model.resetGeneration() ? alarmed : 0;
    }

    /** Rows of the labelled topic the trainer committed (sum of its group's offsets; 0 when it has none yet). */
    long committedRows() {
        try {
            if (admin == null) {
                admin = Admin.create(adminProperties);
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long rows = 0;
            for (var entry : offsets.entrySet()) {
                if (entry.getKey().topic().equals(topic) && entry.getValue() != null) {
                    rows += entry.getValue().offset();
                }
            }
            return rows;
        } catch (ExecutionException | TimeoutException e) {
            return 0; // asked again at the next poll
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(TIMEOUT);
        }
    }
}
