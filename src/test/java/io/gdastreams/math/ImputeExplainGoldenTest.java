package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gdastreams.fixtures.Iris;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Imputation ({@link Discriminant#impute}) and explanations ({@link Discriminant#explain}) on Iris with cells blanked
 * in every pattern (none, one, two, three, four features missing), for full, tied and diag, mle and unbiased, with
 * and without shrinkage, against the numpy reference of
 * src/test/resources/fixtures/impute_explain/make_impute_explain.py (impute_explain_golden.json).
 */
class ImputeExplainGoldenTest {

    /** Agreement with numpy, absolute, or relative for values above 1 in magnitude. */
    private static final double GOLDEN = 1e-9;
    private static final int PATTERNS = 16;

    static Stream<JsonNode> cases() throws IOException {
        try (InputStream in = ImputeExplainGoldenTest.class
                .getResourceAsStream("/fixtures/impute_explain/impute_explain_golden.json")) {
            JsonNode root = new ObjectMapper().readTree(in);
            assertEquals(Iris.FEATURES, names(root.get("features")));
            List<JsonNode> cases = new ArrayList<>();
            root.get("cases").forEach(cases::add);
            assertEquals(12, cases.size());
            return cases.stream();
        }
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Largest |expected − actual| / max(1, |expected|) of the running case, printed with it. */
    private double worst;

    private void assertClose(double expected, double actual, String what) {
        worst = Math.max(worst, Math.abs(expected - actual) / Math.max(1.0, Math.abs(expected)));
        assertEquals(expected, actual, GOLDEN * Math.max(1.0, Math.abs(expected)), what);
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("cases")
    void shouldMatchTheNumpyConditionalMeansAndPerClassTerms(JsonNode golden) throws IOException {
        FitOptions options = FitOptions.defaults()
                .withCovarianceType(CovarianceType.valueOf(golden.get("covarianceType").asText().toUpperCase(Locale.ROOT)))
                .withEstimator(Estimator.valueOf(golden.get("estimator").asText().toUpperCase(Locale.ROOT)))
                .withRegParam(golden.get("regParam").asDouble());
        GaussianModel model = GaussianModel.fit(IrisGoldenTest.summaries(Iris.rows(), new int[] {0, 1, 2, 3}),
                options);
        Discriminant discriminant = Discriminant.compile(model);
        JsonNode points = golden.get("points");
        assertEquals(10 * PATTERNS, points.size());
        int imputedValues = 0;
        for (JsonNode point : points) {
            double[] x = new double[4];
            for (int j = 0; j < 4; j++) {
                JsonNode v = point.get("x").get(j);
                x[j] = v.isNull() ? Double.NaN : v.doubleValue();
            }
            String where = golden.get("covarianceType").asText() + "/" + golden.get("estimator").asText() + "/r="
                    + golden.get("regParam").asDouble() + " row " + point.get("row").asInt() + " missing "
                    + point.get("missing");

            Evidence evidence = discriminant.explain(x);
            Posterior posterior = discriminant.score(x);
            assertEquals(4 - point.get("missing").size(), evidence.observed(), where);
            for (int k = 0; k < 3; k++) {
                assertClose(point.get("probabilities").get(k).doubleValue(), posterior.probabilities()[k],
                        where + " p" + k);
                assertEquals(posterior.probabilities()[k], evidence.posterior().probabilities()[k], 0.0, where);
                assertClose(point.get("logPriors").get(k).doubleValue(), evidence.logPriors()[k], where + " logPrior");
                assertClose(point.get("logLikelihoods").get(k).doubleValue(), evidence.logLikelihoods()[k],
                        where + " logLikelihood " + k);
                assertClose(point.get("mahalanobis").get(k).doubleValue(), evidence.squaredDistances()[k],
                        where + " mahalanobis " + k);
            }
            assertClose(point.get("logDensity").doubleValue(), posterior.logDensity(), where + " logDensity");
            assertEquals(posterior.logDensity(), evidence.posterior().logDensity(), 0.0, where);
            assertClose(point.get("tailProbability").doubleValue(), evidence.tailProbability(), where + " tail");

            double[] completed = discriminant.impute(x, posterior);
            for (int j = 0; j < 4; j++) {
                JsonNode expected = point.get("imputed").get(Integer.toString(j));
                if (expected == null) {
                    assertEquals(x[j], completed[j], 0.0, where + " observed " + j + " copied");
                } else {
                    assertClose(expected.doubleValue(), completed[j], where + " imputed " + j);
                    imputedValues++;
                }
            }
        }
        // 10 rows × (4 patterns of one, 6 of two, 4 of three, 1 of four missing) = 10 × 32 imputed cells.
        assertEquals(320, imputedValues);
        System.out.printf("%s/%s/r=%s: largest difference from numpy %.2e%n", golden.get("covarianceType").asText(),
                golden.get("estimator").asText(), golden.get("regParam").asDouble(), worst);
        assertTrue(discriminant.cachedPatterns() <= PATTERNS);
    }
}
