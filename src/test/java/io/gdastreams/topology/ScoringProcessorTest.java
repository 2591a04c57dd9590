package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringContexts.context;
import static io.gdastreams.topology.ScoringContexts.lastPunctuator;
import static io.gdastreams.topology.ScoringContexts.prediction;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/**
 * ScoringProcessor driven directly, for what the TopologyTestDriver cannot do: Kafka Streams re-initialises the
 * same processor instance when a suspended task resumes (cooperative rebalance), over the store it left behind.
 */
class ScoringProcessorTest {

    private static final String TOPIC = "unlabelled-events";

    @Test
    void shouldCountHeldEventsOnceWhenTheSameProcessorIsReinitialised() throws Exception {
        ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID).withMaxPending(3);
        CompiledModelCache cache = CompiledModelCache.of(settings);
        MockProcessorContext<byte[], Object> context = context();
        ScoringProcessor processor = new ScoringProcessor(settings, cache);
        processor.init(context);
        List<LabelledRow> rows = Iris.rows();

        send(processor, context, 0, rows.get(0).features(Iris.FEATURES));
        send(processor, context, 1, rows.get(50).features(Iris.FEATURES));
        processor.init(context); // task suspended and resumed: same instance, same store
        send(processor, context, 2, rows.get(100).features(Iris.FEATURES));
        assertTrue(context.forwarded().isEmpty(), "3 events fit a bound of 3: all held, none answered yet");

        cache.offer(irisModel(1), "test");
        var punctuators = context.scheduledPunctuators();
        punctuators.get(punctuators.size() - 1).getPunctuator().punctuate(1_000L);
        List<Prediction> out = context.forwarded().stream().map(f -> (Prediction) f.record().value()).toList();
        assertEquals(List.of("e0", "e1", "e2"), out.stream().map(Prediction::id).toList());
        assertTrue(out.stream().allMatch(p -> p.status() == Status.SCORED), out.toString());
        assertEquals(List.of("setosa", "versicolor", "virginica"), out.stream().map(Prediction::label).toList());
    }

    /**
     * Held events are released within the stream thread's budget, shared by its tasks (here 0 ns a window: one event a
     * window), so that thousands scored by a large model do not outlast exactly-once's transaction timeout; a commit is
     * asked after a partial release. An event that comes meanwhile waits behind the held ones while the hold has room
     * (the answers keep the arrival order), and is answered at once when it has none.
     */
    @Test
    void shouldReleaseHeldEventsWithinTheThreadsBudgetAndKeepTheirOrder() throws Exception {
        ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID).withMaxPending(3);
        CompiledModelCache cache = CompiledModelCache.of(settings);
        long[] now = {0};
        ReleaseBudget thread = ReleaseBudget.of(() -> now[0], 0L);
        MockProcessorContext<byte[], Object> context = context();
        ScoringProcessor processor = new ScoringProcessor(settings, cache, StreamObserver.NONE, thread);
        processor.init(context);
        MockProcessorContext<byte[], Object> otherContext = context();
        ScoringProcessor otherTask = new ScoringProcessor(settings, cache, StreamObserver.NONE, thread);
        otherTask.init(otherContext);
        List<LabelledRow> rows = Iris.rows();
        int[] rowOf = {0, 50, 100, 1, 51};
        for (int e = 0; e < 3; e++) {
            send(processor, context, e, rows.get(rowOf[e]).features(Iris.FEATURES));
        }
        send(otherTask, otherContext, 0, rows.get(2).features(Iris.FEATURES));
        assertTrue(context.forwarded().isEmpty());

        cache.offer(irisModel(1), "test");
        send(processor, context, 3, rows.get(rowOf[3]).features(Iris.FEATURES));
        assertEquals(List.of("e0"), ids(context), "one held event released; e3 waits behind e1 and e2");
        assertTrue(context.committed(), "a commit asked after a partial release");
        lastPunctuator(otherContext).punctuate(0L);
        assertTrue(otherContext.forwarded().isEmpty(), "the thread's budget for this window is spent");
        send(processor, context, 4, rows.get(rowOf[4]).features(Iris.FEATURES));
        assertEquals(List.of("e0", "e4"), ids(context), "the hold is full (3): e4 is answered at once");
        for (int window = 1; window <= 3; window++) {
            now[0] += ReleaseBudget.WINDOW_NANOS;
            lastPunctuator(context).punctuate(window * 1_000L);
        }
        List<Prediction> out = context.forwarded().stream().map(f -> prediction(f.record().value())).toList();
        assertEquals(List.of("e0", "e4", "e1", "e2", "e3"), out.stream().map(Prediction::id).toList());
        assertTrue(out.stream().allMatch(p -> p.status() == Status.SCORED), out.toString());
        assertEquals(List.of("setosa", "versicolor", "versicolor", "virginica", "setosa"),
                out.stream().map(Prediction::label).toList());
        now[0] += ReleaseBudget.WINDOW_NANOS;
        lastPunctuator(otherContext).punctuate(5_000L);
        assertEquals(1, otherContext.forwarded().size(), "the other task's turn in the next window");
        send(processor, context, 5, rows.get(2).features(Iris.FEATURES));
        assertEquals(6, context.forwarded().size(), "nothing held: scored at once");
    }

    private static List<String> ids(MockProcessorContext<byte[], Object> context) {
        return context.forwarded().stream().map(f -> prediction(f.record().value()).id()).toList();
    }

    private static void send(ScoringProcessor processor, MockProcessorContext<byte[], Object> context, int offset,
                             Map<String, Double> features) throws Exception {
        context.setRecordMetadata(TOPIC, 0, offset);
        byte[] value = Json.mapper().writeValueAsBytes(Map.of("features", features));
        processor.process(new Record<>(("e" + offset).getBytes(StandardCharsets.UTF_8), value, 0L));
    }
}
