package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringContexts.lastPunctuator;
import static io.gdastreams.topology.ScoringContexts.predictions;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/**
 * The time a scoring task spends releasing held events counts against its stream thread's budget (250 ms a second)
 * release after release: a release that stopped at the budget leaves none for another in the same window. Each
 * answer here takes 100 ms on the budget's clock, which starts far from 0 as System.nanoTime does.
 */
class HeldReleaseTimeTest {

    private static final long START = 5_000_000_000L;
    private static final long PER_ANSWER = 100_000_000L;

    private long now = START;

    @Test
    void shouldReleaseNothingMoreInAWindowWhoseBudgetAnEarlierReleaseSpent() throws Exception {
        ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID);
        CompiledModelCache cache = CompiledModelCache.of(settings);
        StreamObserver slowAnswers = new StreamObserver() {
            @Override
            public void predicted(Prediction.Status status, long inputTimestampMs) {
                now += PER_ANSWER;
            }
        };
        ReleaseBudget thread = ReleaseBudget.of(() -> now, ReleaseBudget.BUDGET_NANOS);
        MockProcessorContext<byte[], Object> context = ScoringContexts.context();
        ScoringProcessor processor = new ScoringProcessor(settings, cache, slowAnswers, thread);
        processor.init(context);
        int[] rows = {0, 50, 100, 1};
        for (int e = 0; e < rows.length; e++) {
            context.setRecordMetadata("unlabelled-events", 0, e);
            byte[] value = Json.mapper().writeValueAsBytes(
                    Map.of("features", Iris.rows().get(rows[e]).features(Iris.FEATURES)));
            processor.process(new Record<>(("e" + e).getBytes(StandardCharsets.UTF_8), value, 0L));
        }
        assertTrue(context.forwarded().isEmpty(), "no model yet: all held");

        cache.offer(irisModel(1), "test");
        lastPunctuator(context).punctuate(0L);
        // 100 and 200 ms leave budget; the third answer ends at 300 ms, past 250: the release stops after it.
        assertEquals(List.of("e0", "e1", "e2"), ids(context));
        lastPunctuator(context).punctuate(0L);
        assertEquals(List.of("e0", "e1", "e2"), ids(context), "the window's 250 ms were spent by the first release");
        now = START + ReleaseBudget.WINDOW_NANOS;
        lastPunctuator(context).punctuate(1_000L);
        List<Prediction> out = predictions(context);
        assertEquals(List.of("e0", "e1", "e2", "e3"), out.stream().map(Prediction::id).toList());
        assertEquals(List.of("setosa", "versicolor", "virginica", "setosa"),
                out.stream().map(Prediction::label).toList());
    }

    private static List<String> ids(MockProcessorContext<byte[], Object> context) {
        return predictions(context).stream().map(Prediction::id).toList();
    }
}
