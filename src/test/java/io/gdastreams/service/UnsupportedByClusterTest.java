package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.Role;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class UnsupportedByClusterTest {

    /** Kafka 4.4's words on a 3.9.1 broker with group.protocol=streams (OlderBrokerContainerIT). */
    private static final String STREAMS_PROTOCOL_REFUSED = "The cluster does not support the STREAMS group protocol"
            + " or does not support the versions of the STREAMS group protocol used by this client (used versions: 0"
            + " to 1).";
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void aStreamThreadFailureCausedByAnUnsupportedRequestMatchesAndOthersDoNot() {
        assertTrue(UnsupportedByCluster.matches(new StreamsException(new UnsupportedVersionException(
                STREAMS_PROTOCOL_REFUSED))));
        assertFalse(UnsupportedByCluster.matches(new StreamsException(new TimeoutException("no answer"))));
        assertFalse(UnsupportedByCluster.matches(null));
    }

    @Test
    void theStreamsGroupProtocolIsNamedWithTheKeyToRemove() {
        String line = UnsupportedByCluster.refusal(Role.TRAINING, new StreamsException(
                new UnsupportedVersionException(STREAMS_PROTOCOL_REFUSED)));

        assertEquals("training: the Kafka cluster does not support what this client asks of it (twice in a row: "
                + "UnsupportedVersionException: " + STREAMS_PROTOCOL_REFUSED + "); group.protocol=streams needs brokers"
                + " that offer Kafka Streams' own group protocol (Kafka 4.2 and later do): remove the key to use the"
                + " classic protocol (README, \"Which brokers\")", line);
    }

    @Test
    void anyOtherUnsupportedRequestSaysASettingAsksForANewerKafka() {
        String line = UnsupportedByCluster.refusal(Role.SCORING, new UnsupportedVersionException("no such API"));

        assertTrue(line.startsWith("scoring: the Kafka cluster does not support what this client asks of it"), line);
        assertTrue(line.contains("no such API"), line);
        assertTrue(line.contains("a setting asks for a feature of a newer Kafka than the cluster's"), line);
        assertFalse(line.contains("group.protocol"), line);
    }

    /**
     * The start's check asks the cluster only when group.protocol=streams is set (here nothing listens: a classic
     * configuration returns at once, without a client), and says nothing when the cluster does not answer: the
     * failing client's ending above then speaks. What a real broker answers: OlderBrokerContainerIT.
     */
    @Test
    void theStartCheckAsksOnlyForTheStreamsProtocolAndStaysQuietWithoutAnAnswer() {
        // Asked, this cluster would keep the check a minute (Kafka's default.api.timeout.ms): classic must not ask.
        Properties nowhere = new Properties();
        nowhere.put("bootstrap.servers", "127.0.0.1:1");
        Properties classic = new Properties();
        long start = System.nanoTime();
        assertEquals(Optional.empty(), UnsupportedByCluster.atStart(Role.SCORING, classic, nowhere, MINUTE));
        classic.put("group.protocol", "classic");
        assertEquals(Optional.empty(), UnsupportedByCluster.atStart(Role.SCORING, classic, nowhere, MINUTE));
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "the cluster was not asked");

        Properties streams = new Properties();
        streams.put("group.protocol", " STREAMS ");
        long asked = System.nanoTime();
        assertEquals(Optional.empty(), UnsupportedByCluster.atStart(Role.TRAINING, streams, nowhere,
                Duration.ofMillis(500)), "no answer in time: nothing said here");
        assertTrue(System.nanoTime() - asked >= Duration.ofMillis(400).toNanos(), "the cluster was asked");
    }
}
