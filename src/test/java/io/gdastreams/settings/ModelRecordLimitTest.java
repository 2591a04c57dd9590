package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.config.RecordBounds;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The trainer keeps a model below the producer limit the user configured, not below the built-in one: a lowered
 * {@code producer.max.request.size} (or the unprefixed key Kafka Streams also hands its producers) must lower the
 * model bound too, or the producer refuses the model record the trainer thought fits.
 */
class ModelRecordLimitTest {

    private static final long FRAMING = RecordBounds.RECORD_FRAMING_BYTES;

    @Test
    void shouldFollowAConfiguredProducerLimit() {
        assertEquals(2_097_152 - FRAMING, RecordSizeLimits.modelRecordLimit(Map.of(
                "producer.max.request.size", "2097152")));
        assertEquals(1_048_576 - FRAMING, RecordSizeLimits.modelRecordLimit(Map.of("max.request.size", "1048576")));
        // Kafka's precedence: the producer.-prefixed key over the unprefixed one.
        assertEquals(2_097_152 - FRAMING, RecordSizeLimits.modelRecordLimit(Map.of(
                "producer.max.request.size", " 2097152 ", "max.request.size", "1048576")));
    }

    @Test
    void shouldKeepTheBuiltInBoundWhenNoneOrAnUnreadableOneIsConfigured() {
        assertEquals(RecordBounds.DEFAULT_MODEL_RECORD_LIMIT, RecordSizeLimits.modelRecordLimit(Map.of()));
        assertEquals(RecordBounds.DEFAULT_MODEL_RECORD_LIMIT, RecordSizeLimits.modelRecordLimit(Map.of(
                "producer.max.request.size", "lots")));
    }
}
