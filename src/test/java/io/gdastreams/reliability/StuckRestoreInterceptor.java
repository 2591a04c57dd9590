package io.gdastreams.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A fault for a restore consumer ({@code restore.consumer.interceptor.classes}): while the file named by the
 * variable {@value #FLAG_VARIABLE} exists, the first restore consumer of the process to fetch records is stuck: each
 * of its polls that fetched records stops in this interceptor before Kafka Streams sees them, so the restore stands
 * still although the broker serves what it should read, and its thread does not return, as a stuck client's would.
 * Other consumers pass. Deleting the file lets the poll return. Used by {@link StuckRestoreIT} in the product's
 * child process; without the variable it does nothing.
 */
public final class StuckRestoreInterceptor implements ConsumerInterceptor<byte[], byte[]> {

    public static final String FLAG_VARIABLE = "STUCK_RESTORE_FLAG";
    /** Printed to the child's log when a poll is first held, so that the test knows the fault took. */
    public static final String HELD = "StuckRestoreInterceptor: holding a restore poll of ";
    private static final long CHECK_MILLIS = 20;

    /** The one consumer that is stuck: the first to fetch records while the flag exists. */
    private static final AtomicReference<StuckRestoreInterceptor> STUCK = new AtomicReference<>();

    private final Path flag = flagFile();

    @Override
    public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
        if (flag == null || records.isEmpty() || !Files.exists(flag)
                || !(STUCK.compareAndSet(null, this) || STUCK.get() == this)) {
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
