package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringContexts.lastPunctuator;
import static io.gdastreams.topology.ScoringContexts.predictions;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * Entries of the pending store that no scorer writes (damaged or forged in its changelog, restored at a task's start):
 * the task starts (they used to stop it at every start, read while counting), answers the held events around them
 * once each, and dead-letters each such entry with its bytes, its sequence and the changelog, once a model releases
 * the held events. A sequence no scorer uses (negative, or one the next would wrap from) is one of them.
 */
class DamagedHeldEntriesTest {

    /** A clock that stands still: every release may answer every held entry. */
    private static final ReleaseBudget ENOUGH_TIME = ReleaseBudget.of(() -> 0L, ReleaseBudget.BUDGET_NANOS);

    private final ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID);
    private final CompiledModelCache cache = CompiledModelCache.of(settings);
    private final MockProcessorContext<byte[], Object> context = ScoringContexts.context();

    /** A task's processor over the test's context (a new one is a task initialised again over the same store). */
    private ScoringProcessor processor() {
        context.setCurrentSystemTimeMs(1_000L);
        return new ScoringProcessor(settings, cache, StreamObserver.NONE, ENOUGH_TIME);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldStartAnswerTheHeldEventsAndDeadLetterEveryEntryThatIsNotOne() throws Exception {
        ScoringProcessor first = processor();
        first.init(context);
        for (int e = 0; e < 2; e++) {
            context.setRecordMetadata("unlabelled-events", 0, e);
            first.process(new Record<>(utf8("e" + e), Json.mapper().writeValueAsBytes(
                    Map.of("features", Iris.rows().get(50 * e).features(Iris.FEATURES))), 7L));
        }
        assertTrue(context.forwarded().isEmpty(), "no model yet: held");

        Map<Long, byte[]> damaged = new LinkedHashMap<>();
        damaged.put(10L, utf8("{\"key\": 1"));
        damaged.put(11L, utf8("{\"id\": \"t\", \"features\": {\"sepal_length\": 1.0}, \"timestamp\": -1}"));
        damaged.put(12L, utf8("{\"id\": \"h\", \"features\": {\"sepal_length\": 1.0}, \"timestamp\": 5,"
                + " \"headers\": [{\"key\": null, \"value\": null}]}"));
        damaged.put(13L, utf8("{\"id\": \"e\", \"timestamp\": 5}"));
        damaged.put(-5L, utf8("not json"));
        damaged.put(Long.MAX_VALUE, utf8("{}"));
        KeyValueStore<byte[], byte[]> store = context.getStateStore(ScoringTopology.PENDING_STORE);
        damaged.forEach((sequence, bytes) -> store.put(HeldEvents.key(sequence), bytes));
        byte[] shortKey = {0, 0, 1};
        store.put(shortKey, utf8("three bytes"));

        // The task starts again over the store as restored (Kafka Streams re-initialises a resumed task).
        ScoringProcessor restarted = processor();
        restarted.init(context);
        cache.offer(irisModel(1), "test");
        lastPunctuator(context).punctuate(0L);

        List<Prediction> out = predictions(context);
        assertEquals(List.of("e0", "e1"), out.stream().map(Prediction::id).toList(), "each held event once, in order");
        assertEquals(List.of("setosa", "versicolor"), out.stream().map(Prediction::label).toList());
        List<DeadLetter> dead = new ArrayList<>();
        context.forwarded().stream().filter(f -> ScoringTopology.DEAD_LETTERS_SINK.equals(f.childName().orElse(null)))
                .forEach(f -> dead.add((DeadLetter) f.record().value()));
        assertEquals(damaged.size() + 1, dead.size(), dead.toString());
        DeadLetter odd = dead.stream().filter(l -> l.reason().contains("key 0x000001")).findFirst().orElseThrow();
        assertEquals("state store scoring-pending: the entry under key 0x000001 is under a key that is no sequence a"
                + " scorer uses (damaged or forged in its changelog); it is not answered", odd.reason());
        assertEquals(Base64.getEncoder().encodeToString(utf8("three bytes")), odd.valueBase64());
        dead.remove(odd);
        for (DeadLetter letter : dead) {
            String sequence = new String(Base64.getDecoder().decode(letter.keyBase64()), StandardCharsets.UTF_8);
            long key = Long.parseLong(sequence);
            byte[] bytes = damaged.get(key);
            assertNotNull(bytes, sequence);
            assertEquals(Base64.getEncoder().encodeToString(bytes), letter.valueBase64(), sequence);
            assertEquals("scoring-processor-test-" + ScoringTopology.PENDING_STORE + "-changelog", letter.topic());
            assertEquals(0, letter.partition());
            assertEquals(-1L, letter.offset());
            assertTrue(letter.reason().startsWith("state store scoring-pending: the entry under sequence " + sequence
                    + (key < 0 || key >= HeldEvents.SEQUENCE_LIMIT ? " is under a key that is no sequence a scorer uses"
                    : " does not read as a held event")), letter.reason());
        }
        assertEquals(0, store.approximateNumEntries(), "nothing left held");
    }

    /**
     * A forged entry just below the sequence limit leaves no sequence for the next event while it is held: that
     * event is answered at once, as one arriving to a full hold, rather than stored where no release would find it
     * (and dead-lettered as forged at the next start). Once the entry is released the sequences start again.
     */
    @Test
    void shouldAnswerAtOnceWhatNoSequenceIsLeftToHold() throws Exception {
        KeyValueStore<byte[], byte[]> store = context.getStateStore(ScoringTopology.PENDING_STORE);
        store.put(HeldEvents.key(HeldEvents.SEQUENCE_LIMIT - 1), utf8("{}"));
        ScoringProcessor processor = processor();
        processor.init(context);
        context.setRecordMetadata("unlabelled-events", 0, 0);
        processor.process(new Record<>(utf8("e0"), Json.mapper().writeValueAsBytes(
                Map.of("features", Iris.rows().get(0).features(Iris.FEATURES))), 7L));
        List<Prediction> out = predictions(context);
        assertEquals(1, out.size(), "answered at once, not held");
        assertEquals(Prediction.Status.UNSCORED, out.get(0).status());
        assertEquals(1, store.approximateNumEntries(), "only the forged entry is held");

        cache.offer(irisModel(1), "test");
        lastPunctuator(context).punctuate(0L);
        assertEquals(0, store.approximateNumEntries());
        assertEquals(1, context.forwarded().stream()
                .filter(f -> ScoringTopology.DEAD_LETTERS_SINK.equals(f.childName().orElse(null))).count());
    }
}
