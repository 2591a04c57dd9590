package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Categorical imputation on the credit-default data (src/test/resources/fixtures/default) with {@code student}
 * categorical: the model trained through the training topology, events scored by the scorer's compiled model with
 * student, balance, income or several of them missing (or student of a value never seen), full and diag covariance,
 * α = 1. The posteriors, log densities and imputed balance/income equal the numpy reference
 * (make_categorical_impute_reference.py) to 1e-9 (relative above 1 in magnitude), the imputed student exactly. On
 * the data without the non-student defaulters the imputed student is "Yes" for some events and "No" for others, so
 * the argmax over Σ_k p(k | x_o) θ_k is what is checked, not a constant. The same through {@code replay} on a
 * broker: cli.CategoricalImputeReplayIT.
 */
class DefaultCategoricalImputeTest {

    private static final Path FIXTURES = DefaultDataset.FIXTURES;
    /** float64 reference against Welford/Chan statistics and a JSON model; relative above 1 in magnitude. */
    static final double TOLERANCE = 1e-9;

    private static List<String[]> rows;
    private static JsonNode reference;
    private static final Map<String, ModelParameters> MODELS = new HashMap<>();

    @TempDir
    static Path stateDir;

    @BeforeAll
    static void train() throws IOException {
        rows = DefaultDataset.rows();
        reference = Json.mapper().readTree(FIXTURES.resolve("categorical_impute_reference.json").toFile());
        MODELS.put("all", train(i -> true, "all"));
        MODELS.put("no-nonstudent-defaulters", train(i -> !(rows.get(i)[0].equals("Yes")
                && rows.get(i)[1].equals("No")), "subset"));
    }

    private static ModelParameters train(IntPredicate include, String dir) {
        return DefaultDataset.train(rows, include, stateDir.resolve(dir));
    }

    /** |expected − actual| within {@link #TOLERANCE}, relative to |expected| when that is above 1. */
    static double error(double expected, double actual) {
        return Math.abs(expected - actual) / Math.max(1.0, Math.abs(expected));
    }

    /**
     * Asserts one scored prediction against a reference point: posterior, log density, imputed continuous values,
     * imputed and unseen student. Returns the largest error.
     */
    static double assertPoint(JsonNode point, Prediction p) {
        assertEquals(Prediction.Status.SCORED, p.status(), p.reason());
        double worst = 0;
        for (String label : List.of("No", "Yes")) {
            worst = Math.max(worst, error(point.get("probabilities").get(label).asDouble(),
                    p.probabilities().get(label)));
        }
        worst = Math.max(worst, error(point.get("logDensity").asDouble(), p.logDensity()));
        JsonNode imputed = point.get("imputed");
        if (imputed.isEmpty()) {
            assertNull(p.imputed(), point.toString());
        } else {
            assertEquals(imputed.size(), p.imputed().size(), point + " vs " + p);
            for (var e : imputed.properties()) {
                worst = Math.max(worst, error(e.getValue().asDouble(), p.imputed().get(e.getKey())));
            }
        }
        assertTrue(worst <= TOLERANCE, point + " vs " + p);
        if (point.has("imputedStudent")) {
            assertEquals(Map.of("student", point.get("imputedStudent").asText()), p.imputedCategories(),
                    point.toString());
        } else {
            assertNull(p.imputedCategories(), point.toString());
        }
        assertNull(p.otherImputedCategories());
        String student = point.get("student").isNull() ? null : point.get("student").asText();
        if ("Maybe".equals(student)) {
            assertEquals(Map.of("student", "Maybe"), p.unseenValues(), "an unseen value stays named: " + p);
        }
        return worst;
    }

    private static double assertCase(JsonNode c) {
        ModelParameters model = MODELS.get(c.get("name").asText().replaceFirst("-(full|diag)$", ""));
        assertEquals(c.get("trainRows").asLong(), model.totalCount());
        FitOptions options = FitOptions.defaults().withCovarianceType(CovarianceType.valueOf(
                c.get("covarianceType").asText().toUpperCase(java.util.Locale.ROOT)));
        CompiledModel compiled = CompiledModel.compile(model, options, 2, new DecisionRule.MostProbable(),
                c.get("alpha").asDouble());
        double worst = 0;
        for (JsonNode point : c.get("points")) {
            String[] cells = rows.get(point.get("row").asInt() - 1);
            Map<String, Double> numbers = new HashMap<>();
            List<String> missing = java.util.stream.StreamSupport.stream(point.get("missing").spliterator(), false)
                    .map(JsonNode::asText).toList();
            if (!missing.contains("balance")) {
                numbers.put("balance", Double.parseDouble(cells[2]));
            }
            if (!missing.contains("income")) {
                numbers.put("income", Double.parseDouble(cells[3]));
            }
            Map<String, String> categories = point.get("student").isNull() ? Map.of()
                    : Map.of("student", point.get("student").asText());
            Prediction p = compiled.score("r", numbers, categories, OptionalDouble.empty(), PredictionExtras.DEFAULTS)
                    .prediction();
            worst = Math.max(worst, assertPoint(point, p));
        }
        return worst;
    }

    @Test
    void shouldEqualTheNumpyReferenceForEveryMissingPattern() {
        for (JsonNode c : reference.get("cases")) {
            double worst = assertCase(c);
            System.out.printf("categorical imputation vs numpy (%s): largest error %.3g over %d events%n",
                    c.get("name").asText(), worst, c.get("points").size());
        }
    }

    @Test
    void theReferenceShouldImputeBothValuesWhereTheDataSaySo() {
        for (JsonNode c : reference.get("cases")) {
            long yes = 0;
            long no = 0;
            for (JsonNode point : c.get("points")) {
                if (point.has("imputedStudent")) {
                    yes += point.get("imputedStudent").asText().equals("Yes") ? 1 : 0;
                    no += point.get("imputedStudent").asText().equals("No") ? 1 : 0;
                }
            }
            assertTrue(no > 0, c.get("name").asText());
            assertTrue(c.get("name").asText().startsWith("all-") == (yes == 0), c.get("name") + ": " + yes);
        }
    }

    /** {@code gda.output.imputed=false}: neither map. */
    @Test
    void shouldImputeNothingWhenImputationIsOff() {
        CompiledModel compiled = CompiledModel.compile(MODELS.get("all"), FitOptions.defaults(), 2,
                new DecisionRule.MostProbable(), 1.0);
        Prediction p = compiled.score("r", Map.of("balance", 1500.0), Map.of(), OptionalDouble.empty(),
                new PredictionExtras(false, false, OptionalDouble.empty())).prediction();
        assertNull(p.imputed());
        assertNull(p.imputedCategories());
    }
}
