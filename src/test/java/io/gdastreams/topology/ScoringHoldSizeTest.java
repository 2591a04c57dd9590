package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringContexts.lastPunctuator;
import static io.gdastreams.topology.ScoringContexts.predictions;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/**
 * The largest event a scoring task holds is 512 KiB (its changelog record, the bytes as base64 with key, id and
 * headers, must fit a broker record of 1 MiB): one byte more and it is answered at once, unscored "no model yet"
 * while no model exists, scored when one does, rather than held. Events are Iris rows padded with JSON whitespace
 * to an exact size.
 */
class ScoringHoldSizeTest {

    private static final int LARGEST_HELD = 512 * 1024;

    /** What the task told its observer: the answers' statuses and the hold's size after each change. */
    private final List<Status> answered = new ArrayList<>();
    private final List<Long> heldCounts = new ArrayList<>();
    private final List<DeadLetterCategory> deadLettered = new ArrayList<>();
    private final StreamObserver observer = new StreamObserver() {
        @Override
        public void predicted(Status status, long inputTimestampMs) {
            answered.add(status);
        }

        @Override
        public void pendingEvents(String task, long count) {
            heldCounts.add(count);
        }

        @Override
        public void deadLettered(DeadLetterCategory category) {
            deadLettered.add(category);
        }
    };

    @Test
    void shouldAnswerAnEventTooLargeToHoldAtOnceWhileNoModelExistsAndHoldOneOfTheLargestSize() throws Exception {
        ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID);
        CompiledModelCache cache = CompiledModelCache.of(settings);
        MockProcessorContext<byte[], Object> context = ScoringContexts.context();
        ScoringProcessor processor = new ScoringProcessor(settings, cache, observer);
        processor.init(context);

        send(processor, context, "big", 0, LARGEST_HELD + 1);
        List<Prediction> early = predictions(context);
        assertEquals(1, early.size(), "answered at once, not held: " + early);
        Prediction big = early.get(0);
        assertEquals(Status.UNSCORED, big.status());
        assertEquals("big", big.id());
        assertTrue(big.reason().startsWith("no model yet (model '" + ScoringFixtures.MODEL_ID + "' not published"),
                big.reason());
        assertTrue(big.reason().contains(" " + (LARGEST_HELD + 1) + " bytes ") && big.reason().endsWith(
                " " + LARGEST_HELD + ")"), "the event's size and the bound: " + big.reason());
        assertNull(big.modelVersion());
        assertEquals(1, context.forwarded().size(), "no dead letter: the event is not at fault");
        assertEquals(List.of(Status.UNSCORED), answered);
        assertTrue(heldCounts.stream().allMatch(n -> n == 0), "not held: " + heldCounts);

        send(processor, context, "edge", 1, LARGEST_HELD);
        assertEquals(1, context.forwarded().size(), "an event of the largest size is held");
        assertEquals(1L, heldCounts.get(heldCounts.size() - 1));

        cache.offer(irisModel(1), "test");
        lastPunctuator(context).punctuate(1_000L);
        List<Prediction> out = predictions(context);
        assertEquals(List.of("big", "edge"), out.stream().map(Prediction::id).toList(), "each answered once");
        assertEquals(Status.SCORED, out.get(1).status());
        assertEquals("setosa", out.get(1).label());
        assertEquals(List.of(Status.UNSCORED, Status.SCORED), answered);
        assertEquals(0L, heldCounts.get(heldCounts.size() - 1));
        assertTrue(deadLettered.isEmpty(), deadLettered.toString());
    }

    /**
     * With a model in force and events still held before it, a new event waits behind them when it fits the hold;
     * one byte over the largest size it is scored at once instead (here the budget releases one held event a window).
     */
    @Test
    void shouldScoreAnEventTooLargeToHoldAtOnceWhileHeldEventsWait() throws Exception {
        ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID);
        CompiledModelCache cache = CompiledModelCache.of(settings);
        long[] now = {5_000_000_000L};
        MockProcessorContext<byte[], Object> context = ScoringContexts.context();
        ScoringProcessor processor = new ScoringProcessor(settings, cache, observer, ReleaseBudget.of(() -> now[0], 0));
        processor.init(context);
        send(processor, context, "e0", 0, 100);
        send(processor, context, "e1", 1, 100);

        cache.offer(irisModel(1), "test");
        send(processor, context, "edge", 2, LARGEST_HELD);
        assertEquals(List.of("e0"), ids(context), "e0 released; the edge event waits behind e1");
        send(processor, context, "big", 3, LARGEST_HELD + 1);
        assertEquals(List.of("e0", "big"), ids(context), "too large to wait: scored at once");
        for (int window = 1; window <= 2; window++) {
            now[0] += ReleaseBudget.WINDOW_NANOS;
            lastPunctuator(context).punctuate(window * 1_000L);
        }
        List<Prediction> out = predictions(context);
        assertEquals(List.of("e0", "big", "e1", "edge"), out.stream().map(Prediction::id).toList());
        assertTrue(out.stream().allMatch(p -> p.status() == Status.SCORED), out.toString());
    }

    private static List<String> ids(MockProcessorContext<byte[], Object> context) {
        return predictions(context).stream().map(Prediction::id).toList();
    }

    /** Sends Iris row 0 keyed {@code key}, padded with spaces to exactly {@code bytes} bytes. */
    private static void send(ScoringProcessor processor, MockProcessorContext<byte[], Object> context, String key,
                             int offset, int bytes) throws Exception {
        byte[] event = Json.mapper().writeValueAsBytes(Map.of("features", Iris.rows().get(0).features(Iris.FEATURES)));
        byte[] value = new byte[Math.max(bytes, event.length)];
        Arrays.fill(value, (byte) ' ');
        System.arraycopy(event, 0, value, 0, event.length);
        assertEquals(bytes, value.length, "the row's JSON is longer than " + bytes + " bytes");
        context.setRecordMetadata("unlabelled-events", 0, offset);
        processor.process(new Record<>(key.getBytes(StandardCharsets.UTF_8), value, 0L));
    }
}
