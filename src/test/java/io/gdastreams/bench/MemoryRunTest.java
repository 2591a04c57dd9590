package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryRunTest {

    /** Each instance keeps its own least reading, whichever reading it came in; a single reading is kept as is. */
    @Test
    void shouldKeepEachInstancesLeastHeapReading() {
        List<List<Long>> readings = List.of(List.of(300L, 70L), List.of(120L, 90L), List.of(180L, 65L));
        assertEquals(List.of(120L, 65L), MemoryRun.leastPerInstance(readings));
        assertEquals(List.of(42L), MemoryRun.leastPerInstance(List.of(List.of(42L))));
    }
}
