package io.gdastreams.service;

import io.gdastreams.config.Role;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.InternalTopics;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The configured topics a service reads or writes, and what to say when one is gone or Kafka Streams cannot go on
 * with them.
 *
 * <p>Why: a topic deleted while the service runs, or missing at start with {@code gda.create.topics=false}, is not
 * something Kafka Streams recovers from: its threads fail with MissingSourceTopicException or
 * UnknownTopicOrPartitionException (naming no topic), or, for the model topic the trainer reads through a global
 * store, its consumer logs a warning per fetch (thousands a second) while the service looks healthy. An input topic
 * given more partitions fails every start ("Existing internal topic … has invalid partitions"): Kafka Streams keeps
 * one task per input partition and cannot repartition its state. Restarting Kafka Streams only repeats these, so the
 * service ends, in one line that names the topic and what to do (docs/RELIABILITY.md, "Topics changed under a running
 * service").
 */
final class NeededTopics {

    /** How often a running service looks for its topics, at most. */
    static final Duration EVERY = Duration.ofSeconds(10);

    private final Role role;
    private final List<String> topics;
    private final Duration interval;
    private final LongSupplier nanoClock;
    private long lastCheck;
    private Set<String> missingBefore = Set.of();

    NeededTopics(Role role, List<String> topics, Duration interval, LongSupplier nanoClock) {
        this.role = role;
        this.topics = List.copyOf(topics);
        this.interval = interval;
        this.nanoClock = nanoClock;
        this.lastCheck = nanoClock.getAsLong();
    }

    /**
     * The configured topics of {@code role}: its input, the model topic, its outputs; looked for every
     * {@code gda.restore.patience.ms} or {@link #EVERY}, whichever is less.
     */
    static NeededTopics of(Role role, AppConfig config, LongSupplier nanoClock) {
        // The role's topics as its access check lists them (one place), less its internal ones (Kafka Streams'),
        // named exactly: a configured topic may begin with the application id too.
        Set<String> internal = InternalTopics.of(StreamsApp.applicationId(config.streamsProperties(role)));
        List<String> names = RoleAccess.of(role, config).stream()
                .filter(a -> a.type() == ResourceType.TOPIC && !internal.contains(a.name()))
                .map(RoleAccess::name).distinct().toList();
        Duration patience = config.restorePatience();
        return new NeededTopics(role, names, patience.compareTo(EVERY) < 0 ? patience : EVERY, nanoClock);
    }

    List<String> topics() {
        return topics;
    }

    /** Which of the topics the cluster does not have ({@code existing}: the names it lists). */
    List<String> missing(Set<String> existing) {
        return topics.stream().filter(t -> !existing.contains(t)).toList();
    }

    /**
     * Every interval: the message to end the service with when a topic has been missing at two checks in a row
     * ({@code existing} gives the names the cluster lists; empty when it could not be asked, which is no finding).
     */
    Optional<String> watch(ExistingTopics existing) {
        long now = nanoClock.getAsLong();
        if (now - lastCheck < interval.toNanos()) {
            return Optional.empty();
        }
        lastCheck = now;
        Optional<Set<String>> names = existing.names();
        if (names.isEmpty()) {
            return Optional.empty();
        }
        Set<String> missing = new LinkedHashSet<>(missing(names.get()));
        Set<String> still = new LinkedHashSet<>(missing);
        still.retainAll(missingBefore);
        missingBefore = missing;
        return still.isEmpty() ? Optional.empty() : Optional.of(gone(List.copyOf(still), "while it ran"));
    }

    /** At start, before Kafka Streams: the message to end with when a topic is missing ({@code existing}). */
    Optional<String> atStart(ExistingTopics existing) {
        Optional<Set<String>> names = existing.names();
        if (names.isEmpty() || missing(names.get()).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(gone(missing(names.get()), "at start, with gda.create.topics=false"));
    }

    /**
     * Why Kafka Streams stopped on {@code failure} for good, if it did: an input topic given more partitions, or a
     * configured topic missing now ({@code existing}); empty when starting it again may help.
     */
    Optional<String> permanent(Throwable failure, ExistingTopics existing) {
        String root = failure == null ? "" : StreamsApp.rootMessage(failure);
        if (root.contains("has invalid partitions")) {
            return Optional.of(role + ": Kafka Streams cannot go on: " + root.replaceAll("\\s*Use 'org\\.apache.*$",
                    "") + " An input topic's partitions were changed: Kafka Streams keeps one task per input"
                    + " partition and cannot repartition its state. Stop every instance, reset the application"
                    + " (`gda-streams reset --role " + role + (role == Role.SCORING ? " --keep-offsets" : "")
                    + " --execute`) and start it again (docs/RELIABILITY.md, 'Topics changed under a running"
                    + " service')");
        }
        Optional<Set<String>> names = existing.names();
        if (names.isPresent() && !missing(names.get()).isEmpty()) {
            return Optional.of(gone(missing(names.get()), "after Kafka Streams stopped on " + root));
        }
        return Optional.empty();
    }

    private String gone(List<String> missing, String when) {
        return role + ": topic" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                + (missing.size() == 1 ? " does" : " do") + " not exist (" + when + "): create "
                + (missing.size() == 1 ? "it" : "them") + " (or set gda.create.topics=true) and start the service"
                + " again; a deleted model topic starts the model's history afresh, so restart the scorers too"
                + " (docs/RELIABILITY.md, 'Topics changed under a running service')";
    }

    /** The topic names the cluster lists, asked when called. */
    @FunctionalInterface
    interface ExistingTopics {
        Optional<Set<String>> names();

        /** Through an admin client of {@code client}'s settings, in {@code timeout}; empty when not answered. */
        static ExistingTopics of(Properties client, Duration timeout) {
            return () -> {
                Admin admin = Admin.create(client);
                try {
                    return Optional.of(admin.listTopics(new ListTopicsOptions().listInternal(false)).names()
                            .get(timeout.toMillis(), TimeUnit.MILLISECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                } catch (Exception e) {
                    return Optional.empty();
                } finally {
                    admin.close(Duration.ZERO);
                }
            };
        }
    }
}
