package io.gdastreams.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.MetricsRecord;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chart renders at its size, and writes a PNG of the windows it is handed. */
class PrequentialChartTest {

    @Test
    void rendersAtTheRequestedSize() {
        BufferedImage image = PrequentialChart.render(Map.of("a", new TreeMap<>(Map.of(0L, 0.8, 3_600_000L, 0.9))),
                400, 300);
        assertEquals(400, image.getWidth());
        assertEquals(300, image.getHeight());
    }

    @Test
    void writesAPngOfTheWindows(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("chart.png");
        PrequentialChart.writePng(Map.of("a", List.of(window(0, 0.8), window(3_600_000, 0.9))), png);
        assertTrue(Files.size(png) > 0);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1000, image.getWidth());
        assertEquals(500, image.getHeight());
    }

    private static MetricsRecord.Window window(long start, double accuracy) {
        return new MetricsRecord.Window(null, 0, start, start + 600_000, 10, accuracy, null, null, new TreeMap<>(),
                new TreeMap<>(), null, 0, 0, 0);
    }
}
