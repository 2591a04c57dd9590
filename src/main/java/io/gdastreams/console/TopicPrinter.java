package io.gdastreams.console;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@code consume}: prints the records of a topic as text lines (the value, or {@code key<TAB>value}), read
 * without a consumer group (nothing is committed, no group is left behind), read_committed (the services write in
 * transactions: only what they committed). From the end by default, as Kafka's console consumer; from the
 * beginning on request.
 */
public final class TopicPrinter {

    /** How to read and when to stop. {@code maxRecords} 0: no limit; {@code idle} null: until stopped. */
    public record Request(String topic, boolean fromBeginning, boolean printKeys, long maxRecords, Duration idle,
                          String bootstrapServers, Properties client, Duration timeout) {
    }

    private TopicPrinter() {
    }

    /** Prints records to {@code out} until the bound, the idle time or an interrupt; returns how many. */
    public static long run(Request request, PrintWriter out) {
        Properties properties = new Properties();
        properties.putAll(request.client());
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, request.bootstrapServers());
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "gda-streams-consume");
        long printed = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(request.topic(), request.timeout());
            if (infos == null || infos.isEmpty()) {
                throw new UserError("no topic '" + request.topic() + "' on " + request.bootstrapServers());
            }
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(info -> partitions.add(new TopicPartition(request.topic(), info.partition())));
            consumer.assign(partitions);
            if (request.fromBeginning()) {
                consumer.seekToBeginning(partitions);
            } else {
                consumer.seekToEnd(partitions);
            }
            long lastRecord = System.nanoTime();
            while (request.maxRecords() == 0 || printed < request.maxRecords()) {
                if (Thread.currentThread().isInterrupted()) {
                    break;
                }
                var records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    if (request.idle() != null && System.nanoTime() - lastRecord > request.idle().toNanos()) {
                        break;
                    }
                    continue;
                }
                lastRecord = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if (request.maxRecords() != 0 && printed == request.maxRecords()) {
                        break;
                    }
                    out.println(line(r, request.printKeys()));
                    printed++;
                }
                out.flush();
                if (out.checkError()) {
                    throw new RunFailure("cannot write to stdout");
                }
            }
        } catch (org.apache.kafka.common.errors.InterruptException e) {
            Thread.currentThread().interrupt();
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            // As produce, inspect and sample say it.
            throw new RunFailure("no answer from " + request.bootstrapServers() + " within "
                    + request.timeout().toSeconds() + " s", e);
        } catch (KafkaException e) {
            throw new RunFailure("cannot read '" + request.topic() + "' on " + request.bootstrapServers() + ": "
                    + e.getMessage(), e);
        }
        return printed;
    }

    private static String line(ConsumerRecord<byte[], byte[]> r, boolean printKeys) {
        String value = r.value() == null ? "null" : new String(r.value(), StandardCharsets.UTF_8);
        if (!printKeys) {
            return value;
        }
        return (r.key() == null ? "null" : new String(r.key(), StandardCharsets.UTF_8)) + "\t" + value;
    }
}
