package io.gdastreams.service;

import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.topology.InternalTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Least privilege at start-up: a principal that lacks an ACL its role needs ends the command with one message
 * naming the operation and the resource, instead of Kafka Streams failing a thread that the service would start
 * again and again (docs/SECURITY.md, "ACLs per role").
 *
 * <p>Before Kafka Streams starts, {@link #verify} asks the cluster which operations the principal may perform on
 * the role's topics and group ({@link RoleAccess}; describe with {@code includeAuthorizedOperations}). What it
 * cannot see in advance (an internal topic or a transactional id that does not exist yet, a group never joined)
 * shows as an authorisation error of Kafka Streams, which {@link #refusal} turns into the same kind of message.
 * A check that gets no answer says nothing: the authorisation itself stays Kafka's.
 */
final class AccessCheck {

    private static final Logger LOG = LoggerFactory.getLogger(AccessCheck.class);

    private AccessCheck() {
    }

    /** Throws {@link RunFailure} naming every access of {@code required} the cluster says the principal lacks. */
    static void verify(Role role, Admin admin, List<RoleAccess> required, Duration timeout) {
        List<RoleAccess> missing = new ArrayList<>();
        Set<String> topics = new LinkedHashSet<>();
        required.stream().filter(a -> a.type() == ResourceType.TOPIC).forEach(a -> topics.add(a.name()));
        Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(topics,
                new DescribeTopicsOptions().includeAuthorizedOperations(true)).topicNameValues();
        for (String topic : topics) {
            Set<AclOperation> allowed = allowed(described.get(topic), TopicDescription::authorizedOperations, timeout);
            required.stream().filter(a -> a.type() == ResourceType.TOPIC && a.name().equals(topic)
                    && allowed != null && !allowed.contains(a.operation())).forEach(missing::add);
        }
        for (RoleAccess group : required.stream().filter(a -> a.type() == ResourceType.GROUP).toList()) {
            KafkaFuture<ConsumerGroupDescription> description = admin.describeConsumerGroups(List.of(group.name()),
                    new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)).describedGroups()
                    .get(group.name());
            Set<AclOperation> allowed = allowed(description, ConsumerGroupDescription::authorizedOperations, timeout);
            if (allowed != null && !allowed.contains(group.operation())) {
                missing.add(group);
            }
        }
        if (!missing.isEmpty()) {
            throw new RunFailure(missingMessage(role, missing));
        }
    }

    /**
     * The operations allowed on one described resource: empty when Kafka refused to describe it at all (no ACL
     * on it), null when that is not known (no such resource yet, no answer in time, an old broker).
     */
    private static <T> Set<AclOperation> allowed(KafkaFuture<T> future,
                                                 java.util.function.Function<T, Set<AclOperation>> operations,
                                                 Duration timeout) {
        try {
            return operations.apply(future.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException) {
                return Set.of();
            }
            LOG.debug("access check: {}", e.getCause().toString());
            return null;
        } catch (TimeoutException e) {
            LOG.debug("access check: no answer within {} ms", timeout.toMillis());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while checking the ACLs", e);
        }
    }

    /** The message of a failed {@link #verify}: every missing access, and where the ACLs are listed. */
    static String missingMessage(Role role, List<RoleAccess> missing) {
        StringBuilder message = new StringBuilder(role.toString()).append(": not authorised by the Kafka cluster: ");
        for (int i = 0; i < missing.size(); i++) {
            message.append(i == 0 ? "" : "; ").append("no ").append(missing.get(i).describe());
        }
        return message.append(". ").append(advice(role)).toString();
    }

    /**
     * The message for an authorisation error that stopped Kafka Streams: the resource Kafka named, with the
     * operations the role needs on it. {@code applicationId}: the role's application id, the prefix of its
     * internal topics and transactional ids.
     */
    static String refusal(Role role, String applicationId, List<RoleAccess> required, AuthorizationException e) {
        StringBuilder message = new StringBuilder(role.toString()).append(": not authorised by the Kafka cluster: ");
        if (e instanceof TopicAuthorizationException topics && !topics.unauthorizedTopics().isEmpty()) {
            List<String> named = new ArrayList<>();
            for (String topic : topics.unauthorizedTopics().stream().sorted().toList()) {
                List<String> operations = required.stream()
                        .filter(a -> a.type() == ResourceType.TOPIC && a.name().equals(topic))
                        .map(a -> a.operation().name()).toList();
                if (InternalTopics.of(applicationId).contains(topic)) {
                    named.add("topic " + topic + " (an internal topic: needs the ACLs on the topic prefix "
                            + applicationId + "-)");
                } else {
                    named.add("topic " + topic + (operations.isEmpty() ? "" : " (needs "
                            + String.join(", ", operations) + ")"));
                }
            }
            message.append("refused access to ").append(String.join(", ", named));
        } else if (e instanceof GroupAuthorizationException group && group.groupId() != null) {
            message.append("no READ on group ").append(group.groupId()).append(" (the consumer group of the ")
                    .append(role).append(" application)");
        } else if (e instanceof TransactionalIdAuthorizationException) {
            message.append("no WRITE on the transactional ids with the prefix ").append(applicationId)
                    .append("- (exactly_once_v2)");
        } else {
            message.append(e.getClass().getSimpleName()).append(": ").append(e.getMessage());
        }
        return message.append(". ").append(advice(role)).toString();
    }

    private static String advice(Role role) {
        return "Grant the ACLs of the " + role.actor()
                + " role (docs/SECURITY.md, \"ACLs per role\")";
    }
}
