package io.gdastreams.it;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** Names for topics, application ids and model ids that no other test (or earlier run on the same broker) uses. */
public final class UniqueNames {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private UniqueNames() {
    }

    /** {@code prefix-<n>-<random>}: unique in this JVM and across runs against the same broker. */
    public static String of(String prefix) {
        return prefix + "-" + SEQUENCE.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
