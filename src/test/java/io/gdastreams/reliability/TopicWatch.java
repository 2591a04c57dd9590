package io.gdastreams.reliability;

import io.gdastreams.it.TestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads a topic from the beginning (read_committed, no group) in a thread of its own and notes when each record
 * became visible to a reader, on the test clock: the moment a downstream consumer could have seen it. Unlike
 * {@link TestBroker#readUntil}, which reads from the beginning again on every call and notes no times, one
 * consumer keeps its position for the whole test, so that the times of records that arrive while the test waits
 * for something else (a restart) are not lost.
 */
final class TopicWatch<V> implements AutoCloseable {

    /** A record's value and the test clock when this reader received it. */
    record Seen<V>(long seenAtNanos, int partition, long offset, V value) {
    }

    /** How often the reader polls; the resolution of the noted times. */
    private static final Duration POLL = Duration.ofMillis(50);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final Deserializer<V> values;
    private final List<Seen<V>> seen = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Throwable failure;

    TopicWatch(TestBroker broker, String topic, Deserializer<V> values) {
        this.consumer = broker.readCommittedFromBeginning(topic);
        this.topic = topic;
        this.values = values;
        this.thread = new Thread(this::run, "topic-watch-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!stopped) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                    long now = System.nanoTime();
                    seen.add(new Seen<>(now, r.partition(), r.offset(), values.deserialize(topic, r.value())));
                }
            }
        } catch (WakeupException e) {
            // close()
        } catch (Throwable e) {
            failure = e;
        } finally {
            consumer.close();
        }
    }

    /**
     * The first record seen at or after {@code nanos} whose value satisfies {@code wanted}; fails after
     * {@code timeout}, describing {@code what}. {@code whileWaiting} runs on every check (e.g. fail fast when the
     * service died).
     */
    Seen<V> awaitFirst(String what, long nanos, Predicate<V> wanted, Duration timeout, Runnable whileWaiting) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (failure != null) {
                throw new AssertionError("reading " + topic + " failed", failure);
            }
            whileWaiting.run();
            Optional<Seen<V>> match = seen.stream()
                    .filter(s -> s.seenAtNanos() >= nanos && wanted.test(s.value())).findFirst();
            if (match.isPresent()) {
                return match.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + " on " + topic
                        + " (" + seen.size() + " records read)");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
