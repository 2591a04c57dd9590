package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.PARTIALS;
import static io.gdastreams.topology.CombinerFixtures.context;
import static io.gdastreams.topology.CombinerFixtures.lastPunctuator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.model.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * What the model combiner sets aside goes to the dead-letter topic under its original key, a key the record may
 * lack (anyone who may write the partials topic can send one without), and each is counted by the observer.
 */
class CombinerDeadLetterTest {

    private static final byte[] GARBAGE = "not a snapshot".getBytes(StandardCharsets.UTF_8);

    private final List<DeadLetterCategory> counted = new ArrayList<>();
    private final StreamObserver observer = new StreamObserver() {
        @Override
        public void deadLettered(DeadLetterCategory category) {
            counted.add(category);
        }
    };

    @Test
    void shouldDeadLetterARefusedSnapshotUnderItsKeyOrWithoutOne() {
        MockProcessorContext<String, TrainingOutput> context = context();
        ModelCombiner combiner = new ModelCombiner(TrainingSettings.defaults(Topics.defaults()).withModelId("m"),
                observer);
        combiner.init(context);
        context.setRecordMetadata(PARTIALS, 0, 4);
        combiner.process(new Record<>("m", GARBAGE, 0L));
        context.setRecordMetadata(PARTIALS, 0, 5);
        combiner.process(new Record<String, byte[]>(null, GARBAGE, 0L));

        List<TrainingOutput.Rejected> rejected = rejected(context);
        assertEquals(2, rejected.size(), rejected.toString());
        assertArrayEquals("m".getBytes(StandardCharsets.UTF_8), rejected.get(0).key());
        DeadLetter keyed = rejected.get(0).deadLetter();
        assertEquals(Base64.getEncoder().encodeToString("m".getBytes(StandardCharsets.UTF_8)), keyed.keyBase64());
        assertEquals(Base64.getEncoder().encodeToString(GARBAGE), keyed.valueBase64());
        assertEquals(4, keyed.offset());
        assertNull(rejected.get(1).key(), "no key: the dead letter has none either");
        DeadLetter keyless = rejected.get(1).deadLetter();
        assertNull(keyless.keyBase64());
        assertEquals(Base64.getEncoder().encodeToString(GARBAGE), keyless.valueBase64());
        assertEquals(5, keyless.offset());
        assertEquals(keyed.reason(), keyless.reason(), "refused for what it holds, whatever its key");
        assertEquals(List.of(DeadLetterCategory.INVALID_STATE, DeadLetterCategory.INVALID_STATE), counted);
    }

    @Test
    void shouldCountAnUnreadableStoreEntryItSetsAside() {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> store = context.getStateStore(TrainingTopology.COMBINER_STORE);
        store.put("partial:1", GARBAGE);
        new ModelCombiner(TrainingSettings.defaults(Topics.defaults()).withModelId("m"), observer).init(context);
        lastPunctuator(context).punctuate(0);

        assertEquals(1, rejected(context).size());
        assertEquals(List.of(DeadLetterCategory.INVALID_STATE), counted);
    }

    private static List<TrainingOutput.Rejected> rejected(MockProcessorContext<String, TrainingOutput> context) {
        return context.forwarded().stream().map(f -> f.record().value())
                .filter(v -> v instanceof TrainingOutput.Rejected).map(v -> (TrainingOutput.Rejected) v).toList();
    }
}
