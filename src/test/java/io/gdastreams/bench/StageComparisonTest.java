package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.serde.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parts of {@code bench --variant} that need no broker: the variant syntax and the comparison line. */
class StageComparisonTest {

    @Test
    void aVariantIsANameAndSemicolonSeparatedKeys() {
        StageComparison.Variant v = StageComparison.Variant.parse(
                "both:gda.forgetting.half-life.ms=3600000; gda.priors=a:0.5,b:0.5");
        assertEquals("both", v.name());
        assertEquals(List.of("gda.forgetting.half-life.ms=3600000", "gda.priors=a:0.5,b:0.5"), v.settings());
        assertThrows(UserError.class, () -> StageComparison.Variant.parse("gda.prequential=true"));
        assertThrows(UserError.class, () -> StageComparison.Variant.parse("baseline:gda.prequential=true"));
        assertThrows(UserError.class, () -> StageComparison.Variant.parse("empty:"));
        assertThrows(IllegalArgumentException.class, () -> new StageComparison(Stage.TRAINING, List.of(), 0));
    }

    @Test
    void theComparedStageIsTrainingUnlessNamed() {
        assertEquals(Stage.TRAINING, BenchCommand.comparedStage(null));
        assertEquals(Stage.SCORING, BenchCommand.comparedStage("scoring"));
        assertEquals(Stage.PASSTHROUGH, BenchCommand.comparedStage(" passthrough"));
        UserError unknown = assertThrows(UserError.class, () -> BenchCommand.comparedStage("combiner"));
        assertEquals("--variant-stage combiner: expected training, scoring or passthrough", unknown.getMessage());
    }

    @Test
    void theComparisonLineHasMediansOfRatesAndOfPerRoundRatios() throws Exception {
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        rates.put("baseline", List.of(100.0, 200.0, 150.0));
        rates.put("forgetting", List.of(90.0, 150.0, 150.0)); // ratios 0.9, 0.75, 1.0: median 0.9
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        cpu.put("baseline", List.of(2.0, 4.0, 3.0));
        cpu.put("forgetting", List.of(2.5, 4.0, 3.3)); // ratios 1.25, 1.0, 1.1: median 1.1
        Map<String, List<Double>> bytes = new LinkedHashMap<>();
        bytes.put("baseline", List.of(200.0, 210.0, 205.0));
        bytes.put("forgetting", List.of(80.0, 94.5, 82.0)); // ratios 0.4, 0.45, 0.4: median 0.4
        JsonNode line = Json.mapper().readTree(BenchReport.comparisonLine(rates, cpu, bytes, "baseline"))
                .get("comparison");
        assertEquals(150, line.get("baseline").get("medianEventsPerSecond").asLong());
        assertEquals(1.0, line.get("baseline").get("medianRatioToBaseline").asDouble());
        assertEquals(150, line.get("forgetting").get("medianEventsPerSecond").asLong());
        assertEquals(0.9, line.get("forgetting").get("medianRatioToBaseline").asDouble());
        assertEquals(3.0, line.get("baseline").get("medianAppCpuMicrosPerEvent").asDouble());
        assertEquals(3.3, line.get("forgetting").get("medianAppCpuMicrosPerEvent").asDouble());
        assertEquals(1.1, line.get("forgetting").get("medianCpuPerEventRatioToBaseline").asDouble());
        assertEquals(1.0, line.get("baseline").get("medianCpuPerEventRatioToBaseline").asDouble());
        assertEquals(82.0, line.get("forgetting").get("medianStoredBytesPerEvent").asDouble());
        assertEquals(205.0, line.get("baseline").get("medianStoredBytesPerEvent").asDouble());
        assertEquals(0.4, line.get("forgetting").get("medianStoredBytesRatioToBaseline").asDouble());

        cpu.put("forgetting", List.of(2.5, Double.NaN, 3.3)); // a round not measured: no CPU figures
        bytes.put("baseline", List.of(200.0, Double.NaN, 205.0)); // the baseline's bytes of a round not measured
        JsonNode unmeasured = Json.mapper().readTree(BenchReport.comparisonLine(rates, cpu, bytes, "baseline"))
                .get("comparison").get("forgetting");
        assertTrue(unmeasured.get("medianCpuPerEventRatioToBaseline").isNull());
        assertTrue(unmeasured.get("medianStoredBytesPerEvent").isNull());
        assertTrue(unmeasured.get("medianStoredBytesRatioToBaseline").isNull());
        assertEquals(0.9, unmeasured.get("medianRatioToBaseline").asDouble());
        assertEquals(2.5, BenchReport.median(List.of(4.0, 1.0, 2.0, 3.0)), "even count: mean of the middle two");
    }
}
