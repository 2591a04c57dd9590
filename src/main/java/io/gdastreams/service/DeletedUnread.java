package io.gdastreams.service;

import io.gdastreams.model.DeadLetter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Input the broker deleted before the service read it: a service stopped (or lagging) longer than its input topic's
 * {@code retention.ms}, or records deleted by hand ({@code kafka-delete-records.sh}). Kafka Streams then goes on
 * from the earliest offset still there and says nothing of what it skipped; this finds it at start, before Kafka
 * Streams starts, from the group's committed offsets against the partitions' log start offsets, so that the service
 * can dead-letter and count what it will never read (docs/RELIABILITY.md, "Input deleted before it is read").
 *
 * <p>Exact while no member of the group runs: a committed offset then is where reading resumes, and every offset
 * below the log start offset is gone. While another instance runs, its consumer may have fetched past the committed
 * offset before the deletion, so nothing is said then (that instance reads the partition, not this one).
 */
final class DeletedUnread {

    private DeletedUnread() {
    }

    /** Offsets {@code from} to {@code to − 1} of {@code partition}, deleted before the group read them. */
    record Gap(TopicPartition partition, long from, long to) {

        long offsets() {
            return to - from;
        }

        /** What was lost, for the log and the dead letter. */
        String sentence(String role) {
            String lost = role.equals("training") ? "they are not in the model" : "they got no prediction";
            return "offsets " + from + " to " + (to - 1) + " of " + partition + " (" + offsets() + " offset"
                    + (offsets() == 1 ? "" : "s") + ": records, and any transaction markers among them) were deleted"
                    + " by the broker (retention, or a deletion of records) before the " + role + " application read"
                    + " them; " + lost + ". Keep the input's retention.ms above the longest stop or lag you allow";
        }

        /** The dead letter: where the gap starts, without key or value (the broker has none left to keep). */
        DeadLetter letter(String role) {
            return new DeadLetter("deleted before it was read: " + sentence(role), partition.topic(),
                    partition.partition(), from, null, null);
        }
    }

    /** The gaps between {@code committed} offsets and {@code logStarts}: a partition whose log starts above it. */
    static List<Gap> between(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> logStarts) {
        List<Gap> gaps = new ArrayList<>();
        committed.forEach((partition, offset) -> {
            Long start = logStarts.get(partition);
            if (start != null && start > offset) {
                gaps.add(new Gap(partition, offset, start));
            }
        });
        gaps.sort(Comparator.comparing((Gap gap) -> gap.partition().topic())
                .thenComparingInt(gap -> gap.partition().partition()));
        return gaps;
    }

    /**
     * The gaps of group {@code group} on {@code topic}, asked with {@code admin}; empty when members of the group
     * run (see the class comment) or when it has committed nothing there (a first start reads from the earliest
     * offset, as the operator chose by starting it).
     */
    static List<Gap> find(Admin admin, String group, String topic, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        long millis = timeout.toMillis();
        try {
            ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group))
                    .describedGroups().get(group).get(millis, TimeUnit.MILLISECONDS);
            if (!description.members().isEmpty()) {
                return List.of();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return List.of();
            }
            throw e;
        }
        // requireStable: the offsets a transaction still commits are not where reading resumes yet.
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group,
                        new ListConsumerGroupOffsetsOptions().requireStable(true))
                .partitionsToOffsetAndMetadata().get(millis, TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> committed = new HashMap<>();
        offsets.forEach((partition, offset) -> {
            if (offset != null && partition.topic().equals(topic)) {
                committed.put(partition, offset.offset());
            }
        });
        if (committed.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        committed.keySet().forEach(partition -> earliest.put(partition, OffsetSpec.earliest()));
        Map<TopicPartition, Long> logStarts = new HashMap<>();
        admin.listOffsets(earliest).all().get(millis, TimeUnit.MILLISECONDS)
                .forEach((partition, info) -> logStarts.put(partition, info.offset()));
        return between(committed, logStarts);
    }
}
