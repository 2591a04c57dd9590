package io.gdastreams.reliability;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The changelog offset a Kafka Streams RocksDB store holds for itself: since Kafka Streams 4.3 (KIP-1035) a
 * persistent store keeps it in its own {@code offsets} column family (key: the changelog partition as
 * {@code TopicPartition#toString()}, value: the offset as a big-endian long) instead of the task's
 * {@code .checkpoint} file, and a task restores its store from its changelog from that offset on. Read and written
 * with RocksDB directly, while no Kafka Streams client has the store open: a test can then give a store the
 * offset of another moment, as a Kafka Streams bug can.
 */
final class StoreOffsets {

    private static final byte[] OFFSETS_COLUMN_FAMILY = "offsets".getBytes(StandardCharsets.UTF_8);

    static {
        RocksDB.loadLibrary();
    }

    private StoreOffsets() {
    }

    /** The offset {@code store} (a RocksDB directory) holds for {@code changelog}; fails when it holds none. */
    static long read(Path store, TopicPartition changelog) throws RocksDBException {
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
             RocksDB db = RocksDB.openReadOnly(options, store.toString(), descriptors(), handles)) {
            try {
                byte[] value = db.get(handles.get(1), key(changelog));
                if (value == null) {
                    throw new AssertionError("store " + store + " holds no offset for " + changelog);
                }
                return ByteBuffer.wrap(value).getLong();
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    /** Sets the offset {@code store} holds for {@code changelog}; its data stays as it is. */
    static void write(Path store, TopicPartition changelog, long offset) throws RocksDBException {
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
             RocksDB db = RocksDB.open(options, store.toString(), descriptors(), handles)) {
            try {
                db.put(handles.get(1), key(changelog), ByteBuffer.allocate(Long.BYTES).putLong(offset).array());
                db.flushWal(true);
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    private static List<ColumnFamilyDescriptor> descriptors() {
        return List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                new ColumnFamilyDescriptor(OFFSETS_COLUMN_FAMILY));
    }

    private static byte[] key(TopicPartition changelog) {
        return changelog.toString().getBytes(StandardCharsets.UTF_8);
    }
}
