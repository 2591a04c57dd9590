package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class StageRunnerTest {

    private final Serializer<Prediction> serializer = SerdeFactory.prediction().serializer();

    @Test
    void shouldCountOnlyScoredPredictionsAsScoringThroughput() {
        byte[] scored = serializer.serialize("p", Prediction.scored("1", "a", Map.of("a", 1.0), -2.5, "bench", 3L,
                null));
        byte[] unscored = serializer.serialize("p", Prediction.unscored("2", "no model yet", null, null));
        assertTrue(StageRunner.isScoredPrediction(scored));
        assertFalse(StageRunner.isScoredPrediction(unscored));
        assertFalse(StageRunner.isScoredPrediction(null));
        assertFalse(StageRunner.isScoredPrediction("{}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shouldRateTheCpuFromRunningByTheEventsWhoseOutputsCameAfterItUnlessMostCameBefore() {
        assertEquals(1_000_000, StageRunner.eventsAfterRunning(1_000_000, 0));
        assertEquals(986_522, StageRunner.eventsAfterRunning(1_000_000, 13_478));
        assertEquals(500_000, StageRunner.eventsAfterRunning(1_000_000, 500_000), "half: still rated");
        assertEquals(0, StageRunner.eventsAfterRunning(1_000_000, 500_001), "most before RUNNING: not rated");
        assertEquals(0, StageRunner.eventsAfterRunning(50_000, 50_000));
    }
}
