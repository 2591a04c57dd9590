package io.gdastreams.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.serde.Json;
import io.gdastreams.topology.TrainingFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One case of the numpy golden file src/test/resources/fixtures/iris_golden.json (format at the top of
 * make_golden.py): the 150 Iris rows with their true labels, and the posteriors and log-densities of the model
 * fitted on all of them, with the scorer options the script used. The model itself is
 * {@link TrainingFixtures#goldenIrisMle()}.
 *
 * @param features feature names in the order of each row's {@code x}
 * @param fitOptions covariance type, estimator, shrinkage, variance floor and minimum count of the case
 * @param rows all rows, file order
 */
public record IrisGolden(List<String> features, FitOptions fitOptions, List<Row> rows) {

    private static final String RESOURCE = "/fixtures/iris_golden.json";

    /**
     * One data row and its golden scores.
     *
     * @param index 0-based data row of iris.csv
     * @param probabilities p(y = k | x) by label
     * @param logDensity log p(x)
     */
    public record Row(int index, String label, double[] x, Map<String, Double> probabilities, double logDensity) {

        /** The most probable label under the golden model. */
        public String predictedLabel() {
            return probabilities.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        }
    }

    /** The 4-feature QDA case with MLE divisors: the scorer's defaults, and the model the trainer publishes. */
    public static IrisGolden fullMle() {
        return load(4, CovarianceType.FULL, Estimator.MLE);
    }

    public static IrisGolden load(int featureCount, CovarianceType type, Estimator estimator) {
        try (InputStream in = IrisGolden.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " not on the classpath");
            }
            JsonNode root = Json.mapper().readTree(in);
            FitOptions options = new FitOptions(type, estimator, root.get("regParam").asDouble(),
                    root.get("varianceFloor").asDouble(), root.get("minCount").asLong());
            for (JsonNode c : root.get("cases")) {
                if (c.get("features").size() == featureCount
                        && c.get("covarianceType").asText().equals(type.name().toLowerCase(Locale.ROOT))
                        && c.get("estimator").asText().equals(estimator.name().toLowerCase(Locale.ROOT))) {
                    List<String> features = new ArrayList<>();
                    c.get("features").forEach(f -> features.add(f.asText()));
                    List<Row> rows = new ArrayList<>();
                    for (JsonNode r : c.get("rows")) {
                        Map<String, Double> probabilities = new LinkedHashMap<>();
                        r.get("probabilities").properties()
                                .forEach(e -> probabilities.put(e.getKey(), e.getValue().asDouble()));
                        rows.add(new Row(r.get("row").asInt(), r.get("label").asText(),
                                Json.mapper().treeToValue(r.get("x"), double[].class), probabilities,
                                r.get("logDensity").asDouble()));
                    }
                    return new IrisGolden(List.copyOf(features), options, List.copyOf(rows));
                }
            }
            throw new IllegalStateException("no case " + featureCount + " features / " + type + " / " + estimator
                    + " in " + RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The row as a labelled event (README, "Topics"). */
    public byte[] labelledJson(Row row) {
        return TrainingFixtures.labelledJson(features, row.x(), row.label());
    }

    /** The row as an unlabelled event (README, "Topics"), {@code "id"} left out when {@code id} is null. */
    public byte[] unlabelledJson(Row row, String id) {
        ObjectNode root = Json.mapper().createObjectNode();
        if (id != null) {
            root.put("id", id);
        }
        ObjectNode values = root.putObject("features");
        for (int i = 0; i < features.size(); i++) {
            values.put(features.get(i), row.x()[i]);
        }
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }
}
