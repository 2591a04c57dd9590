package io.gdastreams.console;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code produce}: each line of a text stream becomes one record of a topic (UTF-8 value; with a key separator,
 * the text before its first occurrence is the key), for trying the services without Kafka's console scripts. Blank
 * lines are skipped. Sends are acknowledged by every in-sync replica (acks=all, idempotent); the first failure
 * stops the run.
 */
public final class LineProducer {

    /** A longer line is refused rather than buffered: an event of gda-streams is far smaller. */
    public static final int MAX_LINE_CHARS = 1_000_000;

    private LineProducer() {
    }

    /**
     * Sends the lines of {@code in} to {@code topic}; returns how many records were sent. A failure says how many
     * records the broker acknowledged and from which line on nothing may have arrived, so that a run stopped by an
     * outage can be resumed without guessing.
     */
    public static long run(BufferedReader in, String topic, String keySeparator, String bootstrapServers,
                           Properties client, Duration timeout) throws IOException {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        // --timeout bounds every wait for the broker: a send's (metadata) and a record's acknowledgement.
        long millis = timeout.toMillis();
        long requestTimeout = Math.min(30_000, millis);
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(millis));
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestTimeout));
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(Math.max(millis, requestTimeout + 5)));
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "gda-streams-produce");
        requireTopic(topic, bootstrapServers, properties, timeout);
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong firstLost = new AtomicLong(Long.MAX_VALUE);
        long sent = 0;
        long number = 0;
        KafkaException sendFailure = null;
        String tooLong = null;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            String line;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.length() > MAX_LINE_CHARS) {
                    // Said once the lines before it are acknowledged: they are on the topic.
                    tooLong = "line " + number + " is longer than " + MAX_LINE_CHARS + " characters";
                    break;
                }
                if (line.isBlank()) {
                    continue;
                }
                byte[] key = null;
                String value = line;
                int at = keySeparator == null ? -1 : line.indexOf(keySeparator);
                if (at >= 0) {
                    key = line.substring(0, at).getBytes(StandardCharsets.UTF_8);
                    value = line.substring(at + keySeparator.length());
                }
                if (failure.get() != null) {
                    break;
                }
                long lineNumber = number;
                try {
                    producer.send(new ProducerRecord<>(topic, key, value.getBytes(StandardCharsets.UTF_8)),
                            (metadata, e) -> {
                                if (e == null) {
                                    acknowledged.incrementAndGet();
                                } else {
                                    failure.compareAndSet(null, e);
                                    firstLost.accumulateAndGet(lineNumber, Math::min);
                                }
                            });
                } catch (KafkaException e) {
                    // Not sent at all (no broker within max.block.ms, say): nothing from this line on.
                    sendFailure = e;
                    firstLost.accumulateAndGet(lineNumber, Math::min);
                    break;
                }
                sent++;
            }
            producer.flush();
        } catch (KafkaException e) {
            sendFailure = sendFailure == null ? e : sendFailure;
        }
        // After close: every record sent was either acknowledged or failed by now.
        Exception cause = sendFailure != null ? sendFailure : failure.get();
        if (cause != null) {
            String account = acknowledged.get() + " record" + (acknowledged.get() == 1 ? "" : "s") + " of " + topic
                    + " acknowledged; from line " + (firstLost.get() == Long.MAX_VALUE ? number : firstLost.get())
                    + " on, lines may not have arrived";
            throw new RunFailure((sendFailure != null ? "cannot produce to '" + topic + "' on " + bootstrapServers
                    : "a record was not acknowledged by " + bootstrapServers) + ": "
                    + (cause instanceof ExecutionException ? cause.getCause() : cause).getMessage() + " (" + account
                    + ")", cause);
        }
        if (tooLong != null) {
            throw new UserError(tooLong + ": the " + sent + (sent == 1 ? " record before it was" : " records before it"
                    + " were") + " sent to '" + topic + "' (and acknowledged), nothing from it on");
        }
        return sent;
    }

    /** A producer would wait max.block.ms for a missing topic and then say only "not present in metadata". */
    private static void requireTopic(String topic, String bootstrapServers, Properties properties,
                                     Duration timeout) {
        Properties adminProperties = new Properties();
        adminProperties.putAll(properties);
        adminProperties.keySet().removeIf(key -> key.toString().startsWith("acks")
                || key.toString().startsWith("enable.idempotence") || key.toString().startsWith("max.block.ms")
                || key.toString().equals(ProducerConfig.CLIENT_ID_CONFIG));
        Admin admin = Admin.create(adminProperties);
        try {
            admin.describeTopics(List.of(topic)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new UserError("no topic '" + topic + "' on " + bootstrapServers);
            }
            throw new RunFailure("cannot look up '" + topic + "' on " + bootstrapServers + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new RunFailure("no answer from " + bootstrapServers + " within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted", e);
        } finally {
            // A plain close waits up to Kafka's default 60 s for the call that timed out: --timeout bounds the wait.
            admin.close(Duration.ZERO);
        }
    }
}
