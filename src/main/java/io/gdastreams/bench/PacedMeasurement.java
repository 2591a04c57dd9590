package io.gdastreams.bench;

import io.gdastreams.bench.ModelWatcher.ModelAt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * The second phase of a stage: with the application caught up, {@code latencyEvents} paced events, and per event
 * either its latency (input append → output) or its model freshness (input append → the first model version whose
 * lineage offset for the event's partition is past the event's offset), each measured twice: to the output's broker
 * append time, and to when the bench's {@code read_committed} consumer, reading while the events are sent, first
 * read it ("visible": under exactly-once an output is appended before its transaction commits, and a consumer of the
 * topic sees it only after). Both ends of the visible delay are wall-clock times of this machine: the broker's
 * append time of the input and the bench's read time, so it means what it says when the broker runs here (the
 * embedded one, or any on this host).
 */
record PacedMeasurement(EventLoader loader, BenchSettings settings, Duration stageTimeout) {

    /**
     * Per paced event, in milliseconds from its append: to the output's append, and to its being read.
     *
     * @param versionsPerInterval training only (NaN otherwise): the model versions appended from the first paced
     *                            event's append to the last model needed, per publish interval of that span (one
     *                            per round in steady state; a partition's news that missed its round adds one)
     */
    record Delays(Percentiles appended, Percentiles visible, double versionsPerInterval) {
    }

    /** Paced events through a caught-up application: input append → output append, and → output read. */
    Delays latency(String input, KafkaConsumer<byte[], byte[]> consumer, AppUnderTest app,
                   IntFunction<byte[]> event) {
        int n = settings.latencyEvents();
        long[] outputAppended = new long[n];
        long[] readAt = new long[n];
        ReadWhileSending.Sent<Void> sent = ReadWhileSending.run(() -> loader.sendPaced(input, event, n, null), () -> {
            readOutputs(consumer, app, outputAppended, readAt);
            return null;
        });
        long[] latencies = new long[n];
        long[] visible = new long[n];
        for (int i = 0; i < n; i++) {
            latencies[i] = outputAppended[i] - sent.appended()[i];
            visible[i] = readAt[i] - sent.appended()[i];
        }
        return new Delays(Percentiles.of(latencies), Percentiles.of(visible), Double.NaN);
    }

    /** Reads until every paced event's output is in: its append time and when it was read. */
    private void readOutputs(KafkaConsumer<byte[], byte[]> consumer, AppUnderTest app, long[] outputAppended,
                             long[] readAt) {
        boolean[] done = new boolean[outputAppended.length];
        int remaining = outputAppended.length;
        Deadline deadline = Deadline.after(app.stage(), stageTimeout);
        while (remaining > 0) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(BenchClients.POLL);
            long now = System.currentTimeMillis();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                String key = new String(record.key(), StandardCharsets.UTF_8);
                if (key.startsWith(EventLoader.LATENCY_KEY_PREFIX)) {
                    int i = Integer.parseInt(key.substring(EventLoader.LATENCY_KEY_PREFIX.length()));
                    if (!done[i]) {
                        done[i] = true;
                        outputAppended[i] = record.timestamp();
                        readAt[i] = now;
                        remaining--;
                    }
                }
            }
            app.checkHealthy();
            deadline.check("waiting for latency outputs, " + remaining + " missing");
        }
    }

    /**
     * Paced labelled events through a caught-up trainer: for each, the first model version (in publication
     * order) whose lineage offset for the event's partition is past the event's offset; its append time and the
     * time the watcher read it.
     */
    Delays freshness(String input, IntFunction<byte[]> event, ModelWatcher models, AppUnderTest app) {
        int n = settings.latencyEvents();
        int[] partitionOf = new int[n];
        long[] offsetOf = new long[n];
        ReadWhileSending.Sent<List<ModelAt>> sent = ReadWhileSending.run(
                () -> loader.sendPaced(input, event, n, (i, metadata) -> {
                    partitionOf[i] = metadata.partition();
                    offsetOf[i] = metadata.offset();
                }),
                () -> models.collectUntilTotal(settings.events() + n, app));
        long[] freshness = new long[n];
        long[] visible = new long[n];
        long lastNeeded = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            ModelAt absorbing = firstAbsorbing(sent.read(), Integer.toString(partitionOf[i]), offsetOf[i]);
            freshness[i] = absorbing.appendTime() - sent.appended()[i];
            visible[i] = absorbing.readAt() - sent.appended()[i];
            lastNeeded = Math.max(lastNeeded, absorbing.appendTime());
        }
        return new Delays(Percentiles.of(freshness), Percentiles.of(visible), versionsPerInterval(sent.read(),
                sent.appended()[0], lastNeeded, settings.publishInterval().toMillis()));
    }

    /** The versions appended in [from, to] per {@code intervalMs} of that span (NaN for an empty span). */
    static double versionsPerInterval(List<ModelAt> versions, long from, long to, long intervalMs) {
        long count = versions.stream().filter(v -> v.appendTime() >= from && v.appendTime() <= to).count();
        return to > from ? count * (double) intervalMs / (to - from) : Double.NaN;
    }

    private static ModelAt firstAbsorbing(List<ModelAt> versions, String partition, long offset) {
        for (ModelAt version : versions) {
            Long absorbedUpTo = version.model().sources().get(partition);
            if (absorbedUpTo != null && absorbedUpTo > offset) {
                return version;
            }
        }
        throw new IllegalStateException("no model includes " + partition + "@" + offset);
    }
}
