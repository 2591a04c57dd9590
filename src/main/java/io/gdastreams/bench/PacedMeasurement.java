package io.gdastreams.bench;

import io.gdastreams.bench.ModelWatcher.ModelAt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * The second phase of a stage: with the application caught up, {@code latencyEvents} paced events, and per event
 * either its latency (input append → output append) or its model freshness (input append → append of the first
 * model version whose lineage offset for the event's partition is past the event's offset).
 */
record PacedMeasurement(EventLoader loader, BenchSettings settings, Duration stageTimeout) {

    /** Paced events through a caught-up application: input append → output append, per event. */
    Percentiles latency(String input, KafkaConsumer<byte[], byte[]> consumer, AppUnderTest app,
                        IntFunction<byte[]> event) {
        int n = settings.latencyEvents();
        long[] appended = loader.sendPaced(input, event, n, null);
        long[] latencies = new long[n];
        boolean[] done = new boolean[n];
        int remaining = n;
        Deadline deadline = Deadline.after(app.stage(), stageTimeout);
        while (remaining > 0) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(BenchClients.POLL)) {
                String key = new String(record.key(), StandardCharsets.UTF_8);
                if (key.startsWith(EventLoader.LATENCY_KEY_PREFIX)) {
                    int i = Integer.parseInt(key.substring(EventLoader.LATENCY_KEY_PREFIX.length()));
                    if (!done[i]) {
                        done[i] = true;
                        latencies[i] = record.timestamp() - appended[i];
                        remaining--;
                    }
                }
            }
            app.checkHealthy();
            deadline.check("waiting for latency outputs, " + remaining + " missing");
        }
        return Percentiles.of(latencies);
    }

    /**
     * Paced labelled events through a caught-up trainer: for each, the first model version (in publication
     * order) whose lineage offset for the event's partition is past the event's offset.
     */
    Percentiles freshness(String input, IntFunction<byte[]> event, ModelWatcher models, AppUnderTest app) {
        int n = settings.latencyEvents();
        int[] partitionOf = new int[n];
        long[] offsetOf = new long[n];
        long[] appended = loader.sendPaced(input, event, n, (i, metadata) -> {
            partitionOf[i] = metadata.partition();
            offsetOf[i] = metadata.offset();
        });
        List<ModelAt> versions = models.collectUntilTotal(settings.events() + n, app);
        long[] freshness = new long[n];
        for (int i = 0; i < n; i++) {
            String partition = Integer.toString(partitionOf[i]);
            freshness[i] = -1;
            for (ModelAt version : versions) {
                Long absorbedUpTo = version.model().sources().get(partition);
                if (absorbedUpTo != null && absorbedUpTo > offsetOf[i]) {
                    freshness[i] = version.appendTime() - appended[i];
                    break;
                }
            }
            if (freshness[i] < 0) {
                throw new IllegalStateException("no model includes " + partition + "@" + offsetOf[i]);
            }
        }
        return Percentiles.of(freshness);
    }
}
