package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Gaussian–categorical model on the credit-default data (src/test/resources/fixtures/default) through the
 * training topology and the scorer's compiled model, against the checked-in references: e1071's naiveBayes
 * (make_naive_bayes_reference.R) for diag/unbiased at α = 0 and 1, and numpy (make_gaussian_categorical_reference.py)
 * for full/mle. Where they match and where not: e1071 uses class frequencies as priors, sd with n − 1 and
 * (n_kv + laplace)/(n_k + laplace·nlevels), as gda-streams does; its predict replaces a probability ≤ eps (0) by
 * threshold (0.001), which gda-streams deliberately never does (an unseen pair at α = 0 has probability 0). The
 * unseen-pair case's R reference is therefore made with threshold = the smallest normal double (not 0, which makes
 * predict return NaN). The real-broker run of the same comparison through {@code replay} is cli.DefaultReplayIT.
 */
class DefaultCategoricalParityTest {

    private static final Path FIXTURES = DefaultDataset.FIXTURES;
    /** Posteriors and log densities of float64 references, after Welford/Chan statistics and a JSON model. */
    private static final double TOLERANCE = 1e-9;

    private static List<String[]> rows;
    private static JsonNode r;
    private static JsonNode numpy;
    private static ModelParameters all;
    private static ModelParameters withoutDefaultingStudents;

    @TempDir
    static Path stateDir;

    @BeforeAll
    static void train() throws IOException {
        rows = DefaultDataset.rows();
        r = Json.mapper().readTree(FIXTURES.resolve("naive_bayes_reference.json").toFile());
        numpy = Json.mapper().readTree(FIXTURES.resolve("gaussian_categorical_reference.json").toFile());
        all = train(i -> true, "all");
        withoutDefaultingStudents = train(i -> !(rows.get(i)[0].equals("Yes") && rows.get(i)[1].equals("Yes")),
                "unseen");
    }

    private static ModelParameters train(IntPredicate include, String dir) {
        return DefaultDataset.train(rows, include, stateDir.resolve(dir));
    }

    private static JsonNode referenceCase(JsonNode reference, String name) {
        for (JsonNode c : reference.get("cases")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no reference case " + name);
    }

    /** Largest error over the case's rows; asserts each row within {@link #TOLERANCE}. */
    private static double assertMatches(ModelParameters model, CovarianceType covariance, Estimator estimator,
                                        double alpha, JsonNode expected) {
        assertEquals(expected.get("trainRows").asLong(), model.totalCount());
        FitOptions options = FitOptions.defaults().withCovarianceType(covariance).withEstimator(estimator);
        CompiledModel compiled = CompiledModel.compile(model, options, 2, new DecisionRule.MostProbable(), alpha);
        double worst = 0;
        for (JsonNode row : expected.get("rows")) {
            String[] cells = rows.get(row.get("row").asInt() - 1);
            var answer = compiled.score("r", Map.of("balance", Double.parseDouble(cells[2]), "income",
                    Double.parseDouble(cells[3])), Map.of("student", cells[1]), OptionalDouble.empty(),
                    PredictionExtras.DEFAULTS);
            Prediction p = answer.prediction();
            assertEquals(Prediction.Status.SCORED, p.status(), p.reason());
            for (String label : List.of("No", "Yes")) {
                double error = Math.abs(row.get("probabilities").get(label).asDouble() - p.probabilities().get(label));
                assertTrue(error <= TOLERANCE, "row " + row + ": p(" + label + ") = " + p.probabilities().get(label));
                worst = Math.max(worst, error);
            }
            double error = Math.abs(row.get("logDensity").asDouble() - p.logDensity());
            assertTrue(error <= TOLERANCE, "row " + row + ": logDensity " + p.logDensity());
            worst = Math.max(worst, error);
        }
        return worst;
    }

    @Test
    void shouldCarryTheStudentCountsOfEachClass() {
        assertEquals(List.of("balance", "income"), all.features());
        assertEquals(List.of("student"), all.categoricalFeatures());
        assertEquals(List.of("No", "Yes"), all.categorical().get(0).values());
        // Hand counts of default.csv (awk): No/No 6917, No/Yes 2827, Yes/No 150, Yes/Yes 106.
        assertEquals(List.of(6917L, 2827L), List.of(all.categorical().get(0).counts().get(0)[0],
                all.categorical().get(0).counts().get(0)[1]));
        assertEquals(List.of(150L, 106L), List.of(all.categorical().get(0).counts().get(1)[0],
                all.categorical().get(0).counts().get(1)[1]));
    }

    @Test
    void shouldEqualE1071NaiveBayesAtLaplaceZeroAndOne() {
        double zero = assertMatches(all, CovarianceType.DIAG, Estimator.UNBIASED, 0.0, referenceCase(r, "all-laplace-0"));
        double one = assertMatches(all, CovarianceType.DIAG, Estimator.UNBIASED, 1.0, referenceCase(r, "all-laplace-1"));
        System.out.printf("e1071 parity: largest error %.3g (laplace 0), %.3g (laplace 1)%n", zero, one);
    }

    @Test
    void shouldEqualE1071WithAProbabilityZeroForAnUnseenPairAtLaplaceZero() {
        JsonNode expected = referenceCase(r, "unseen-pair-laplace-0");
        assertMatches(withoutDefaultingStudents, CovarianceType.DIAG, Estimator.UNBIASED, 0.0, expected);
        // Where e1071's default threshold (0.001 for a probability 0) answers differently, we answer 0.
        int i = 0;
        int differing = 0;
        for (JsonNode row : expected.get("rows")) {
            if (rows.get(row.get("row").asInt() - 1)[1].equals("Yes")) {
                assertEquals(0.0, row.get("probabilities").get("Yes").asDouble(), TOLERANCE);
                if (expected.get("pYesWithDefaultThreshold").get(i).asDouble() > TOLERANCE) {
                    differing++;
                }
            }
            i++;
        }
        assertTrue(differing > 0, "the deliberate difference shows on this data");
    }

    @Test
    void shouldEqualTheNumpyGaussianCategoricalReferenceWithFullCovariance() {
        double one = assertMatches(all, CovarianceType.FULL, Estimator.MLE, 1.0, referenceCase(numpy, "all-alpha-1"));
        double zero = assertMatches(all, CovarianceType.FULL, Estimator.MLE, 0.0, referenceCase(numpy, "all-alpha-0"));
        double unseen = assertMatches(withoutDefaultingStudents, CovarianceType.FULL, Estimator.MLE, 0.0,
                referenceCase(numpy, "unseen-pair-alpha-0"));
        System.out.printf("numpy parity: largest error %.3g (alpha 1), %.3g (alpha 0), %.3g (unseen pair)%n", one,
                zero, unseen);
    }
}
