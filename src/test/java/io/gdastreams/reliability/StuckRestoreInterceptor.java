package io.gdastreams.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A fault for a restore consumer ({@code restore.consumer.interceptor.classes}): while the file named by the
 * variable {@value #FLAG_VARIABLE} exists, every poll that fetched records stops in this interceptor before Kafka
 * Streams sees them, so the restore stands still although the broker serves what it should read, as a stuck
 * client's would. Deleting the file lets the poll return. Used by {@link StuckRestoreIT} in the product's child
 * process; without the variable it does nothing.
 */
public final class StuckRestoreInterceptor implements ConsumerInterceptor<byte[], byte[]> {

    public static final String FLAG_VARIABLE = "STUCK_RESTORE_FLAG";
    /** Printed to the child's log when a poll is first held, so that the test knows the fault took. */
    public static final String HELD = "StuckRestoreInterceptor: holding a restore poll of ";
    private static final long CHECK_MILLIS = 20;

    private final Path flag = flagFile();

    @Override
    public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
        if (flag == null || records.isEmpty() || !Files.exists(flag)) {
            return records;
        }
        System.out.println(HELD + records.count() + " records of " + records.partitions());
        System.out.flush();
        try {
            while (Files.exists(flag)) {
                Thread.sleep(CHECK_MILLIS);
            }
        } catch (InterruptedException e) {
            // Kafka Streams interrupting its own thread (on close) ends the fault as it would end a stuck call.
            Thread.currentThread().interrupt();
        }
        return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }

    private static Path flagFile() {
        String name = System.getenv(FLAG_VARIABLE);
        return name == null || name.isBlank() ? null : Path.of(name);
    }
}
