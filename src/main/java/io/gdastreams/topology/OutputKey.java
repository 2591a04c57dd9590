package io.gdastreams.topology;

/**
 * The key an output record (prediction, dead letter) may carry. Outputs keep the input's key so that readers can
 * match them, but a key alone may be almost as large as the broker's record limit (1 MiB by default): written
 * again next to a value it would make the output too large, the transaction would fail, and the application would
 * stop on that record after every restart. Keys longer than {@link #MAX_BYTES} are therefore never written as a
 * key; the scorer answers such records unscored, and every dead letter keeps a prefix of the key in its value.
 */
final class OutputKey {

    /** Longest record key written back as an output key. */
    static final int MAX_BYTES = 64 * 1024;

    private OutputKey() {
    }

    /** {@code inputKey} (not modified) when it may be written as an output key, else null. */
    static byte[] of(byte[] inputKey) {
        return fits(inputKey) ? inputKey : null;
    }

    static boolean fits(byte[] inputKey) {
        return inputKey == null || inputKey.length <= MAX_BYTES;
    }
}
