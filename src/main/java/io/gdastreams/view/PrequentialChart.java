package io.gdastreams.view;

import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.WindowAccuracy;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Windowed prequential accuracy over event time, one line per series of window records (what {@code replay
 * --prequential} writes): a window's accuracy is the count-weighted mean over the partitions that reported it
 * ({@link WindowAccuracy}). The picture of docs/DRIFT.md, drawn by {@code cli.PrequentialChartMain}, which reads
 * the files (reading JSON is the serde package's, which this package does not import).
 */
public final class PrequentialChart {

    private PrequentialChart() {
    }

    /** Writes the chart of the named series of windows (name → its window records) as a PNG of 1000 × 500. */
    public static void writePng(Map<String, List<MetricsRecord.Window>> series, Path png) throws IOException {
        Map<String, TreeMap<Long, Double>> accuracy = new LinkedHashMap<>();
        series.forEach((name, windows) -> accuracy.put(name, WindowAccuracy.byWindowStart(windows)));
        ImageIO.write(render(accuracy, 1000, 500), "png", png.toFile());
    }

    /** The chart of the named series (name → window start → accuracy), event time in hours. */
    static BufferedImage render(Map<String, TreeMap<Long, Double>> series, int width, int height) {
        XYChart chart = new XYChartBuilder().width(width).height(height)
                .title("Prequential accuracy per window").xAxisTitle("event time (hours)").yAxisTitle("accuracy")
                .build();
        chart.getStyler().setYAxisMin(0.4).setYAxisMax(1.0);
        for (Map.Entry<String, TreeMap<Long, Double>> s : series.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            s.getValue().forEach((start, accuracy) -> {
                x.add(start / 3_600_000.0);
                y.add(accuracy);
            });
            chart.addSeries(s.getKey(), x, y).setMarker(SeriesMarkers.NONE);
        }
        return BitmapEncoder.getBufferedImage(chart);
    }
}
