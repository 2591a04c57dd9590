package io.gdastreams.view;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.replay.CsvTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The points of {@code plot --data}: two feature columns and a label column of a CSV file (as replay reads it).
 * A row whose x or y is empty or not a finite number is skipped and counted, as is every row past
 * {@link #MAX_POINTS} (a scatter of more is a blot and slow to write as SVG).
 */
public record PlotData(List<Point> points, int skipped, int beyondBound) {

    /** Points drawn at most. */
    public static final int MAX_POINTS = 100_000;

    /** One row: its coordinates and its label. */
    public record Point(double x, double y, String label) {
    }

    public PlotData {
        points = List.copyOf(points);
    }

    public static PlotData read(Path csv, String x, String y, String labelColumn) {
        CsvTable table = CsvTable.read(csv);
        int xColumn = column(table, x, "--x");
        int yColumn = column(table, y, "--y");
        int labelIndex = column(table, labelColumn, "--label");
        List<Point> points = new ArrayList<>();
        int skipped = 0;
        int beyond = 0;
        for (CsvTable.Row row : table.rows()) {
            double px = number(row.cells().get(xColumn));
            double py = number(row.cells().get(yColumn));
            if (!Double.isFinite(px) || !Double.isFinite(py)) {
                skipped++;
            } else if (points.size() == MAX_POINTS) {
                beyond++;
            } else {
                points.add(new Point(px, py, row.cells().get(labelIndex).strip()));
            }
        }
        return new PlotData(points, skipped, beyond);
    }

    private static int column(CsvTable table, String name, String option) {
        int index = table.column(name);
        if (index < 0) {
            throw new UserError(option + " " + name + ": no such column in " + table.source() + " (it has "
                    + String.join(", ", table.header()) + ")");
        }
        return index;
    }

    private static double number(String cell) {
        try {
            return Double.parseDouble(cell.strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
