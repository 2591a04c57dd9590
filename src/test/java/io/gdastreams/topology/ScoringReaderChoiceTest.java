package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scorer reads an event with its fast reader only when neither the scorer nor the model has categorical
 * features: the reader knows the model's continuous features alone, and the model's categorical part or the scorer's
 * gda.categorical.features must go through the decoder. Classes a ~ N(0, 1) and b ~ N(2, 1), equal priors.
 */
class ScoringReaderChoiceTest {

    private static final double CLOSE = 1e-12;

    @TempDir
    Path stateDir;

    private static List<ClassParameters> classes() {
        return List.of(new ClassParameters("a", 4, 0.5, new double[] {0}, new double[][] {{1}}),
                new ClassParameters("b", 4, 0.5, new double[] {2}, new double[][] {{1}}));
    }

    private static ModelParameters model(List<CategoricalTable> categorical) {
        return new ModelParameters("m", 1, List.of("x"), 8, classes(), Map.of("0", 8L), "2026-01-01T00:00:00Z", "t",
                categorical);
    }

    /** The standard normal density at {@code z}. */
    private static double phi(double z) {
        return Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
    }

    /** A model with a colour table, a scorer configured with no categorical feature, an event without colour. */
    @Test
    void shouldScoreAnEventWithoutCategoricalValuesUnderACategoricalModelOnAScorerWithoutThem() {
        ModelParameters categorical = model(List.of(new CategoricalTable("colour", List.of("blue", "red"),
                List.of(new long[] {1, 3}, new long[] {4, 0}))));
        try (ScoringHarness harness = new ScoringHarness(ScoringSettings.defaults("m"), stateDir)) {
            harness.publish(categorical);
            harness.send("k", "{\"features\":{\"x\":0}}".getBytes(StandardCharsets.UTF_8));
            List<Prediction> out = harness.predictions().stream().map(kv -> kv.value).toList();
            assertEquals(1, out.size(), out.toString());
            Prediction p = out.get(0);
            assertEquals(Prediction.Status.SCORED, p.status(), p.reason());
            // colour is missing: marginalised, the posterior is the Gaussians' at x = 0 (0 and 2 from the means).
            assertEquals(phi(0) / (phi(0) + phi(2)), p.probabilities().get("a"), CLOSE);
            assertEquals(Math.log(0.5 * phi(0) + 0.5 * phi(2)), p.logDensity(), CLOSE);
            assertTrue(harness.deadLetters().isEmpty());
        }
    }

    /**
     * A Gaussian model whose feature x the scorer names categorical: the scorer's settings and the model disagree,
     * and the decoder refuses x given as a number, as it would under any model; the reader would have scored it.
     */
    @Test
    void shouldRefuseAFeatureTheScorerNamesCategoricalUnderAGaussianModel() {
        ScoringSettings settings = ScoringSettings.defaults("m").withCategorical(CategoricalSettings.NONE
                .withFeatures(List.of("x")));
        try (ScoringHarness harness = new ScoringHarness(settings, stateDir)) {
            harness.publish(model(List.of()));
            harness.send("k", "{\"features\":{\"x\":0}}".getBytes(StandardCharsets.UTF_8));
            List<Prediction> out = harness.predictions().stream().map(kv -> kv.value).toList();
            assertEquals(1, out.size(), out.toString());
            assertEquals(Prediction.Status.UNSCORED, out.get(0).status(), out.get(0).toString());
            assertTrue(out.get(0).reason().startsWith("invalid event: feature 'x' is categorical"),
                    out.get(0).reason());
            List<DeadLetter> letters = harness.deadLetters();
            assertEquals(1, letters.size(), "an invalid event is set aside");
            assertEquals(out.get(0).reason(), letters.get(0).reason());
        }
    }
}
