package io.gdastreams.app;

import io.gdastreams.topology.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the application's topics when they are missing: the event topics with {@code gda.partitions}
 * partitions, the model topic with one partition and log compaction (it holds the latest model per model id).
 * The model topic gets {@code max.message.bytes} = {@link RecordSizeLimits#MAX_RECORD_BYTES} (a model at
 * d = 256 is megabytes of JSON; dead letters and predictions are kept below 1 MiB by the topologies).
 * Existing topics are left as they are.
 */
public final class TopicProvisioner {

    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);
    private static final long TIMEOUT_SECONDS = 60;

    private TopicProvisioner() {
    }

    /** The topics the configuration asks for, model topic compacted. */
    public static List<NewTopic> plan(Topics topics, int partitions, short replicationFactor) {
        Optional<Short> replication = replicationFactor < 0 ? Optional.empty() : Optional.of(replicationFactor);
        List<NewTopic> plan = new ArrayList<>();
        for (String name : List.of(topics.labelled(), topics.unlabelled(), topics.predictions(),
                topics.deadLetters())) {
            plan.add(new NewTopic(name, Optional.of(partitions), replication));
        }
        Map<String, String> modelConfig = new HashMap<>(RecordSizeLimits.largeRecordTopicConfig());
        modelConfig.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        plan.add(new NewTopic(topics.model(), Optional.of(1), replication).configs(modelConfig));
        return plan;
    }

    /** Creates whichever planned topics do not exist yet; returns the names it created. */
    public static List<String> ensure(Admin admin, List<NewTopic> plan) {
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> missing = plan.stream().filter(t -> !existing.contains(t.name())).toList();
            List<String> created = new ArrayList<>();
            if (missing.isEmpty()) {
                return created;
            }
            var result = admin.createTopics(missing);
            for (NewTopic topic : missing) {
                try {
                    result.values().get(topic.name()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    created.add(topic.name());
                    LOG.debug("created topic {} ({} partitions)", topic.name(), topic.numPartitions());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + topic.name() + ": "
                                + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
            return created;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot list topics: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from the cluster within " + TIMEOUT_SECONDS
                    + " s while creating topics", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }
}
