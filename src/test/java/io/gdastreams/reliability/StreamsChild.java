package io.gdastreams.reliability;

import io.gdastreams.it.TestBroker;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.service.UnfinishedStoreCleaner;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import io.gdastreams.topology.TrainingTopology;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * A training or scoring application in a JVM of its own, so that a test can kill it with SIGKILL as a crash
 * would: no shutdown hook, no flush, no commit. Started by {@link StreamsChildProcess}.
 *
 * <pre>
 * StreamsChild train|score BOOTSTRAP APPLICATION_ID STATE_DIR LABELLED UNLABELLED MODEL PREDICTIONS DEAD_LETTERS
 *              MODEL_ID
 * </pre>
 * Prints {@code STATE <state>} on every state change. Exits when its standard input closes (the test JVM died),
 * so no orphan outlives a crashed test run.
 */
public final class StreamsChild {

    private StreamsChild() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 10) {
            throw new IllegalArgumentException("expected 10 arguments, got " + args.length);
        }
        String mode = args[0];
        Topics topics = new Topics(args[4], args[5], args[6], args[7], args[8]);
        String modelId = args[9];
        Topology topology = switch (mode) {
            case "train" -> TrainingTopology.build(TrainingSettings.defaults(topics).withModelId(modelId)
                    .withFeatures(HostileRecords.FEATURES).withPublishInterval(Duration.ofMillis(200)),
                            GroupCommittedInput::open);
            case "score" -> ScoringTopology.build(ScoringSettings.defaults(modelId).withTopics(topics));
            default -> throw new IllegalArgumentException("mode must be train or score, got " + mode);
        };
        // As the product's StreamsApp does: a kill during a store's creation must not block every restart.
        UnfinishedStoreCleaner.clean(Path.of(args[3]), args[2]);
        KafkaStreams streams = new KafkaStreams(topology, properties(args[1], args[2], args[3]));
        streams.setStateListener((now, before) -> System.out.println("STATE " + now));
        streams.setUncaughtExceptionHandler(e -> {
            System.out.println("UNCAUGHT " + e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse
                    .REPLACE_THREAD;
        });
        streams.start();
        while (System.in.read() >= 0) {
            // Wait for the parent to go away.
        }
        Runtime.getRuntime().halt(3);
    }

    static Properties properties(String bootstrap, String applicationId, String stateDir) {
        Properties props = TestBroker.streamsProperties(bootstrap, applicationId, Path.of(stateDir));
        // Static membership: the restarted process takes over its predecessor's place in the group at once,
        // instead of waiting for the dead member's session to time out. The same state directory keeps the
        // process id, hence the transactional ids, so the new producers fence the dead ones and abort their
        // open transactions immediately.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), applicationId + "-static");
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        return props;
    }
}
