package io.gdastreams.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A window's accuracy combines the partitions' records by count (by hand); empty windows are left out. */
class WindowAccuracyTest {

    private static final double EXACT = 1e-12;

    private static MetricsRecord.Window window(int partition, long start, long count, Double accuracy) {
        return new MetricsRecord.Window("m", partition, start, start + 600, count, accuracy, null, null,
                new TreeMap<>(), new TreeMap<>(), null, 0, 0, 0);
    }

    @Test
    void combinesPartitionsByCountAndSkipsEmptyWindows() {
        TreeMap<Long, Double> accuracy = WindowAccuracy.byWindowStart(List.of(window(0, 0, 10, 0.5),
                window(1, 0, 30, 0.9), window(1, 600, 0, null), window(0, 1200, 4, 0.25)));
        assertEquals(List.of(0L, 1200L), List.copyOf(accuracy.keySet()));
        assertEquals((5 + 27) / 40.0, accuracy.get(0L), EXACT);
        assertEquals(0.25, accuracy.get(1200L), EXACT);
    }
}
