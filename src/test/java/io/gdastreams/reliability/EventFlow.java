package io.gdastreams.reliability;

import io.gdastreams.it.TestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Events flowing into a topic at a steady pace, round-robin over its partitions, each send acknowledged before
 * the next; remembers when each was sent and where it landed, so that a test can pick "the first event produced
 * after T" and wait for its effect.
 */
final class EventFlow implements AutoCloseable {

    /** One acknowledged event: the test clock when its send began, its id and its coordinates. */
    record Sent(long sentAtNanos, String id, int partition, long offset) {
    }

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final Duration pace;
    private final LongFunction<Event> events;
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Throwable failure;

    /** The key, id and value of the event with a given index. */
    record Event(String id, byte[] key, byte[] value) {
    }

    EventFlow(TestBroker broker, String topic, int partitions, Duration pace, LongFunction<Event> events) {
        this.producer = broker.producer();
        this.topic = topic;
        this.partitions = partitions;
        this.pace = pace;
        this.events = events;
        this.thread = new Thread(this::run, "event-flow-" + topic);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try {
            for (long i = 0; !stopped; i++) {
                Event event = events.apply(i);
                long at = System.nanoTime();
                RecordMetadata landed = producer.send(new ProducerRecord<>(topic, (int) (i % partitions),
                        event.key(), event.value())).get();
                sent.add(new Sent(at, event.id(), landed.partition(), landed.offset()));
                Thread.sleep(pace.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failure = e;
        }
    }

    /** The first event whose send began at or after {@code nanos}, once there is one (within {@code timeout}). */
    Sent firstSentAtOrAfter(long nanos, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            checkHealthy();
            Optional<Sent> first = sent.stream().filter(s -> s.sentAtNanos() >= nanos).findFirst();
            if (first.isPresent()) {
                return first.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no event sent to " + topic + " within " + timeout);
            }
            sleepBriefly();
        }
    }

    int count() {
        return sent.size();
    }

    void checkHealthy() {
        if (failure != null) {
            throw new AssertionError("sending to " + topic + " failed", failure);
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
