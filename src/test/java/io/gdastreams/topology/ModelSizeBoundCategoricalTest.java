package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The category tables count towards the model size bound: a worst-case model of the bound's class count fits. */
class ModelSizeBoundCategoricalTest {

    private static final double LONGEST_DOUBLE = -2.2250738585072014E-308;

    @Test
    void shouldKeepAWorstCaseModelWithCategoryTablesWithinTheLimit() {
        int d = 8;
        int maxValues = 64;
        List<String> features = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            features.add("feature-" + j);
        }
        List<String> categorical = List.of("c\u2028".repeat(40), "d\u2028".repeat(40), "e\u2028".repeat(40));
        long limit = 4L * 1024 * 1024;
        long k = ModelSizeBound.maxClasses(features, categorical, maxValues, limit);
        assertTrue(k >= 10, "room for " + k + " classes");
        assertTrue(k < ModelSizeBound.maxClasses(features, limit), "the tables take room");
        double[] mean = new double[d];
        double[][] covariance = new double[d][d];
        Arrays.fill(mean, LONGEST_DOUBLE);
        for (double[] row : covariance) {
            Arrays.fill(row, LONGEST_DOUBLE);
        }
        List<ClassParameters> classes = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            classes.add(new ClassParameters(c + "\u2028".repeat(255), Long.MAX_VALUE, LONGEST_DOUBLE, mean,
                    covariance));
        }
        List<CategoricalTable> tables = new ArrayList<>();
        for (String name : categorical) {
            List<String> values = new ArrayList<>();
            for (int v = 0; v < maxValues; v++) {
                // The longest value the decoder accepts (256 characters), each escaped as \\uXXXX.
                values.add(String.format("%03d", v) + "\u2028".repeat(253));
            }
            List<long[]> counts = new ArrayList<>();
            List<double[]> weights = new ArrayList<>(); // a weighted table: a weight beside every count
            for (int c = 0; c < k; c++) {
                long[] row = new long[maxValues];
                Arrays.fill(row, Long.MAX_VALUE);
                counts.add(row);
                double[] weightRow = new double[maxValues];
                Arrays.fill(weightRow, LONGEST_DOUBLE);
                weights.add(weightRow);
            }
            tables.add(new CategoricalTable(name, values, counts, weights));
        }
        Map<String, Long> sources = new HashMap<>();
        for (int p = 0; p < 1000; p++) {
            sources.put(Integer.toString(p), Long.MAX_VALUE);
        }
        ModelParameters model = new ModelParameters("m".repeat(200), Long.MAX_VALUE, features, Long.MAX_VALUE,
                classes, sources, Instant.now().toString(), "a".repeat(200), tables);

        int bytes = SerdeFactory.model().serializer().serialize(null, model).length;

        assertTrue(bytes <= limit, bytes + " bytes for " + k + " worst-case classes, limit " + limit);
        assertTrue(bytes > limit / 2, "the bound is not loose beyond a factor 2: " + bytes);
    }
}
