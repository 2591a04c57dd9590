package io.gdastreams.service;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.Role;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.InternalTopics;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The accesses to named resources that a role's principal needs and that can be checked before Kafka Streams
 * starts ({@link AccessCheck}): operations on the configured topics, the internal topics (the trainer's partials,
 * the stores' changelogs) and the consumer group. A resource that does not exist yet is not checked (a changelog a
 * first run will create, say); the transactional ids (prefixed on the application id) are not listed: only Kafka's
 * refusal at run time tells. The full
 * list per role is the table of docs/SECURITY.md, which a test keeps a superset of this one.
 */
public record RoleAccess(ResourceType type, String name, AclOperation operation, String why) {

    /** The trainer's accesses ({@code train}): its input, the model topic, its outputs and its group. */
    public static List<RoleAccess> training(AppConfig config) {
        Topics topics = config.topics();
        List<RoleAccess> accesses = new ArrayList<>();
        accesses.add(topic(inputTopic(Role.TRAINING, topics), AclOperation.READ, "its input"));
        accesses.add(topic(topics.model().name(), AclOperation.READ, "reads the published models back"));
        accesses.add(topic(topics.model().name(), AclOperation.WRITE, "publishes the model"));
        accesses.add(topic(topics.deadLetters().name(), AclOperation.WRITE, "dead letters"));
        if (config.booleanValue(ConfigKey.PREQUENTIAL)) {
            accesses.add(topic(topics.metrics().name(), AclOperation.WRITE, "prequential records"));
        }
        // The internal partials topic, when it exists already (gda.create.topics=true creates it before this check):
        // without DELETE, training runs but Kafka Streams cannot purge it, and it is kept forever (retention.ms=-1).
        String partials = TrainingTopology.partials(applicationId(config, Role.TRAINING)).name();
        accesses.add(topic(partials, AclOperation.READ, "an internal topic"));
        accesses.add(topic(partials, AclOperation.WRITE, "an internal topic"));
        accesses.add(topic(partials, AclOperation.DELETE, "Kafka Streams purges the records it has read"));
        String applicationId = applicationId(config, Role.TRAINING);
        changelog(accesses, applicationId, TrainingTopology.CLASS_STATS_STORE);
        changelog(accesses, applicationId, TrainingTopology.COMBINER_STORE);
        if (config.booleanValue(ConfigKey.PREQUENTIAL)) {
            changelog(accesses, applicationId, TrainingTopology.PREQUENTIAL_STORE);
        }
        accesses.add(group(config, Role.TRAINING));
        return List.copyOf(accesses);
    }

    /** The scorer's accesses ({@code score}): its input, the model topic, its outputs and its group. */
    public static List<RoleAccess> scoring(AppConfig config) {
        Topics topics = config.topics();
        List<RoleAccess> accesses = new ArrayList<>(List.of(
                topic(inputTopic(Role.SCORING, topics), AclOperation.READ, "its input"),
                topic(topics.model().name(), AclOperation.READ, "the model it scores with"),
                topic(topics.predictions().name(), AclOperation.WRITE, "its output"),
                topic(topics.deadLetters().name(), AclOperation.WRITE, "dead letters")));
        changelog(accesses, applicationId(config, Role.SCORING), ScoringTopology.PENDING_STORE);
        accesses.add(group(config, Role.SCORING));
        return List.copyOf(accesses);
    }

    /**
     * A store's changelog, when it exists already (an earlier run made it): written with every change and read
     * back by a restore. Without WRITE the service would run until its first change to that store (a scorer's
     * first held event), then stop.
     */
    private static void changelog(List<RoleAccess> accesses, String applicationId, String store) {
        String changelog = InternalTopics.changelog(applicationId, store);
        accesses.add(topic(changelog, AclOperation.READ, "a store's changelog, read back by a restore"));
        accesses.add(topic(changelog, AclOperation.WRITE, "a store's changelog, written with each change"));
    }

    /** The topic {@code role} reads its events from: the labelled topic for training, the unlabelled for scoring. */
    static String inputTopic(Role role, Topics topics) {
        return role == Role.TRAINING ? topics.labelled().name() : topics.unlabelled().name();
    }

    /** The accesses of {@code role} (Role.TRAINING or Role.SCORING). */
    public static List<RoleAccess> of(Role role, AppConfig config) {
        return switch (role) {
            case TRAINING -> training(config);
            case SCORING -> scoring(config);
        };
    }

    /** As a person says it: {@code WRITE on topic model-parameters (publishes the model)}. */
    public String describe() {
        return operation + " on " + type.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + name
                + " (" + why + ")";
    }

    private static RoleAccess topic(String name, AclOperation operation, String why) {
        return new RoleAccess(ResourceType.TOPIC, name, operation, why);
    }

    /** The consumer group, {@code application.id}: joining it and committing offsets need READ. */
    private static RoleAccess group(AppConfig config, Role role) {
        return new RoleAccess(ResourceType.GROUP, applicationId(config, role), AclOperation.READ,
                "the consumer group of the " + role + " application");
    }

    private static String applicationId(AppConfig config, Role role) {
        return StreamsApp.applicationId(config.streamsProperties(role));
    }
}
