package io.gdastreams.reliability;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The bundled Iris data (features in {@link HostileRecords#FEATURES} order) and a model published from it. */
public final class IrisRows {

    /** One labelled row. */
    public record Row(double[] x, String label) {
    }

    private IrisRows() {
    }

    /** The 150 rows of src/main/resources/data/iris.csv, in file order. */
    public static List<Row> all() {
        try (InputStream in = IrisRows.class.getResourceAsStream("/data/iris.csv")) {
            if (in == null) {
                throw new IllegalStateException("iris.csv not on the classpath");
            }
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank()).toList();
            List<Row> rows = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                String[] cells = line.split(",");
                double[] x = new double[4];
                for (int i = 0; i < 4; i++) {
                    x[i] = Double.parseDouble(cells[i]);
                }
                rows.add(new Row(x, cells[4]));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The model a trainer publishes after reading {@code rows}: MLE per class, classes in first-seen order. */
    public static ModelParameters model(String modelId, long version, List<Row> rows) {
        Map<String, RunningGaussian> stats = new LinkedHashMap<>();
        for (Row row : rows) {
            stats.computeIfAbsent(row.label(), l -> new RunningGaussian(4)).update(row.x());
        }
        List<ClassParameters> classes = new ArrayList<>();
        for (Map.Entry<String, RunningGaussian> e : stats.entrySet()) {
            RunningGaussian g = e.getValue();
            double[][] covariance = g.scatter();
            for (double[] r : covariance) {
                for (int j = 0; j < r.length; j++) {
                    r[j] /= g.count();
                }
            }
            classes.add(new ClassParameters(e.getKey(), g.count(), (double) g.count() / rows.size(), g.mean(),
                    covariance));
        }
        return new ModelParameters(modelId, version, HostileRecords.FEATURES, rows.size(), classes,
                Map.of("0", (long) rows.size()), "2026-01-01T00:00:00Z");
    }
}
