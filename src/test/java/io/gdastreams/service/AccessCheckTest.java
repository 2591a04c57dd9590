package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.Role;
import io.gdastreams.settings.AppConfig;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/** The messages of a missing ACL: the operation and the resource, whichever way Kafka said no. */
class AccessCheckTest {

    private static final String ADVICE_TRAINER =
            ". Grant the ACLs of the trainer role (docs/SECURITY.md, \"ACLs per role\")";
    private final AppConfig config = AppConfig.defaults();
    private final List<RoleAccess> training = RoleAccess.training(config);

    @Test
    void theTrainersAccessesAreItsTopicsPartialsAndGroupUnderTheConfiguredNames() {
        List<String> described = training.stream().map(RoleAccess::describe).toList();
        assertEquals(List.of("READ on topic labelled-events (its input)",
                "READ on topic model-parameters (reads the published models back)",
                "WRITE on topic model-parameters (publishes the model)",
                "WRITE on topic dead-letters (dead letters)",
                "READ on topic gda-streams-training-class-stats-partials-repartition (an internal topic)",
                "WRITE on topic gda-streams-training-class-stats-partials-repartition (an internal topic)",
                "DELETE on topic gda-streams-training-class-stats-partials-repartition (Kafka Streams purges the"
                        + " records it has read)",
                "READ on topic gda-streams-training-class-stats-changelog (a store's changelog, read back by a"
                        + " restore)",
                "WRITE on topic gda-streams-training-class-stats-changelog (a store's changelog, written with each"
                        + " change)",
                "READ on topic gda-streams-training-model-combiner-changelog (a store's changelog, read back by a"
                        + " restore)",
                "WRITE on topic gda-streams-training-model-combiner-changelog (a store's changelog, written with"
                        + " each change)",
                "READ on group gda-streams-training (the consumer group of the training application)"), described);
        List<RoleAccess> prequential = RoleAccess.training(config.with(ConfigKey.PREQUENTIAL, "true", "test")
                .with(ConfigKey.TOPIC_METRICS, "m", "test"));
        assertEquals(new RoleAccess(ResourceType.TOPIC, "m", AclOperation.WRITE, "prequential records"),
                prequential.get(4), "the metrics topic only with gda.prequential=true");
        assertEquals(training.size() + 3, prequential.size(), "and the prequential store's changelog");
        assertEquals(List.of("READ on topic gda-streams-scoring-scoring-pending-changelog (a store's changelog, read"
                + " back by a restore)", "WRITE on topic gda-streams-scoring-scoring-pending-changelog (a store's"
                + " changelog, written with each change)"), RoleAccess.scoring(config).stream()
                .map(RoleAccess::describe).filter(d -> d.contains("changelog")).toList(), "the scorer's held events");
    }

    @Test
    void missingAccessesAreNamedWithOperationAndResource() {
        assertEquals("training: not authorised by the Kafka cluster: no WRITE on topic model-parameters (publishes the"
                + " model); no READ on group gda-streams-training (the consumer group of the training application)"
                + ADVICE_TRAINER, AccessCheck.missingMessage(Role.TRAINING, List.of(training.get(2), training.get(11))));
    }

    @Test
    void aRefusedTopicIsNamedWithTheOperationsTheRoleNeedsOnIt() {
        assertEquals("training: not authorised by the Kafka cluster: refused access to topic model-parameters (needs"
                + " READ, WRITE)" + ADVICE_TRAINER, AccessCheck.refusal(Role.TRAINING, "gda-streams-training", training,
                new TopicAuthorizationException(Set.of("model-parameters"))));
        assertEquals("training: not authorised by the Kafka cluster: refused access to topic"
                + " gda-streams-training-class-stats-changelog (an internal topic: needs the ACLs on the topic prefix"
                + " gda-streams-training-)" + ADVICE_TRAINER, AccessCheck.refusal(Role.TRAINING, "gda-streams-training",
                training, new TopicAuthorizationException(Set.of("gda-streams-training-class-stats-changelog"))));
    }

    @Test
    void aRefusedGroupOrTransactionalIdIsNamedWithItsOperation() {
        assertEquals("scoring: not authorised by the Kafka cluster: no READ on group gda-streams-scoring (the consumer"
                + " group of the scoring application). Grant the ACLs of the scorer role (docs/SECURITY.md, \"ACLs"
                + " per role\")", AccessCheck.refusal(Role.SCORING, "gda-streams-scoring", RoleAccess.scoring(config),
                GroupAuthorizationException.forGroupId("gda-streams-scoring")));
        assertEquals("training: not authorised by the Kafka cluster: no WRITE on the transactional ids with the prefix"
                + " gda-streams-training- (exactly_once_v2)" + ADVICE_TRAINER, AccessCheck.refusal(Role.TRAINING,
                "gda-streams-training", training, new TransactionalIdAuthorizationException("refused")));
        assertEquals("training: not authorised by the Kafka cluster: ClusterAuthorizationException: Cluster"
                + " authorization failed." + ADVICE_TRAINER, AccessCheck.refusal(Role.TRAINING, "gda-streams-training",
                training, new ClusterAuthorizationException("Cluster authorization failed.")));
    }
}
