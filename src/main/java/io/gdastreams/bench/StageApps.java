package io.gdastreams.bench;

import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import io.gdastreams.topology.TrainingTopology;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * The topology and Kafka Streams properties of a stage's application: one place, so that the application run in
 * the bench's JVM and the one run by a child instance ({@link BenchInstance}) are the same.
 */
final class StageApps {

    private StageApps() {
    }

    static Topology topology(Stage stage, BenchSettings settings, Topics topics) {
        SyntheticStream stream = new SyntheticStream(settings.classes(), settings.features(), settings.seed());
        // The bench's dimension is the user's choice: the feature bound follows it rather than refuse it.
        int maxFeatures = Math.max(settings.configuredMaxFeatures(), stream.featureNames().size());
        return switch (stage) {
            case PASSTHROUGH -> PassthroughTopology.build(topics.labelled().name(), topics.predictions().name());
            case TRAINING -> {
                TrainingSettings training = settings.training(topics).withModelId(StageRunner.MODEL_ID)
                        .withMaxFeatures(maxFeatures).withFeatures(stream.featureNames())
                        .withPublishInterval(settings.publishInterval());
                yield TrainingTopology.build(training, GroupCommittedInput::open);
            }
            case SCORING -> ScoringTopology.build(settings.scoring(topics).withMaxFeatures(maxFeatures));
        };
    }

    /** The stage's Kafka Streams properties: the configured ones, then the bench's own keys. */
    static Properties properties(Stage stage, BenchSettings settings, String applicationId, String bootstrapServers,
                                 Path stateDirectory) {
        Properties properties = settings.streamsProperties(stage.label());
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDirectory.toString());
        properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, settings.threads());
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, settings.guarantee());
        properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        return properties;
    }
}
