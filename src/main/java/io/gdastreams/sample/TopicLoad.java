package io.gdastreams.sample;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.serde.EventEncoder;
import io.gdastreams.topology.Topic;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * {@code sample --to-topic}: drawn events produced as labelled events (the JSON {@code train} accepts), paced at a
 * fixed rate: event i is due at start + i / rate, and the producer sleeps only when it is more than a millisecond
 * ahead, so the average rate holds whatever the sleep granularity. When the cluster cannot take the rate, the
 * producer's buffer blocks and the progress lines show the rate achieved. Record keys are the event index
 * (decimal), so events spread over the partitions and can be traced back to the run.
 */
public final class TopicLoad {

    /** Fastest accepted --rate (events/s): far above what one producer sends; a typo guard, not a promise. */
    public static final double MAX_RATE = 1_000_000;
    /** Slowest accepted --rate (events/s): one event per 100 s. */
    public static final double MIN_RATE = 0.01;
    private static final long SLEEP_THRESHOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * @param topic            the labelled-event topic to write (must exist)
     * @param count            events to send
     * @param rate             events per second, in [{@link #MIN_RATE}, {@link #MAX_RATE}]
     * @param progressInterval how often a progress line is printed
     * @param timeout          how long to wait for the cluster (the topic check, the last acknowledgements)
     */
    public record Request(String bootstrapServers, Properties client, Topic<byte[], byte[]> topic, long count,
                          double rate, Duration progressInterval, Duration timeout) {
        public Request {
            if (!(rate >= MIN_RATE && rate <= MAX_RATE)) {
                throw new IllegalArgumentException("rate out of range: " + rate);
            }
        }
    }

    /** What was sent: every event acknowledged by the broker, in {@code elapsed}. */
    public record Summary(long sent, Duration elapsed) {
        public double rate() {
            return sent / Math.max(elapsed.toNanos() / 1e9, 1e-9);
        }
    }

    private final Request request;

    private TopicLoad(Request request) {
        this.request = request;
    }

    /** A load on {@code request}'s topic, after checking that the topic exists (a user error when it does not). */
    public static TopicLoad to(Request request) {
        checkTopic(request);
        return new TopicLoad(request);
    }

    /**
     * Sends {@code request.count()} events drawn by {@code sampler} from {@code random}; progress to {@code progress}.
     */
    public Summary run(EventSampler sampler, RandomGenerator random, PrintWriter progress) {
        AtomicReference<Exception> error = new AtomicReference<>();
        AtomicLong acknowledged = new AtomicLong();
        String topic = request.topic().name();
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = producer(request)) {
            double nanosPerEvent = 1e9 / request.rate();
            long nextProgress = start + request.progressInterval().toNanos();
            for (long i = 0; i < request.count(); i++) {
                long wait = start + (long) (i * nanosPerEvent) - System.nanoTime();
                if (wait > SLEEP_THRESHOLD_NANOS) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                byte[] value = EventEncoder.labelled(sampler.next(random));
                producer.send(new ProducerRecord<>(topic, Long.toString(i).getBytes(StandardCharsets.UTF_8), value),
                        (metadata, e) -> {
                            if (e != null) {
                                error.compareAndSet(null, e);
                            } else {
                                acknowledged.incrementAndGet();
                            }
                        });
                if (error.get() != null) {
                    break;
                }
                long now = System.nanoTime();
                if (now >= nextProgress) {
                    progress.printf(Locale.ROOT, "  %,d of %,d events sent to %s (%,.1f/s)%n", i + 1,
                            request.count(), topic, (i + 1) / ((now - start) / 1e9));
                    progress.flush();
                    nextProgress = now + request.progressInterval().toNanos();
                }
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted after " + acknowledged.get() + " events sent to " + topic);
        }
        if (error.get() != null) {
            throw new RunFailure("cannot send to " + topic + " (after " + acknowledged.get() + " events): "
                    + error.get().getMessage(), error.get());
        }
        return new Summary(acknowledged.get(), Duration.ofNanos(System.nanoTime() - start));
    }

    /** The topic must exist: a producer would have the broker create it with defaults, or wait a minute. */
    private static void checkTopic(Request request) {
        Properties properties = new Properties();
        properties.putAll(request.client());
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, request.bootstrapServers());
        String topic = request.topic().name();
        try (Admin admin = Admin.create(properties)) {
            admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(request.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new UserError("no topic '" + topic + "' on " + request.bootstrapServers()
                        + " (create it first; train creates its topics when gda.create.topics=true)");
            }
            throw new RunFailure("cannot look up topic '" + topic + "' on " + request.bootstrapServers() + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new RunFailure("no answer from the cluster at " + request.bootstrapServers() + " within "
                    + request.timeout().toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while looking up topic '" + topic + "'", e);
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(Request request) {
        Properties properties = new Properties();
        properties.putAll(request.client());
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, request.bootstrapServers());
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "gda-streams-sample");
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(request.timeout().toMillis()));
        return new KafkaProducer<>(properties, request.topic().keySerializer(), request.topic().valueSerializer());
    }
}
