package io.gdastreams.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * {@link RecordTimestamps} for the records Kafka Streams reads without an extractor of the topology's: a global
 * store's (the model topic) takes the record's own timestamp and fails on a negative one ("Timestamp may not be
 * negative"), when read and when restored at every start; the internal partials topic's source is made by Kafka
 * Streams with {@code FailOnInvalidTimestamp}. Installed on the services' main and global consumers
 * ({@code main.consumer.interceptor.classes}, {@code global.consumer.interceptor.classes}, by the settings), it gives
 * a record without a valid timestamp the wall-clock time at which it is read, with its own in the header, before
 * Kafka Streams sees it. A poll without such a record (every poll but a hostile one's) is passed on as it is.
 */
public final class TimelessRecordInterceptor implements ConsumerInterceptor<Object, Object> {

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        for (ConsumerRecord<Object, Object> record : records) {
            if (record.timestamp() < 0) {
                return restamped(records);
            }
        }
        return records;
    }

    private static ConsumerRecords<Object, Object> restamped(ConsumerRecords<Object, Object> records) {
        long now = System.currentTimeMillis();
        Map<TopicPartition, List<ConsumerRecord<Object, Object>>> byPartition = new HashMap<>();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<Object, Object>> out = new ArrayList<>();
            for (ConsumerRecord<Object, Object> r : records.records(partition)) {
                if (r.timestamp() >= 0) {
                    out.add(r);
                    continue;
                }
                RecordTimestamps.mark(r.headers(), r.timestamp());
                out.add(new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), now, r.timestampType(),
                        r.serializedKeySize(), r.serializedValueSize(), r.key(), r.value(), r.headers(),
                        r.leaderEpoch(), r.deliveryCount()));
            }
            byPartition.put(partition, out);
        }
        return new ConsumerRecords<>(byPartition, records.nextOffsets());
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
