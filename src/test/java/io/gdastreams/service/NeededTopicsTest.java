package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.Role;
import io.gdastreams.settings.AppConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/** When a service ends because of its topics, and what it says: gone at start, gone while running, repartitioned. */
class NeededTopicsTest {

    private final long[] clock = {0};
    private final AppConfig config = AppConfig.defaults();
    private final NeededTopics training = NeededTopics.of(Role.TRAINING, config, () -> clock[0]);

    private static NeededTopics.ExistingTopics listing(String... names) {
        return () -> Optional.of(Set.of(names));
    }

    @Test
    void shouldNeedEachRolesInputTheModelTopicAndItsOutputs() {
        assertEquals(List.of("labelled-events", "model-parameters", "dead-letters"), training.topics());
        assertEquals(List.of("unlabelled-events", "model-parameters", "predictions", "dead-letters"),
                NeededTopics.of(Role.SCORING, config, () -> 0).topics());
        assertEquals(List.of("labelled-events", "model-parameters", "dead-letters", "m"), NeededTopics.of(Role.TRAINING,
                config.with(ConfigKey.PREQUENTIAL, "true", "t").with(ConfigKey.TOPIC_METRICS, "m", "t"), () -> 0)
                .topics());
    }

    @Test
    void shouldEndWhenATopicIsMissingAtStart() {
        assertEquals(Optional.empty(), training.atStart(listing("labelled-events", "model-parameters",
                "dead-letters", "other")));
        assertEquals(Optional.of("training: topic labelled-events does not exist (at start, with"
                + " gda.create.topics=false): create it (or set gda.create.topics=true) and start the service again; a"
                + " deleted model topic starts the model's history afresh, so restart the scorers too"
                + " (docs/RELIABILITY.md, 'Topics changed under a running service')"),
                training.atStart(listing("model-parameters", "dead-letters")));
        assertEquals(Optional.empty(), training.atStart(Optional::empty), "no answer: no finding");
    }

    /** Every 10 s; a topic missing at two checks in a row (not one: a listing taken while it is being created). */
    @Test
    void shouldEndWhenATopicHasBeenMissingAtTwoChecksInARow() {
        var all = listing("labelled-events", "model-parameters", "dead-letters");
        var noModel = listing("labelled-events", "dead-letters");
        clock[0] = Duration.ofSeconds(9).toNanos();
        assertEquals(Optional.empty(), training.watch(noModel), "not due yet");
        clock[0] = Duration.ofSeconds(10).toNanos();
        assertEquals(Optional.empty(), training.watch(noModel), "once");
        clock[0] = Duration.ofSeconds(20).toNanos();
        assertEquals(Optional.empty(), training.watch(all), "back");
        clock[0] = Duration.ofSeconds(30).toNanos();
        assertEquals(Optional.empty(), training.watch(noModel));
        clock[0] = Duration.ofSeconds(33).toNanos();
        assertEquals(Optional.empty(), training.watch(noModel), "not due");
        clock[0] = Duration.ofSeconds(40).toNanos();
        assertEquals(Optional.of("training: topic model-parameters does not exist (while it ran): create it (or set"
                + " gda.create.topics=true) and start the service again; a deleted model topic starts the model's"
                + " history afresh, so restart the scorers too (docs/RELIABILITY.md, 'Topics changed under a running"
                + " service')"), training.watch(noModel));
    }

    @Test
    void shouldNameWhatStoppedKafkaStreamsForGood() {
        var all = listing("labelled-events", "model-parameters", "dead-letters");
        StreamsException repartitioned = new StreamsException("Existing internal topic app-training-class-stats"
                + "-changelog has invalid partitions: expected: 6; actual: 4. Use"
                + " 'org.apache.kafka.tools.StreamsResetter' tool to clean up invalid topics before processing.");
        assertEquals(Optional.of("training: Kafka Streams cannot go on: StreamsException: Existing internal topic"
                + " app-training-class-stats-changelog has invalid partitions: expected: 6; actual: 4. An input"
                + " topic's partitions were changed: Kafka Streams keeps one task per input partition and cannot"
                + " repartition its state. Stop every instance, reset the application (`gda-streams reset --role"
                + " training --execute`) and start it again (docs/RELIABILITY.md, 'Topics changed under a running"
                + " service')"), training.permanent(new StreamsException(repartitioned), all));
        // A scorer keeps its offsets through the reset, so that it does not answer every event again.
        assertTrue(NeededTopics.of(Role.SCORING, config, () -> clock[0]).permanent(new StreamsException(
                repartitioned), all).orElseThrow().contains("(`gda-streams reset --role scoring --keep-offsets"
                + " --execute`)"));

        MissingSourceTopicException missing = new MissingSourceTopicException("One or more source topics were"
                + " missing during rebalance");
        assertEquals(Optional.of("training: topic labelled-events does not exist (after Kafka Streams stopped on"
                + " MissingSourceTopicException: One or more source topics were missing during rebalance): create it"
                + " (or set gda.create.topics=true) and start the service again; a deleted model topic starts the"
                + " model's history afresh, so restart the scorers too (docs/RELIABILITY.md, 'Topics changed under a"
                + " running service')"), training.permanent(missing, listing("model-parameters", "dead-letters")));
        assertEquals(Optional.empty(), training.permanent(new StreamsException("broker gone"), all),
                "anything else: started again, as before");
        assertEquals(Optional.empty(), training.permanent(null, all));
    }

    @Test
    void shouldWatchAConfiguredTopicWhoseNameBeginsWithTheApplicationId() {
        // Only Kafka Streams' own topics of the application are left out, named exactly, not by their prefix.
        AppConfig prefixed = config.with(ConfigKey.TOPIC_LABELLED, "gda-streams-training-labelled", "t");
        assertEquals(List.of("gda-streams-training-labelled", "model-parameters", "dead-letters"),
                NeededTopics.of(Role.TRAINING, prefixed, () -> 0).topics());
    }
}
