package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.junit.jupiter.api.Test;

/** The strict reading of Prometheus text that OpsEndpointIT relies on: it refuses what the parser would skip. */
class PrometheusTextTest {

    private static final String VALID = """
            # HELP gda_dead_letters_total records sent to the dead-letter topic
            # TYPE gda_dead_letters_total counter
            gda_dead_letters_total{reason="invalid_event"} 3.0
            gda_dead_letters_total{reason="oversized"} 0.0
            # TYPE gda_scoring_latency_seconds histogram
            gda_scoring_latency_seconds_bucket{le="0.001"} 1
            gda_scoring_latency_seconds_bucket{le="+Inf"} 2
            gda_scoring_latency_seconds_count 2
            gda_scoring_latency_seconds_sum 0.5
            """;

    @Test
    void shouldReadEverySampleOfAValidText() throws Exception {
        List<MetricFamily> families = PrometheusText.parse(VALID.getBytes(StandardCharsets.UTF_8));
        assertEquals(2, families.size());
        assertEquals(3.0, ((Counter) families.get(0).getMetrics().get(0)).getValue());
        Histogram latency = (Histogram) families.get(1).getMetrics().get(0);
        assertEquals(2, latency.getSampleCount());
        assertEquals(0.5, latency.getSampleSum());
    }

    @Test
    void shouldRefuseLinesTheParserSkips() {
        for (String bad : List.of(
                VALID + "garbage line\n",
                VALID.replace("} 3.0", "} three"),
                VALID.replace("{reason=\"oversized\"} 0.0", "{reason=\"oversized\" 0.0"),
                VALID + "# TYPE gda_dead_letters_total counter\n")) {
            assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse(bad.getBytes(
                    StandardCharsets.UTF_8)), bad);
        }
    }
}
