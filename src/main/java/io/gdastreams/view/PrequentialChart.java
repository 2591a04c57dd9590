package io.gdastreams.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Windowed prequential accuracy over event time, one line per file of window records (what {@code replay
 * --prequential} writes): a window's accuracy is the count-weighted mean over the partitions that reported it.
 * The picture of docs/DRIFT.md:
 * {@code java -cp target/gda-streams.jar io.gdastreams.view.PrequentialChart out.png name=file.jsonl ...}.
 */
public final class PrequentialChart {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PrequentialChart() {
    }

    /** Window start (ms) → accuracy over the partitions, from one file of window records. */
    static TreeMap<Long, Double> accuracyByWindow(List<String> lines) {
        Map<Long, double[]> sums = new TreeMap<>();
        for (String line : lines) {
            try {
                JsonNode r = JSON.readTree(line);
                if (r.path("type").asText().equals("window") && r.path("count").asLong() > 0) {
                    double[] s = sums.computeIfAbsent(r.get("windowStart").asLong(), k -> new double[2]);
                    s[0] += r.get("count").asLong();
                    s[1] += r.get("accuracy").asDouble() * r.get("count").asLong();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        TreeMap<Long, Double> accuracy = new TreeMap<>();
        sums.forEach((start, s) -> accuracy.put(start, s[1] / s[0]));
        return accuracy;
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

    /** {@code out.png name=file.jsonl ...}. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: PrequentialChart out.png name=file.jsonl ...");
        }
        Map<String, TreeMap<Long, Double>> series = new java.util.LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] parts = args[i].split("=", 2);
            series.put(parts[0], accuracyByWindow(Files.readAllLines(Path.of(parts[1]), StandardCharsets.UTF_8)));
        }
        ImageIO.write(render(series, 1000, 500), "png", Path.of(args[0]).toFile());
    }
}
