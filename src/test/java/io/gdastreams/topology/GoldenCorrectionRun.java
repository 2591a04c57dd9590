package io.gdastreams.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.PipelineUnderTest;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.service.GroupCommittedInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The scenario of the weighted golden ITs on a real broker (exactly_once_v2, 2 stream threads): the golden file's
 * events go to their partitions with their timestamps as record timestamps (interleaved and late) and their weights,
 * each under its {@code observed} label; the instance that trained the first half loses its local state (closed,
 * cleaned up, started in a new state directory), the second half follows, then every event whose observed label was
 * wrong is corrected by a retraction of it plus the event under its {@code label}. The published model that absorbed
 * every record is the result, to compare with the batch reference of the same file.
 */
final class GoldenCorrectionRun implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** More than a consumer's session timeout (45 s), for a rebalance waiting on a member that is gone. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(90);

    private final KafkaBroker broker;
    private final Path stateDir;
    private final UnaryOperator<TrainingSettings> settings;
    /** Puts an event's features (continuous and categorical) into the record's {@code features} object. */
    private final BiConsumer<JsonNode, ObjectNode> features;
    private PipelineUnderTest pipeline;
    private KafkaStreams streams;

    /** {@code settings}: the pipeline's training settings with what the test trains under (forgetting, ...). */
    GoldenCorrectionRun(KafkaBroker broker, Path stateDir, UnaryOperator<TrainingSettings> settings,
                        BiConsumer<JsonNode, ObjectNode> features) {
        this.broker = broker;
        this.stateDir = stateDir;
        this.settings = settings;
        this.features = features;
    }

    /** Runs the scenario on {@code partitions} partitions; returns the model that absorbed every record. */
    ModelParameters run(JsonNode golden, String appPrefix, int partitions) {
        pipeline = PipelineUnderTest.create(broker, partitions);
        String labelled = pipeline.topics().labelled().name();
        List<JsonNode> events = new ArrayList<>();
        golden.get("events").forEach(events::add);
        int half = events.size() / 2;

        String appId = KafkaBroker.uniqueName(appPrefix);
        for (JsonNode e : events.subList(0, half)) {
            send(labelled, e, e.get("observed").asText(), false);
        }
        start(appId, stateDir.resolve("first"));
        pipeline.awaitModelAbsorbingAllLabelled();
        stopAndCleanUp(); // the weighted state must come back from the changelog

        start(appId, stateDir.resolve("second"));
        for (JsonNode e : events.subList(half, events.size())) {
            send(labelled, e, e.get("observed").asText(), false);
        }
        for (JsonNode e : events) {
            if (!e.get("observed").equals(e.get("label"))) {
                // The retraction goes where the original went (same partition) with the original timestamp.
                send(labelled, e, e.get("observed").asText(), true);
                send(labelled, e, e.get("label").asText(), false);
            }
        }
        return pipeline.awaitModelAbsorbingAllLabelled();
    }

    private void start(String appId, Path directory) {
        Properties props = broker.streamsProperties(appId, directory);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        streams = new KafkaStreams(TrainingTopology.build(settings.apply(pipeline.trainingSettings()),
                GroupCommittedInput::open), props);
        streams.start();
    }

    private void send(String topic, JsonNode e, String label, boolean retract) {
        ObjectNode root = JSON.createObjectNode();
        features.accept(e, root.putObject("features"));
        root.put("label", label);
        root.set("weight", e.get("w"));
        if (retract) {
            root.put("retract", true);
        }
        pipeline.send(topic, e.get("partition").asInt(), "e", root.toString().getBytes(StandardCharsets.UTF_8),
                e.get("t").asLong());
    }

    @Override
    public void close() {
        if (streams != null) {
            stopAndCleanUp();
        }
        if (pipeline != null) {
            pipeline.close();
        }
    }

    /**
     * Stops the training instance (leaving its group) and deletes its local state. A stream thread held in a
     * rebalance can keep the client past the first 30 s (seen once in CI: cleanUp then threw "Cannot clean up while
     * running" after the assertions had passed, and the live client later failed on its deleted state directory):
     * it gets longer, and only a client that has stopped is cleaned up.
     */
    private void stopAndCleanUp() {
        boolean closed = streams.close(CloseOptions.groupMembershipOperation(
                        CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(CLOSE_TIMEOUT))
                || streams.close(CLOSE_GRACE);
        if (!closed) {
            throw new AssertionError("the training instance did not stop within " + CLOSE_TIMEOUT.plus(CLOSE_GRACE)
                    + " (state " + streams.state() + ")");
        }
        streams.cleanUp();
    }
}
