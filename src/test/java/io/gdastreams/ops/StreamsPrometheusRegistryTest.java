package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

/** Kafka Streams' state metrics of stores of every type in one Prometheus registry, and their removal. */
class StreamsPrometheusRegistryTest {

    private static final String RESTORE_RATE = "kafka.stream.state.restore.rate";

    @Test
    void shouldKeepTheStateMetricsOfStoresOfEveryTypeUnderOneLabel() {
        StreamsPrometheusRegistry registry = new StreamsPrometheusRegistry();
        // As Micrometer's Kafka binder registers them: one tag key per store type.
        Gauge.builder(RESTORE_RATE, () -> 2.0).tags("rocksdb.state.id", "class-stats", "task.id", "0_0")
                .register(registry);
        Gauge.builder(RESTORE_RATE, () -> 3.0).tags("in.memory.state.id", "published-model", "task.id", "-1_-1")
                .register(registry);
        Gauge.builder("kafka.stream.thread.poll.rate", () -> 4.0).tags("thread.id", "t1").register(registry);

        String text = registry.scrape();

        assertTrue(text.contains("kafka_stream_state_restore_rate{state_id=\"class-stats\",task_id=\"0_0\"} 2"), text);
        assertTrue(text.contains("kafka_stream_state_restore_rate{state_id=\"published-model\",task_id=\"-1_-1\"} 3"),
                text);
        assertTrue(text.contains("kafka_stream_thread_poll_rate{thread_id=\"t1\"} 4"), text);
    }

    @Test
    void shouldRemoveAStoresMetricByTheIdTheBinderRegisteredItWith() {
        StreamsPrometheusRegistry registry = new StreamsPrometheusRegistry();
        Tags asBound = Tags.of("rocksdb.state.id", "class-stats", "task.id", "0_0");
        Gauge.builder(RESTORE_RATE, () -> 2.0).tags(asBound).register(registry);
        Gauge.builder(RESTORE_RATE, () -> 3.0).tags("rocksdb.state.id", "class-stats", "task.id", "0_1")
                .register(registry);

        // What the binder does when the task's store has gone: remove by the id it builds (unfiltered, type OTHER).
        Meter removed = registry.remove(new Meter.Id(RESTORE_RATE, asBound, null, null, Meter.Type.OTHER));

        assertNotNull(removed, "the filtered meter is found through the binder's id");
        assertEquals("class-stats", removed.getId().getTag("state.id"));
        String text = registry.scrape();
        assertFalse(text.contains("task_id=\"0_0\""), text);
        assertTrue(text.contains("kafka_stream_state_restore_rate{state_id=\"class-stats\",task_id=\"0_1\"} 3"), text);
    }
}
