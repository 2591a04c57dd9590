package io.gdastreams.topology;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.serde.UnicodeText;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Builds dead letters that keep the original bytes (base64) and where they came from.
 *
 * <p>A dead letter must itself fit in a broker record (1 MiB by default), or producing it would fail the
 * transaction and stop the application on the very record it was meant to set aside. Base64 grows bytes by 4/3,
 * so a value near the limit cannot be carried whole: key and value keep at most {@link #MAX_KEPT_KEY_BYTES} and
 * {@link #MAX_KEPT_VALUE_BYTES} bytes (a prefix, and the reason says so; the full record stays at its source
 * topic/partition/offset), and the reason at most {@link #MAX_REASON_CHARS} characters. The dead-letter record
 * itself is keyed by the original key only when that fits {@link OutputKey} (otherwise it has no key), so key +
 * value stay below about 900 KB whatever the input.
 */
final class DeadLetters {

    static final int MAX_KEPT_KEY_BYTES = OutputKey.MAX_BYTES;
    static final int MAX_KEPT_VALUE_BYTES = 512 * 1024;
    static final int MAX_REASON_CHARS = 4096;

    private DeadLetters() {
    }

    static DeadLetter of(String reason, String topic, int partition, long offset, byte[] key, byte[] value) {
        String text = UnicodeText.cut(reason, MAX_REASON_CHARS);
        text += truncation("key", key, MAX_KEPT_KEY_BYTES) + truncation("value", value, MAX_KEPT_VALUE_BYTES);
        return new DeadLetter(text, topic, partition, offset, base64(key, MAX_KEPT_KEY_BYTES),
                base64(value, MAX_KEPT_VALUE_BYTES));
    }

    /**
     * A damaged state-store entry: it comes from the store's changelog (offset unknown, −1), keyed by the store
     * key as UTF-8.
     */
    static DeadLetter ofStoreEntry(String reason, String applicationId, String storeName, int partition, String key,
                                   byte[] value) {
        return of(reason, InternalTopics.changelog(applicationId, storeName), partition, -1,
                key.getBytes(StandardCharsets.UTF_8), value);
    }

    private static String truncation(String what, byte[] bytes, int max) {
        return bytes == null || bytes.length <= max ? ""
                : "; " + what + " truncated to its first " + max + " of " + bytes.length + " bytes";
    }

    private static String base64(byte[] bytes, int max) {
        if (bytes == null) {
            return null;
        }
        return Base64.getEncoder().encodeToString(bytes.length <= max ? bytes : Arrays.copyOf(bytes, max));
    }
}
