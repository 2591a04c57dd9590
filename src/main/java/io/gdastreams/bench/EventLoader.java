package io.gdastreams.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Writes a stage's input: the N throughput events as fast as the producer goes before the application starts
 * (not measured), and the paced latency events one at a time while it runs. Keys (and ids) are
 * {@value #THROUGHPUT_KEY_PREFIX}{@code <i>} and {@value #LATENCY_KEY_PREFIX}{@code <i>}, so that a latency
 * output can be matched to its event.
 */
record EventLoader(BenchClients clients, BenchSettings settings, PrintWriter progress) {

    static final String THROUGHPUT_KEY_PREFIX = "e";
    static final String LATENCY_KEY_PREFIX = "l";
    private static final int PRELOAD_LINGER_MS = 20;

    /** Called with each paced event's broker metadata as it is acknowledged. */
    interface SendListener {
        void sent(int i, RecordMetadata metadata);
    }

    /** Sends the N throughput events as fast as the producer goes; returns the end offset per partition. */
    long[] preload(String topic, IntFunction<byte[]> event) {
        long[] ends = new long[settings.partitions()];
        AtomicReference<Exception> error = new AtomicReference<>();
        AtomicLong bytes = new AtomicLong();
        long started = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = clients.producer(PRELOAD_LINGER_MS)) {
            int first = primePartitions(producer, topic, event, ends, bytes);
            for (int i = first; i < settings.events(); i++) {
                byte[] value = event.apply(i);
                bytes.addAndGet(value.length);
                producer.send(new ProducerRecord<>(topic, SyntheticStream.key(THROUGHPUT_KEY_PREFIX, i), value),
                        keepingFirstError(error, metadata -> {
                            synchronized (ends) {
                                ends[metadata.partition()] = Math.max(ends[metadata.partition()],
                                        metadata.offset() + 1);
                            }
                        }));
            }
            producer.flush();
        }
        if (error.get() != null) {
            throw BenchClients.failure("cannot pre-load " + topic, error.get());
        }
        progress.printf(Locale.ROOT, "  pre-loaded %d events (%.1f MB) into %s in %.1f s%n", settings.events(),
                bytes.get() / 1e6, topic, (System.nanoTime() - started) / 1e9);
        progress.flush();
        return ends;
    }

    /**
     * Sends the first events one at a time until every partition has one. A freshly created partition can
     * answer the first pipelined batches with NOT_LEADER_OR_FOLLOWER; the idempotent producer's retry then
     * hit OutOfOrderSequenceException on this broker and the batches expired (seen in 3 of 5 runs). Once each
     * partition has taken a record, pipelining is safe. Returns the index of the next event to send.
     */
    private int primePartitions(KafkaProducer<byte[], byte[]> producer, String topic, IntFunction<byte[]> event,
                                long[] ends, AtomicLong bytes) {
        boolean[] primed = new boolean[ends.length];
        int primedCount = 0;
        int i = 0;
        try {
            while (primedCount < ends.length && i < settings.events()) {
                byte[] value = event.apply(i);
                bytes.addAndGet(value.length);
                var metadata = producer.send(new ProducerRecord<>(topic,
                        SyntheticStream.key(THROUGHPUT_KEY_PREFIX, i), value)).get();
                ends[metadata.partition()] = metadata.offset() + 1;
                if (!primed[metadata.partition()]) {
                    primed[metadata.partition()] = true;
                    primedCount++;
                }
                i++;
            }
        } catch (InterruptedException | ExecutionException e) {
            throw BenchClients.failure("cannot pre-load " + topic, e);
        }
        return i;
    }

    /**
     * Sends n events at {@code latencyRate}/s, one at a time (no linger); returns their append times.
     * {@code listener} (may be null) sees each acknowledged event.
     */
    long[] sendPaced(String topic, IntFunction<byte[]> event, int n, SendListener listener) {
        long[] appended = new long[n];
        AtomicReference<Exception> error = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = clients.producer(0)) {
            long start = System.nanoTime();
            long intervalNanos = 1_000_000_000L / settings.latencyRate();
            for (int i = 0; i < n; i++) {
                long due = start + i * intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                int index = i;
                producer.send(new ProducerRecord<>(topic, SyntheticStream.key(LATENCY_KEY_PREFIX, i), event.apply(i)),
                        keepingFirstError(error, metadata -> {
                            appended[index] = metadata.timestamp();
                            if (listener != null) {
                                listener.sent(index, metadata);
                            }
                        }));
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw BenchClients.failure("interrupted while sending latency events", e);
        }
        if (error.get() != null) {
            throw BenchClients.failure("cannot send latency events", error.get());
        }
        return appended;
    }

    /** A send callback that keeps the first error and hands each acknowledged record's metadata to {@code onAck}. */
    private static Callback keepingFirstError(AtomicReference<Exception> error, Consumer<RecordMetadata> onAck) {
        return (metadata, e) -> {
            if (e != null) {
                error.compareAndSet(null, e);
            } else {
                onAck.accept(metadata);
            }
        };
    }
}
