package io.gdastreams.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.io.IOException;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The baseline of the end-to-end benchmark: reads the same JSON events as the training topology, parses each
 * into a tree with the project's one ObjectMapper, and writes it back out as JSON. It does everything a Kafka
 * Streams JSON app cannot avoid (consume, parse, serialise, produce, commit) and nothing else, so the ratio
 * topology / passthrough isolates the cost of our own work (docs/BENCHMARKS.md).
 */
public final class PassthroughTopology {

    static final String SOURCE = "passthrough-source";
    static final String SINK = "passthrough-sink";

    private PassthroughTopology() {
    }

    public static Topology build(String inputTopic, String outputTopic) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(inputTopic, Consumed.with(SerdeFactory.rawBytes(), SerdeFactory.rawBytes()).withName(SOURCE))
                .mapValues(PassthroughTopology::reencode, Named.as("reencode"))
                .to(outputTopic, Produced.with(SerdeFactory.rawBytes(), SerdeFactory.rawBytes()).withName(SINK));
        return builder.build();
    }

    /** Parse and re-serialise; input that does not parse goes through unchanged (never dropped). */
    static byte[] reencode(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            JsonNode tree = Json.mapper().readTree(value);
            return tree == null ? value : Json.mapper().writeValueAsBytes(tree);
        } catch (IOException e) {
            return value;
        }
    }
}
