package io.gdastreams.topology;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The bundled Iris data and models built from its statistics, as the trainer would publish them. */
final class ScoringFixtures {

    static final String MODEL_ID = "iris";
    static final List<String> IRIS_FEATURES =
            List.of("sepal_length", "sepal_width", "petal_length", "petal_width");

    /** One labelled row; {@code features} in file column order. */
    record Row(Map<String, Double> features, String label) {
    }

    private ScoringFixtures() {
    }

    /** The 150 rows of src/main/resources/data/iris.csv, in file order. */
    static List<Row> iris() {
        try (InputStream in = ScoringFixtures.class.getResourceAsStream("/data/iris.csv")) {
            if (in == null) {
                throw new IllegalStateException("iris.csv not on the classpath");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String[] header = reader.readLine().split(",");
            List<Row> rows = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split(",");
                Map<String, Double> features = new LinkedHashMap<>();
                for (int i = 0; i < header.length - 1; i++) {
                    features.put(header[i], Double.parseDouble(cells[i]));
                }
                rows.add(new Row(features, cells[header.length - 1]));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A model over {@code features} (in that order) from {@code rows}; classes in order of first appearance. */
    static ModelParameters model(long version, List<Row> rows, List<String> features) {
        Map<String, RunningGaussian> stats = new LinkedHashMap<>();
        for (Row row : rows) {
            double[] x = new double[features.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = row.features().get(features.get(i));
            }
            stats.computeIfAbsent(row.label(), l -> new RunningGaussian(features.size())).update(x);
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
        return new ModelParameters(MODEL_ID, version, List.copyOf(features), rows.size(), classes, Map.of("0",
                (long) rows.size()), "2026-01-01T00:00:00Z");
    }

    static ModelParameters irisModel(long version) {
        return model(version, iris(), IRIS_FEATURES);
    }

    /** Every {@code stride}-th row starting at {@code first}: a smaller, different training set. */
    static List<Row> every(int stride, int first) {
        List<Row> all = iris();
        List<Row> picked = new ArrayList<>();
        for (int i = first; i < all.size(); i += stride) {
            picked.add(all.get(i));
        }
        return picked;
    }
}
