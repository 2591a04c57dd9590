package io.gdastreams.reliability;

import io.gdastreams.it.TestBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Events produced at a steady rate on a thread of its own, through broker outages, and what became of each: an
 * idempotent producer (acks=all) whose delivery timeout outlasts any outage a test makes, so every send is
 * eventually acknowledged exactly once or fails the flow. Tick {@code n} sends the events the generator gives for
 * {@code n}; every acknowledged event is kept with its tally (what the test counts it as: a label, "hostile",
 * "unlabelled"), the test clock when its send began and where it landed.
 *
 * <p>A test asks either what was acknowledged (counts and ids per tally: every one must have had its effect
 * exactly once, as in {@link FaultInjectionIT}) or for the first event sent after a moment (to time when its
 * effect shows, as in {@link RestartLatencyIT}).
 */
final class EventFlow implements AutoCloseable {

    /** An event to send: its topic, its id (also the record key), its value and the tally it counts in. */
    record Event(String topic, String id, byte[] value, String tally) {
    }

    /** An acknowledged event: the test clock when its send began, its id and tally, where it landed. */
    record Sent(long sentAtNanos, String id, String tally, int partition, long offset) {
    }

    /** Longer than any broker outage a test makes: a send waits the outage out instead of failing. */
    private static final int DELIVERY_TIMEOUT_MS = 30 * 60 * 1000;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final KafkaProducer<byte[], byte[]> producer;
    private final int ticksPerSecond;
    private final LongFunction<List<Event>> events;
    private final Thread thread;
    private final Queue<Sent> acknowledged = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;

    /** Nothing is sent before {@link #start()}. */
    EventFlow(TestBroker broker, int ticksPerSecond, LongFunction<List<Event>> events) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, DELIVERY_TIMEOUT_MS,
                ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        this.ticksPerSecond = ticksPerSecond;
        this.events = events;
        this.thread = new Thread(this::run, "event-flow");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Stops sending and waits until everything sent is acknowledged; fails if anything failed. */
    void stop() throws InterruptedException {
        stopping = true;
        thread.join();
        producer.flush();
        checkHealthy();
    }

    void checkHealthy() {
        if (failure.get() != null) {
            throw new AssertionError("event flow failed", failure.get());
        }
    }

    private void run() {
        long start = System.nanoTime();
        try {
            for (long n = 0; !stopping; n++) {
                long wait = start + n * 1_000_000_000L / ticksPerSecond - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                for (Event event : events.apply(n)) {
                    send(event);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    private void send(Event event) {
        long sentAt = System.nanoTime();
        producer.send(new ProducerRecord<>(event.topic(), event.id().getBytes(StandardCharsets.UTF_8),
                event.value()), (landed, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        acknowledged.add(new Sent(sentAt, event.id(), event.tally(), landed.partition(),
                                landed.offset()));
                    }
                });
    }

    /** How many events of {@code tally} were acknowledged so far. */
    long acknowledged(String tally) {
        return acknowledged.stream().filter(s -> s.tally().equals(tally)).count();
    }

    /** Acknowledged events by tally; tallies with none are left out (as labels without events in a model). */
    Map<String, Long> acknowledgedByTally() {
        return acknowledged.stream().collect(Collectors.groupingBy(Sent::tally, TreeMap::new,
                Collectors.counting()));
    }

    /** The ids of the acknowledged events of {@code tally}. */
    Set<String> acknowledgedIds(String tally) {
        return acknowledged.stream().filter(s -> s.tally().equals(tally)).map(Sent::id).collect(Collectors.toSet());
    }

    /**
     * The first acknowledged event whose send began at or after {@code nanos}, once there is one (within
     * {@code timeout}). Should an earlier send still wait for its acknowledgement, a later one is returned: to a
     * test timing from {@code nanos} until an event's effect shows, any event sent after {@code nanos} will do, as
     * its effect cannot show before it was sent (and on a healthy broker an acknowledgement takes milliseconds).
     */
    Sent firstSentAtOrAfter(long nanos, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            checkHealthy();
            Optional<Sent> first = acknowledged.stream().filter(s -> s.sentAtNanos() >= nanos)
                    .min(Comparator.comparingLong(Sent::sentAtNanos));
            if (first.isPresent()) {
                return first.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no event acknowledged within " + timeout);
            }
            Thread.sleep(10);
        }
    }

    /** Stops sending at once; what is still in flight gets {@link #CLOSE_TIMEOUT} (after {@link #stop()}, none). */
    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
        try {
            thread.join(CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(CLOSE_TIMEOUT);
    }
}
