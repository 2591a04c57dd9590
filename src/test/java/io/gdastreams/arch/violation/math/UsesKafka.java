package io.gdastreams.arch.violation.math;

import org.apache.kafka.common.utils.Utils;

/** Math that borrows a Kafka utility. */
public final class UsesKafka {

    public int hash(byte[] bytes) {
        return Utils.murmur2(bytes);
    }
}
