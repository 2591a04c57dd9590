package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gdastreams.model.MetricsRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay's summary combines the partitions' window records by count, by hand. */
class PrequentialSummaryTest {

    private static final double EXACT = 1e-12;

    private static String window(int partition, long start, long count, double accuracy, long noModel) {
        return "{\"type\":\"window\",\"modelId\":\"m\",\"partition\":" + partition + ",\"windowStart\":" + start
                + ",\"windowEnd\":" + (start + 1000) + ",\"count\":" + count + ",\"accuracy\":"
                + (count == 0 ? "null" : accuracy) + ",\"noModel\":" + noModel + "}";
    }

    @Test
    void combinesPartitionsByCountAndListsDriftsInEventTimeOrder() {
        PrequentialSummary summary = PrequentialSummary.of(List.of(
                window(0, 0, 0, 0, 5),          // before any model
                window(0, 1000, 10, 0.5, 0),    // 5 hits
                window(1, 1000, 30, 0.9, 0),    // 27 hits
                window(1, 2000, 4, 0.25, 0),    // 1 hit: the last window
                window(0, 2000, 6, 0.5, 1),     // 3 hits
                "{\"type\":\"drift\",\"modelId\":\"m\",\"partition\":1,\"eventTime\":2500}",
                "{\"type\":\"drift\",\"modelId\":\"m\",\"partition\":0,\"eventTime\":2100}"));
        assertEquals(50, summary.scored());
        assertEquals((5 + 27 + 1 + 3) / 50.0, summary.accuracy(), EXACT);
        assertEquals(6, summary.noModel());
        assertEquals(2000, summary.lastWindow());
        assertEquals((1 + 3) / 10.0, summary.lastAccuracy(), EXACT);
        assertEquals(2, summary.drifts().size());
        assertEquals(List.of(2100L, 2500L),
                summary.drifts().stream().map(MetricsRecord.DriftAlarm::eventTime).toList());
        assertEquals(List.of(0, 1), summary.drifts().stream().map(MetricsRecord.DriftAlarm::partition).toList());
    }

    @Test
    void nothingScoredIsNotANumber() {
        PrequentialSummary summary = PrequentialSummary.of(List.of(window(0, 0, 0, 0, 3)));
        assertEquals(0, summary.scored());
        assertEquals(Double.NaN, summary.accuracy());
        assertEquals(-1, summary.lastWindow());
    }

    /** Records of another type, or no record at all, are skipped; a line that is not JSON fails the summary. */
    @Test
    void skipsOtherRecordsAndFailsOnALineThatIsNotJson() {
        PrequentialSummary summary = PrequentialSummary.of(List.of(window(0, 0, 4, 0.5, 0),
                "{\"type\":\"heartbeat\",\"count\":99}", "[1, 2]", "", "null"));
        assertEquals(4, summary.scored());
        assertEquals(0.5, summary.accuracy(), EXACT);
        assertThrows(IllegalArgumentException.class, () -> PrequentialSummary.of(List.of("{\"type\":\"window\"")));
        assertThrows(IllegalArgumentException.class, () -> PrequentialSummary.of(List.of(
                "{\"type\":\"window\",\"windowStart\":0}")), "a window without its count");
    }
}
