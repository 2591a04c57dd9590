package io.gdastreams.service;

import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Kafka Streams' clients as its default supplier makes them, but a main consumer that reports the input a reset
 * skips ({@link ResetReportingConsumer}). Used under the classic group protocol (the default); under
 * {@code group.protocol=streams} Kafka Streams makes its main consumer itself.
 */
final class ReportingClientSupplier implements KafkaClientSupplier {

    private final Consumer<DeletedInput> report;

    ReportingClientSupplier(Consumer<DeletedInput> report) {
        this.report = report;
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return new ResetReportingConsumer(config, report);
    }

    @Override
    public org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
