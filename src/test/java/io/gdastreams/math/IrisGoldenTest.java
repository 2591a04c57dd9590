package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Iris, streamed row by row through RunningGaussian, fitted and scored, against the numpy goldens of
 * src/test/resources/fixtures/make_golden.py (iris_golden.json).
 */
class IrisGoldenTest {

    private static final double GOLDEN = 1e-10;

    /** Per-class statistics of the chosen columns, classes in order of first appearance. */
    static List<ClassSummary> summaries(List<LabelledRow> rows, int[] columns) {
        Map<String, RunningGaussian> stats = new LinkedHashMap<>();
        for (LabelledRow row : rows) {
            stats.computeIfAbsent(row.label(), s -> new RunningGaussian(columns.length))
                    .update(select(row.x(), columns));
        }
        List<ClassSummary> summaries = new ArrayList<>();
        stats.forEach((label, g) -> summaries.add(ClassSummary.of(label, g)));
        return summaries;
    }

    static double[] select(double[] x, int[] columns) {
        double[] out = new double[columns.length];
        for (int i = 0; i < columns.length; i++) {
            out[i] = x[columns[i]];
        }
        return out;
    }

    static Stream<JsonNode> cases() throws IOException {
        try (InputStream in = IrisGoldenTest.class.getResourceAsStream("/fixtures/iris_golden.json")) {
            JsonNode root = new ObjectMapper().readTree(in);
            List<JsonNode> cases = new ArrayList<>();
            root.get("cases").forEach(cases::add);
            assertEquals(12, cases.size());
            return cases.stream();
        }
    }

    static double[] doubles(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).doubleValue();
        }
        return out;
    }

    static FitOptions options(JsonNode golden) {
        return FitOptions.defaults()
                .withCovarianceType(CovarianceType.valueOf(golden.get("covarianceType").asText().toUpperCase(Locale.ROOT)))
                .withEstimator(Estimator.valueOf(golden.get("estimator").asText().toUpperCase(Locale.ROOT)));
    }

    static int[] columns(JsonNode golden) {
        JsonNode features = golden.get("features");
        int[] columns = new int[features.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = Iris.FEATURES.indexOf(features.get(i).asText());
        }
        return columns;
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("cases")
    void shouldMatchNumpyParametersAndPosteriors(JsonNode golden) throws IOException {
        int[] columns = columns(golden);
        List<LabelledRow> rows = Iris.rows();
        GaussianModel model = GaussianModel.fit(summaries(rows, columns), options(golden));

        List<String> labels = new ArrayList<>();
        golden.get("labels").forEach(l -> labels.add(l.asText()));
        assertEquals(labels, model.labels());
        assertTrue(model.excluded().isEmpty());
        assertArrayEquals(doubles(golden.get("priors")), model.priors(), GOLDEN);
        for (int k = 0; k < labels.size(); k++) {
            assertEquals(0.0, model.jitter(k));
            assertEquals(golden.get("counts").get(k).asLong(), model.counts()[k]);
            assertArrayEquals(doubles(golden.get("means").get(k)), model.means()[k], GOLDEN);
            for (int i = 0; i < columns.length; i++) {
                assertArrayEquals(doubles(golden.get("covariances").get(k).get(i)), model.covariance(k)[i], GOLDEN,
                        "covariance of " + labels.get(k) + " row " + i);
            }
        }

        Discriminant discriminant = Discriminant.compile(model);
        JsonNode goldenRows = golden.get("rows");
        assertEquals(rows.size(), goldenRows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode expected = goldenRows.get(i);
            double[] x = select(rows.get(i).x(), columns);
            assertArrayEquals(doubles(expected.get("x")), x, 0.0);
            Posterior p = discriminant.score(x);
            for (int k = 0; k < labels.size(); k++) {
                assertEquals(expected.get("probabilities").get(labels.get(k)).doubleValue(), p.probabilities()[k],
                        GOLDEN, "row " + i + " p(" + labels.get(k) + ")");
            }
            assertEquals(expected.get("logDensity").doubleValue(), p.logDensity(), GOLDEN, "row " + i + " logDensity");
        }
    }

    @Test
    void shouldReproduceTheKnownIrisMeansOnTheFirstTwoFeatures() throws IOException {
        GaussianModel model = GaussianModel.fit(summaries(Iris.rows(), new int[] {0, 1}), FitOptions.defaults());
        double[][] means = model.means();
        assertArrayEquals(new double[] {5.006, 3.428}, means[0], GOLDEN);
        assertArrayEquals(new double[] {5.936, 2.770}, means[1], GOLDEN);
        assertArrayEquals(new double[] {6.588, 2.974}, means[2], GOLDEN);
        assertEquals(List.of("setosa", "versicolor", "virginica"), model.labels());
    }
}
