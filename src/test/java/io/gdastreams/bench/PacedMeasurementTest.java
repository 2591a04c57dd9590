package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.bench.ModelWatcher.ModelAt;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacedMeasurementTest {

    private static final long INTERVAL_MS = 250;

    @Test
    void shouldCountTheVersionsAppendedInTheSpanPerInterval() {
        // Paced events from 10 ms; versions at 0 (before: not counted), 260, 510, 630 (a late member), 760, 1 010
        // (after the last needed one at 760: not counted). Four versions in 750 ms = three intervals.
        List<ModelAt> versions = List.of(at(0), at(260), at(510), at(630), at(760), at(1_010));
        assertEquals(4.0 / 3, PacedMeasurement.versionsPerInterval(versions, 10, 760, INTERVAL_MS), 1e-15);
        assertTrue(Double.isNaN(PacedMeasurement.versionsPerInterval(versions, 760, 760, INTERVAL_MS)), "no span");
    }

    private static ModelAt at(long appendTime) {
        return new ModelAt(null, appendTime, appendTime + 5);
    }
}
