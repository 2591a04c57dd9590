package io.gdastreams.cli;

import io.gdastreams.model.MetricsRecord;
import io.gdastreams.serde.MetricsJson;
import io.gdastreams.view.ChartSupport;
import io.gdastreams.view.PrequentialChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The drift chart of docs/DRIFT.md, a tool of that page rather than a command of the jar:
 * {@code java -cp target/gda-streams.jar io.gdastreams.cli.PrequentialChartMain out.png name=file.jsonl ...}, one
 * line per file of metrics records ({@code replay --prequential}, or docs/drift/segment_accuracy.py's oracle
 * windows). It lives here, not in {@code view}, because reading the records is the serde package's
 * ({@link MetricsJson}), which the view does not import.
 */
public final class PrequentialChartMain {

    private PrequentialChartMain() {
    }

    /** {@code out.png name=file.jsonl ...}. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: PrequentialChartMain out.png name=file.jsonl ...");
        }
        ChartSupport.require();
        Map<String, List<MetricsRecord.Window>> series = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] parts = args[i].split("=", 2);
            series.put(parts[0], windows(Path.of(parts[1])));
        }
        PrequentialChart.writePng(series, Path.of(args[0]));
    }

    /** The window records of {@code file}; drift alarms and other records are skipped, a line not JSON fails. */
    static List<MetricsRecord.Window> windows(Path file) throws IOException {
        List<MetricsRecord.Window> windows = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            try {
                if (MetricsJson.read(lines.get(i)).orElse(null) instanceof MetricsRecord.Window w) {
                    windows.add(w);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return windows;
    }
}
