package io.gdastreams.topology;

import io.gdastreams.model.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Builds dead letters that keep the original bytes (base64) and where they came from. */
final class DeadLetters {

    private DeadLetters() {
    }

    static DeadLetter of(String reason, String topic, int partition, long offset, byte[] key, byte[] value) {
        return new DeadLetter(reason, topic, partition, offset, base64(key), base64(value));
    }

    /**
     * A damaged state-store entry: it comes from the store's changelog (offset unknown, −1), keyed by the store
     * key as UTF-8.
     */
    static DeadLetter ofStoreEntry(String reason, String applicationId, String storeName, int partition, String key,
                                   byte[] value) {
        return of(reason, applicationId + "-" + storeName + "-changelog", partition, -1,
                key.getBytes(StandardCharsets.UTF_8), value);
    }

    private static String base64(byte[] bytes) {
        return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
    }
}
