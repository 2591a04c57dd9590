package io.gdastreams.reliability;

import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Labelled and unlabelled events at a steady rate on a thread of its own, through broker outages: an idempotent
 * producer with a delivery timeout longer than any outage, so every send is eventually acknowledged exactly once
 * or fails the flow. Counts what was acknowledged: valid labelled events per label, hostile ones (every
 * {@code hostileEvery}-th labelled record is not JSON), unlabelled ids. Fixed seed.
 */
final class MixedEventFlow implements AutoCloseable {

    private static final long SEED = 12_0012L;
    private static final List<String> LABELS = List.of("north", "south", "east");
    private static final int DELIVERY_TIMEOUT_MS = 30 * 60 * 1000;

    private final KafkaProducer<byte[], byte[]> producer;
    private final Topics topics;
    private final int eventsPerSecond;
    private final int hostileEvery;
    private final Thread thread;
    private volatile boolean stopping;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Map<String, AtomicLong> validByLabel = new ConcurrentHashMap<>();
    private final AtomicLong labelled = new AtomicLong();
    private final AtomicLong hostile = new AtomicLong();
    private final Set<String> unlabelledIds = ConcurrentHashMap.newKeySet();

    MixedEventFlow(String bootstrapServers, Topics topics, int eventsPerSecond, int hostileEvery) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, DELIVERY_TIMEOUT_MS);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        this.topics = topics;
        this.eventsPerSecond = eventsPerSecond;
        this.hostileEvery = hostileEvery;
        this.thread = new Thread(this::run, "mixed-event-flow");
        LABELS.forEach(label -> validByLabel.put(label, new AtomicLong()));
    }

    void start() {
        thread.start();
    }

    /** Stops sending and waits until everything sent is acknowledged. */
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
        Random random = new Random(SEED);
        long start = System.nanoTime();
        long n = 0;
        try {
            while (!stopping) {
                long due = start + n * 1_000_000_000L / eventsPerSecond;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                sendLabelled(n, random);
                sendUnlabelled(n, random);
                n++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    private void sendLabelled(long n, Random random) {
        boolean isHostile = hostileEvery > 0 && n % hostileEvery == hostileEvery - 1;
        int k = (int) (n % LABELS.size());
        String label = LABELS.get(k);
        String value = isHostile ? "{\"features\": {\"x\": 1.0, \"label\": " + n
                : json(random, k, "\"label\":\"" + label + "\"");
        producer.send(new ProducerRecord<>(topics.labelled(), bytes("l-" + n), bytes(value)), (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
                return;
            }
            labelled.incrementAndGet();
            if (isHostile) {
                hostile.incrementAndGet();
            } else {
                validByLabel.get(label).incrementAndGet();
            }
        });
    }

    private void sendUnlabelled(long n, Random random) {
        String id = "u-" + n;
        String value = json(random, (int) (n % LABELS.size()), "\"id\":\"" + id + "\"");
        producer.send(new ProducerRecord<>(topics.unlabelled(), bytes(id), bytes(value)), (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            } else {
                unlabelledIds.add(id);
            }
        });
    }

    /** Three well-separated Gaussian classes over (x, y, z). */
    private static String json(Random random, int k, String extra) {
        return String.format(Locale.ROOT, "{\"features\":{\"x\":%.9f,\"y\":%.9f,\"z\":%.9f},%s}",
                random.nextGaussian() + 4 * k, 2 * random.nextGaussian() - 3 * k, random.nextGaussian() + k * k, extra);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    long labelledAcknowledged() {
        return labelled.get();
    }

    long hostileAcknowledged() {
        return hostile.get();
    }

    long unlabelledAcknowledged() {
        return unlabelledIds.size();
    }

    Set<String> unlabelledIds() {
        return unlabelledIds;
    }

    /** Acknowledged valid labelled events by label (labels with none left out, as in a model). */
    Map<String, Long> validAcknowledgedByLabel() {
        Map<String, Long> counts = new TreeMap<>();
        validByLabel.forEach((label, count) -> {
            if (count.get() > 0) {
                counts.put(label, count.get());
            }
        });
        return counts;
    }

    @Override
    public void close() {
        stopping = true;
        producer.close();
    }
}
