package io.gdastreams.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The plot's windows combine the partitions' records by count (by hand), and the chart renders at its size. */
class PrequentialChartTest {

    private static final double EXACT = 1e-12;

    @Test
    void combinesPartitionsByCountAndSkipsEmptyWindowsAndDrifts() {
        TreeMap<Long, Double> accuracy = PrequentialChart.accuracyByWindow(List.of(
                "{\"type\":\"window\",\"partition\":0,\"windowStart\":0,\"count\":10,\"accuracy\":0.5}",
                "{\"type\":\"window\",\"partition\":1,\"windowStart\":0,\"count\":30,\"accuracy\":0.9}",
                "{\"type\":\"window\",\"partition\":1,\"windowStart\":600,\"count\":0,\"accuracy\":null}",
                "{\"type\":\"drift\",\"partition\":1,\"eventTime\":5}"));
        assertEquals(1, accuracy.size());
        assertEquals((5 + 27) / 40.0, accuracy.get(0L), EXACT);
    }

    @Test
    void rendersAtTheRequestedSize() {
        BufferedImage image = PrequentialChart.render(Map.of("a", new TreeMap<>(Map.of(0L, 0.8, 3_600_000L, 0.9))),
                400, 300);
        assertEquals(400, image.getWidth());
        assertEquals(300, image.getHeight());
    }
}
