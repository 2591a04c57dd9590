package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a service asks the broker when a changelog restore stalls, on a real broker: a transaction left open on a
 * partition holds its last stable offset, the judgement names it with the command that ends it, and ending it the
 * way that command does (Kafka's {@code kafka-transactions.sh abort --start-offset}: the producer found by its
 * transaction's first offset, aborted with its id, epoch and coordinator epoch) frees the partition and loses no
 * committed record.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ChangelogOnBrokerIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration PATIENCE = Duration.ofMinutes(5);
    private static final int COMMITTED = 3;
    private static final int LEFT_OPEN = 2;
    /** Longer than the test: only the admin call may end the transaction, as for one its coordinator has lost. */
    private static final Duration OPEN_FOR = Duration.ofMinutes(5);

    @Test
    void shouldNameTheTransactionThatHoldsAPartitionAndFreeItWithoutLosingACommittedRecord(KafkaBroker broker)
            throws Exception {
        String topic = KafkaBroker.uniqueName("changelog");
        broker.createTopics(Map.of(topic, 1));
        TopicPartition partition = new TopicPartition(topic, 0);
        long before = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer = broker.transactionalProducer(OPEN_FOR)) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, "committed", COMMITTED);
            producer.commitTransaction(); // offsets 0-2, its commit marker at 3
            producer.beginTransaction();
            send(producer, topic, "open", LEFT_OPEN); // offsets 4-5, never ended by this producer
            producer.flush();

            long openAt = COMMITTED + 1;
            // Asked from the offset after the last committed record: only its commit marker lies before the hold.
            ChangelogOnBroker held = ask(broker, partition, COMMITTED);
            assertEquals(openAt + LEFT_OPEN, held.endOffset());
            assertEquals(openAt, held.lastStableOffset(), "the open transaction's first offset");
            assertEquals(OptionalLong.empty(), held.firstReadable(), "a marker is not a record");
            assertEquals(OptionalLong.of(1), ask(broker, partition, 1).firstReadable(), "committed-1");
            assertEquals(1, held.open().size(), held.open().toString());
            ChangelogOnBroker.OpenTransaction open = held.open().get(0);
            assertEquals(openAt, open.startOffset());
            assertTrue(open.lastTimestampMillis() >= before - 1_000, "written during this test: " + open);

            // A restore whose last record was the last committed one is held; one behind it is not reading.
            var atTheHold = new RestoreWatch.Progress(partition, "store", COMMITTED, openAt + LEFT_OPEN, 0);
            StalledRestore stalled = StalledRestore.judge("training", atTheHold, PATIENCE, Optional.of(held), null,
                    broker.bootstrapServers(), System.currentTimeMillis(), true);
            assertEquals(StalledRestore.Verdict.HELD_BY_A_TRANSACTION, stalled.verdict());
            assertTrue(stalled.message().contains("(producer " + open.producerId() + ", epoch "
                    + open.producerEpoch() + ", last write 0 min ago)"), stalled.message());
            assertTrue(stalled.message().contains("abort --topic " + topic + " --partition 0 --start-offset "
                    + openAt + "`"), stalled.message());
            var behind = new RestoreWatch.Progress(partition, "store", 1, openAt + LEFT_OPEN, 0);
            assertEquals(StalledRestore.Verdict.NOT_READING, StalledRestore.judge("training", behind, PATIENCE,
                    Optional.of(ask(broker, partition, 1)), null, broker.bootstrapServers(),
                    System.currentTimeMillis(), true).verdict());

            broker.admin().abortTransaction(new AbortTransactionSpec(partition, open.producerId(),
                    (short) open.producerEpoch(), open.coordinatorEpoch().orElse(0)))
                    .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

            ChangelogOnBroker freed = ask(broker, partition, COMMITTED);
            assertEquals(openAt + LEFT_OPEN + 1, freed.endOffset(), "the abort marker");
            assertEquals(freed.endOffset(), freed.lastStableOffset());
            assertEquals(List.of(), freed.open());
            assertEquals(OptionalLong.empty(), freed.firstReadable(), "the aborted records are not readable");
            producer.close(Duration.ZERO); // its transaction was ended for it
        }
        List<ConsumerRecord<byte[], byte[]>> readable = broker.readAll(topic, Duration.ofSeconds(5));
        assertEquals(List.of("committed-0", "committed-1", "committed-2"), readable.stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList());
    }

    private static ChangelogOnBroker ask(KafkaBroker broker, TopicPartition partition, long position)
            throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return ChangelogOnBroker.ask(broker.admin(), reader, IsolationLevel.READ_COMMITTED, partition, position,
                    TIMEOUT);
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, (prefix + "-" + i).getBytes(StandardCharsets.UTF_8)));
        }
    }
}
