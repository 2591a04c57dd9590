package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/** Class statistics of several partitions pooled per label. */
class PooledClassesTest {

    private static final double EXACT = 0.0;

    private static RunningGaussian of(double[]... points) {
        RunningGaussian g = new RunningGaussian(points[0].length);
        for (double[] p : points) {
            g.update(p);
        }
        return g;
    }

    @Test
    void shouldPoolEachLabelOverEverySourceInLabelOrderAndLeaveTheSourcesAsTheyWere() {
        RunningGaussian a0 = of(new double[] {1, 2}, new double[] {3, 6});
        Map<String, RunningGaussian> first = Map.of("b", of(new double[] {0, 0}), "a", a0);
        Map<String, RunningGaussian> second = Map.of("a", of(new double[] {5, 4}));

        SortedMap<String, RunningGaussian> pooled = PooledClasses.of(List.of(first, second), label -> true);

        assertEquals(List.of("a", "b"), List.copyOf(pooled.keySet()));
        // (1,2), (3,6), (5,4): mean (3,4), S = [[8, 4], [4, 8]] (by hand).
        RunningGaussian a = pooled.get("a");
        assertEquals(3, a.count());
        assertArrayEquals(new double[] {3, 4}, a.mean(), EXACT);
        assertArrayEquals(new double[] {8, 4}, a.scatter()[0], EXACT);
        assertArrayEquals(new double[] {4, 8}, a.scatter()[1], EXACT);
        assertEquals(1, pooled.get("b").count());
        assertEquals(2, a0.count(), "a source is not modified");
    }

    @Test
    void shouldLeaveOutTheLabelsNotIncluded() {
        SortedMap<String, RunningGaussian> pooled = PooledClasses.of(
                List.of(Map.of("a", of(new double[] {1}), "b", of(new double[] {2}))), label -> !label.equals("b"));

        assertEquals(List.of("a"), List.copyOf(pooled.keySet()));
    }
}
