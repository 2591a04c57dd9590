package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.model.PendingEvent;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Where the events a scorer holds came from, as {@code reset --keep-offsets} needs it: the earliest held offset of
 * each input partition, and the entries it cannot place (an earlier release's, which kept no source, or damaged).
 */
class HeldEventsOnBrokerTest {

    private static byte[] entry(String topic, Integer partition, Long offset) {
        return SerdeFactory.pendingEvent().serializer().serialize("t", new PendingEvent(null, "e", null, 0, topic,
                partition, offset, "{}".getBytes(StandardCharsets.UTF_8), null));
    }

    @Test
    void shouldFindTheEarliestHeldOffsetOfEachPartition() {
        HeldEventsOnBroker.Held held = HeldEventsOnBroker.sources(List.of(entry("u", 0, 7L), entry("u", 1, 3L),
                entry("u", 0, 5L), entry("u", 0, 9L)));
        assertEquals(new HeldEventsOnBroker.Held(4, Map.of(new TopicPartition("u", 0), 5L,
                new TopicPartition("u", 1), 3L), 0), held);
    }

    @Test
    void shouldCountTheEntriesItCannotPlace() {
        byte[] older = SerdeFactory.pendingEvent().serializer().serialize("t", new PendingEvent(null, "e",
                Map.of("x", 1.0), 0, null, null, null, null, null));
        HeldEventsOnBroker.Held held = HeldEventsOnBroker.sources(List.of(entry("u", 0, 7L), older,
                "not json".getBytes(StandardCharsets.UTF_8)));
        assertEquals(new HeldEventsOnBroker.Held(3, Map.of(new TopicPartition("u", 0), 7L), 2), held);
    }
}
