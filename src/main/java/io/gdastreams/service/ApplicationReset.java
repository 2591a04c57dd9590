package io.gdastreams.service;

import io.gdastreams.lifecycle.Directories;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.InternalTopics;
import io.gdastreams.topology.ModelSigning;
import io.gdastreams.topology.Topic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What resetting one Kafka Streams application removes, and removing it: its internal topics (those of
 * {@link io.gdastreams.topology.InternalTopics#of} that exist, named exactly: not by the pattern Kafka's
 * StreamsResetter uses, which also matches another application whose id begins with this one's), its consumer group
 * with the committed input offsets (the next start reads its input from the beginning: auto.offset.reset is Kafka
 * Streams' default, earliest) and its local state directory ({@code <state.dir>/<application.id>}, on this machine
 * only). Nothing is removed while an instance of the
 * application is still in the group.
 *
 * <p>Kafka's StreamsResetter (kafka-tools) does the same for the topics and offsets but is not on the class path
 * of either jar (it brings argparse4j and the tools' dependencies) and cannot see the local state; the three Admin
 * calls here are what it runs for a reset to the earliest offsets.
 */
public final class ApplicationReset {

    private static final String DEFAULT_STATE_DIR = "kafka-streams";
    /** Topic, then partition number: how offsets are listed. */
    private static final java.util.Comparator<TopicPartition> BY_PARTITION = (a, b) -> a.topic().equals(b.topic())
            ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic());

    /** {@code offsets} in listing order ({@link #BY_PARTITION}), unmodifiable. */
    private static Map<TopicPartition, Long> sorted(Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, Long> sorted = new TreeMap<>(BY_PARTITION);
        sorted.putAll(offsets);
        return java.util.Collections.unmodifiableMap(sorted);
    }

    /** "labelled-0 at 75, labelled-1 at 75": the first {@code limit} of {@code offsets}, then "…" if there are more. */
    public static String listed(Map<TopicPartition, Long> offsets, int limit) {
        StringBuilder text = new StringBuilder();
        int listed = 0;
        for (Map.Entry<TopicPartition, Long> e : sorted(offsets).entrySet()) {
            if (listed++ == limit) {
                return text.append(", …").toString();
            }
            text.append(listed == 1 ? "" : ", ").append(e.getKey()).append(" at ").append(e.getValue());
        }
        return text.toString();
    }

    /**
     * What is there to remove. {@code committed}: partition → committed offset (empty when the group has none);
     * {@code members}: instances still in the group; {@code keepOffsets}: the group and its offsets stay (only a
     * scorer's may: {@link #keepingOffsets}), but for the partitions of {@code rewind}, moved back to those offsets.
     */
    public record Plan(String applicationId, List<String> internalTopics, boolean groupExists,
                       Map<TopicPartition, Long> committed, int members, Path stateDirectory, boolean stateExists,
                       boolean keepOffsets, Map<TopicPartition, Long> rewind) {

        public Plan {
            internalTopics = List.copyOf(internalTopics);
            committed = sorted(committed);
            rewind = sorted(rewind);
        }

        /** Nothing of the application is left to remove. */
        public boolean isEmpty() {
            return internalTopics.isEmpty() && (keepOffsets || !groupExists) && !stateExists;
        }

        /**
         * This plan, keeping the group's committed offsets: the application goes on after the last input it
         * committed instead of reading its input again. Sound only for an application whose state is not the sum
         * of its input so far, i.e. the scorer, whose only state is the events it holds awaiting a model ({@link
         * HeldEventsOnBroker}): those are behind the committed offsets and would go with the changelog, so the
         * partitions in {@code earliestHeld} are moved back to their earliest held event, and read again.
         */
        public Plan keepingOffsets(Map<TopicPartition, Long> earliestHeld) {
            return new Plan(applicationId, internalTopics, groupExists, committed, members, stateDirectory,
                    stateExists, true, earliestHeld);
        }
    }

    private ApplicationReset() {
    }

    /** The state directory of {@code applicationId} under the {@code state.dir} of {@code streams}. */
    public static Path stateDirectory(Properties streams, String applicationId) {
        String root = streams.getProperty("state.dir");
        Path base = root == null ? Paths.get(System.getProperty("java.io.tmpdir"), DEFAULT_STATE_DIR) : Path.of(root);
        return base.resolve(applicationId);
    }

    /** Looks at the cluster and the disk; changes nothing. */
    public static Plan plan(Admin admin, String applicationId, Path stateDirectory, Duration timeout) {
        List<String> topics = new ArrayList<>(InternalTopics.of(applicationId));
        topics.retainAll(await(admin.listTopics().names(), timeout, "list the topics"));
        boolean groupExists = false;
        int members = 0;
        Map<TopicPartition, Long> committed = new TreeMap<>(BY_PARTITION); // filled in the callback below
        try {
            ConsumerGroupDescription group = await(admin.describeConsumerGroups(List.of(applicationId))
                    .describedGroups().get(applicationId), timeout, "describe the group " + applicationId);
            members = group.members().size();
            Map<TopicPartition, OffsetAndMetadata> offsets = await(admin.listConsumerGroupOffsets(applicationId)
                    .partitionsToOffsetAndMetadata(), timeout, "read the offsets of " + applicationId);
            offsets.forEach((partition, offset) -> {
                if (offset != null) {
                    committed.put(partition, offset.offset());
                }
            });
            groupExists = members > 0 || !committed.isEmpty()
                    || !"DEAD".equals(group.groupState().name());
        } catch (GroupMissing e) {
            groupExists = false;
        }
        return new Plan(applicationId, topics, groupExists, committed, members, stateDirectory,
                Files.exists(stateDirectory), false, Map.of());
    }

    /**
     * Removes what {@code plan} lists: the group (and its offsets, unless the plan keeps them), the internal topics,
     * the local state.
     */
    public static void execute(Admin admin, Plan plan, Duration timeout) {
        if (plan.members() > 0) {
            throw new UserError("application '" + plan.applicationId() + "' still has " + plan.members()
                    + " running instance(s) in its group: stop every train/score instance of it first");
        }
        if (plan.groupExists() && !plan.keepOffsets()) {
            try {
                await(admin.deleteConsumerGroups(List.of(plan.applicationId())).all(), timeout,
                        "delete the group " + plan.applicationId());
            } catch (GroupMissing e) {
                // Gone meanwhile: what was to be removed is removed.
            }
        }
        if (!plan.rewind().isEmpty()) {
            // Before the changelog that holds those events goes: after a failure here the changelog still holds
            // them, though some offsets may have moved (so the message asks for the reset again).
            Map<TopicPartition, OffsetAndMetadata> back = new TreeMap<>(BY_PARTITION);
            plan.rewind().forEach((partition, offset) -> back.put(partition, new OffsetAndMetadata(offset)));
            await(admin.alterConsumerGroupOffsets(plan.applicationId(), back).all(), timeout,
                    "move the offsets of " + plan.applicationId() + " back to its held events (some may have moved:"
                    + " run reset again before starting the scorer)");
        }
        if (!plan.internalTopics().isEmpty()) {
            await(admin.deleteTopics(plan.internalTopics()).all(), timeout, "delete the internal topics");
        }
        if (plan.stateExists()) {
            try {
                Directories.delete(plan.stateDirectory());
            } catch (IOException e) {
                throw new RunFailure("cannot delete the state directory " + plan.stateDirectory() + ": "
                        + e.getMessage(), e);
            }
        }
    }

    /** A group that does not exist (or no longer). */
    private static final class GroupMissing extends RuntimeException {
        GroupMissing() {
            super(null, null, false, false);
        }
    }

    /**
     * {@code future}'s value within {@code timeout}, or a RunFailure that says "cannot {@code what}" and why (a group
     * that does not exist: {@link GroupMissing}).
     */
    static <T> T await(org.apache.kafka.common.KafkaFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                throw new GroupMissing();
            }
            throw new RunFailure("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new RunFailure("cannot " + what + ": no answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while trying to " + what, e);
        }
    }

    /**
     * The record that hands {@code published} over: one version above, published {@code now} by no trainer, and
     * otherwise {@code published} unchanged, lineage included (sources, retractions, reset generation and the
     * events resets dropped), so that the model on the topic never goes backwards in any of them.
     */
    static ModelParameters handOver(ModelParameters published, Instant now) {
        if (published.version() == Long.MAX_VALUE) {
            throw new RunFailure("cannot hand model '" + published.modelId() + "' over: its version is "
                    + Long.MAX_VALUE + ", above which no version is left (docs/TRAINING.md, 'Versions are"
                    + " identities'); delete the record (a tombstone under the model id) and reset again");
        }
        return published.republished(published.version() + 1, now.toString(), "");
    }

    /**
     * Hands the model a trainer published over to no trainer: its statistics again, one version above, with an
     * empty {@code trainer}. A trainer reset to zero would otherwise find its own model on the topic with a lineage
     * its new state is behind, and refuse to run (docs/TRAINING.md, "Guards against lost state"); with the
     * hand-over it publishes above it, as above any model it did not publish. Scorers switch to the same
     * statistics, then to the retrained models. Signed with {@code signing}'s key when keys are configured, as the
     * trainer signs: a trainer or scorer with keys refuses an unsigned record, and the retrained trainer would then
     * not see the hand-over, and number its models from 1 again. Returns the record written.
     */
    public static ModelParameters releaseModel(Topic<String, ModelParameters> topic, ModelParameters published,
                                               String bootstrapServers, Properties client, Instant now,
                                               Duration timeout, ModelSigning signing) {
        ModelParameters released = handOver(published, now);
        byte[] value = topic.valueBytes(released);
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(timeout.toMillis()));
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(properties, topic.keySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic.name(), null, released.modelId(), value, signing.sign(value)))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new RunFailure("cannot write the model topic " + topic.name() + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException | org.apache.kafka.common.KafkaException e) {
            throw new RunFailure("cannot write the model topic " + topic.name() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while writing the model topic", e);
        }
        return released;
    }
}
