package io.gdastreams.service;

import io.gdastreams.settings.RecordSizeLimits;
import io.gdastreams.topology.Topics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the application's topics when they are missing: the event topics with {@code gda.partitions}
 * partitions, the model topic with one partition and log compaction (it holds the latest model per model id).
 * The model topic gets {@code max.message.bytes} = {@link RecordSizeLimits#MAX_RECORD_BYTES} (a model at
 * d = 256 is megabytes of JSON; dead letters and predictions are kept below 1 MiB by the topologies).
 * The topics the services read (labelled, unlabelled, model) also bound a record's decompressed size
 * ({@code max.decompressed.message.bytes}: 1 MiB for events, the model bound for models), which not every broker
 * knows ({@link DecompressedSizeBound#WHICH_BROKERS}): such a topic is then created without it, and the services'
 * start warns about it ({@link DecompressedSizeBound}). Existing topics are left as they are.
 */
public final class TopicProvisioner {

    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);
    private static final long TIMEOUT_SECONDS = 60;
    private static final String DECOMPRESSED_KEY = TopicConfig.MAX_DECOMPRESSED_MESSAGE_BYTES_CONFIG;

    private TopicProvisioner() {
    }

    /** The topics the configuration asks for, model topic compacted. */
    public static List<NewTopic> plan(Topics topics, int partitions, short replicationFactor) {
        return plan(topics, partitions, replicationFactor, Map.of());
    }

    /**
     * As {@link #plan(Topics, int, short)}, the event topics (labelled, unlabelled, predictions, dead letters,
     * metrics) with the topic settings {@code eventTopicConfig} (none when empty).
     */
    public static List<NewTopic> plan(Topics topics, int partitions, short replicationFactor,
                                      Map<String, String> eventTopicConfig) {
        Optional<Short> replication = replicationFactor < 0 ? Optional.empty() : Optional.of(replicationFactor);
        List<NewTopic> plan = new ArrayList<>();
        List<String> inputs = List.of(topics.labelled().name(), topics.unlabelled().name()); // may be one topic
        for (String name : List.of(topics.labelled().name(), topics.unlabelled().name(),
                topics.predictions().name(), topics.deadLetters().name(), topics.metrics().name())) {
            Map<String, String> config = new HashMap<>(inputs.contains(name) ? RecordSizeLimits.eventTopicConfig()
                    : Map.of());
            config.putAll(eventTopicConfig);
            NewTopic topic = new NewTopic(name, Optional.of(partitions), replication);
            plan.add(config.isEmpty() ? topic : topic.configs(config));
        }
        Map<String, String> modelConfig = new HashMap<>(RecordSizeLimits.largeRecordTopicConfig());
        modelConfig.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        plan.add(new NewTopic(topics.model().name(), Optional.of(1), replication).configs(modelConfig));
        return plan;
    }

    /**
     * An internal topic of one partition as Kafka Streams creates a repartition topic: cleanup.policy=delete,
     * retention.ms=-1 (Kafka Streams deletes consumed records itself), segment.bytes=50 MiB, then the
     * {@code topic.*} settings of {@code streams} ({@code topic.max.message.bytes}, {@link RecordSizeLimits}), as
     * Kafka Streams applies them. Kafka Streams accepts an existing internal topic whose partition count and
     * cleanup/retention settings are these.
     */
    static NewTopic repartitionTopic(String name, Properties streams) {
        short replicationFactor = Short.parseShort(streams.getProperty(StreamsConfig.REPLICATION_FACTOR_CONFIG, "-1"));
        Optional<Short> replication = replicationFactor < 0 ? Optional.empty() : Optional.of(replicationFactor);
        Map<String, String> config = new HashMap<>();
        config.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
        config.put(TopicConfig.RETENTION_MS_CONFIG, "-1");
        config.put(TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(50 * 1024 * 1024));
        for (String key : streams.stringPropertyNames()) {
            if (key.startsWith(StreamsConfig.TOPIC_PREFIX)) {
                config.put(key.substring(StreamsConfig.TOPIC_PREFIX.length()), streams.getProperty(key));
            }
        }
        return new NewTopic(name, Optional.of(1), replication).configs(config);
    }

    /**
     * Waits until the leader of every partition of {@code names} serves it. {@code createTopics} completes once the
     * controller has committed the topics, before the broker has created their partitions; a producer that writes
     * in between gets NOT_LEADER_OR_FOLLOWER, and under load its idempotent retries were seen to end in
     * OUT_OF_ORDER_SEQUENCE errors and expired batches (records lost). A ListOffsets answer comes from the
     * partition's leader, so once every partition answers, writes go straight through.
     */
    public static void awaitServed(Admin admin, Collection<String> names) {
        if (names.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
                admin.describeTopics(names).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .forEach((name, description) -> description.partitions().forEach(
                                p -> partitions.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
                admin.listOffsets(partitions).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | TimeoutException e) {
                if (e.getCause() instanceof TopicAuthorizationException refused) {
                    // An ACL does not appear by itself: waiting would only repeat the refusal.
                    List<String> named = refused.unauthorizedTopics().isEmpty() ? refusedDescribe(admin, names)
                            : refused.unauthorizedTopics().stream().sorted().toList();
                    throw new IllegalStateException("not authorised by the Kafka cluster: no DESCRIBE on topic"
                            + (named.size() == 1 ? " " : "s ") + String.join(", ", named) + " (gda.create.topics=true"
                            + " checks that the topics it finds or creates are served). Grant the ACLs of the"
                            + " provisioner role, or create the topics beforehand and set gda.create.topics=false"
                            + " (docs/SECURITY.md, \"ACLs per role\")", refused);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics " + names + " are not served by their leaders within "
                            + TIMEOUT_SECONDS + " s: " + e.getMessage(), e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for topics " + names, e);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for topics " + names, e);
            }
        }
    }

    /** Which of {@code names} the cluster refuses to describe (all of them when it cannot be told). */
    private static List<String> refusedDescribe(Admin admin, Collection<String> names) {
        List<String> refused = new ArrayList<>();
        admin.describeTopics(names).topicNameValues().forEach((name, future) -> {
            try {
                future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TopicAuthorizationException) {
                    refused.add(name);
                }
            } catch (TimeoutException e) {
                // not known: left out
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return refused.isEmpty() ? names.stream().sorted().toList() : refused.stream().sorted().toList();
    }

    /**
     * {@code topic} without {@code max.decompressed.message.bytes} when {@code failure} is a broker's refusal of that
     * key (one that does not know it: "Unknown topic config name"), else null.
     */
    static NewTopic withoutUnknownBound(NewTopic topic, Throwable failure) {
        // The broker's words (LogConfig.validateNames): "Unknown topic config name: " + the key.
        if (!(failure instanceof InvalidConfigurationException) || topic.configs() == null
                || !topic.configs().containsKey(DECOMPRESSED_KEY) || failure.getMessage() == null
                || !failure.getMessage().contains("Unknown topic config name: " + DECOMPRESSED_KEY)) {
            return null;
        }
        Map<String, String> config = new HashMap<>(topic.configs());
        config.remove(DECOMPRESSED_KEY);
        NewTopic older = new NewTopic(topic.name(), Optional.of(topic.numPartitions()).filter(p -> p > 0),
                Optional.of(topic.replicationFactor()).filter(r -> r > 0));
        return config.isEmpty() ? older : older.configs(config);
    }

    /**
     * Waits for {@code creation} of {@code topic}; a broker that refuses it for not knowing the decompressed-size
     * bound gets it again without ({@link #withoutUnknownBound}). Returns whether it did.
     */
    private static boolean awaitCreated(Admin admin, NewTopic topic, KafkaFuture<Void> creation)
            throws ExecutionException, TimeoutException, InterruptedException {
        try {
            creation.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return false;
        } catch (ExecutionException e) {
            NewTopic older = withoutUnknownBound(topic, e.getCause());
            if (older == null) {
                throw e;
            }
            admin.createTopics(List.of(older)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        }
    }

    /** Creates whichever planned topics do not exist yet and waits until they are served; returns their names. */
    public static List<String> ensure(Admin admin, List<NewTopic> plan) {
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> missing = plan.stream().filter(t -> !existing.contains(t.name())).toList();
            List<String> created = new ArrayList<>();
            if (missing.isEmpty()) {
                return created;
            }
            var result = admin.createTopics(missing);
            List<String> unbounded = new ArrayList<>();
            for (NewTopic topic : missing) {
                try {
                    if (awaitCreated(admin, topic, result.values().get(topic.name()))) {
                        unbounded.add(topic.name());
                    }
                    created.add(topic.name());
                    LOG.debug("created topic {} ({} partitions)", topic.name(), topic.numPartitions());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicAuthorizationException) {
                        throw new IllegalStateException("not authorised by the Kafka cluster: no CREATE on topic "
                                + topic.name() + " (gda.create.topics=true creates the missing topics). Grant the"
                                + " ACLs of the provisioner role, or create the topics beforehand and set"
                                + " gda.create.topics=false (docs/SECURITY.md, \"ACLs per role\")", e.getCause());
                    }
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + topic.name() + ": "
                                + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
            if (!unbounded.isEmpty()) {
                LOG.warn("the cluster does not know {} ({}): created {} without a bound on a record's decompressed"
                        + " size", DECOMPRESSED_KEY, DecompressedSizeBound.WHICH_BROKERS, String.join(", ", unbounded));
            }
            awaitServed(admin, missing.stream().map(NewTopic::name).toList());
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
