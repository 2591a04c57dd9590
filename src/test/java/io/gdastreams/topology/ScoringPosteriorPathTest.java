package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.PosteriorWriter;
import io.gdastreams.serde.PredictionWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The scorer's common path ({@link ScoringOutcome.ScoredPosterior}, written by {@link PosteriorWriter}) against the
 * general one ({@link CompiledModel#score(String, Map, Map, OptionalDouble, PredictionExtras)}, which builds the
 * {@link Prediction} record that {@link PredictionWriter} writes): the same record and the same bytes for every Iris
 * row, under a model with an excluded class, with and without an outlier threshold and with missing features when
 * imputation is off; and the shapes the common path must leave to the general one do not take it.
 */
class ScoringPosteriorPathTest {

    private static final PredictionExtras NOT_IMPUTED = new PredictionExtras(false, false, OptionalDouble.empty());

    /** Setosa and versicolor in full, one virginica row: virginica is excluded (count 1 below minimum 2). */
    private static List<LabelledRow> rowsWithAnExcludedClass() {
        List<LabelledRow> rows = new ArrayList<>();
        boolean virginica = false;
        for (LabelledRow row : Iris.rows()) {
            if (!row.label().equals("virginica") || !virginica) {
                rows.add(row);
                virginica |= row.label().equals("virginica");
            }
        }
        return rows;
    }

    @Test
    void shouldGiveTheGeneralPathsRecordAndBytesForEveryRow() {
        for (List<LabelledRow> rows : List.of(Iris.rows(), rowsWithAnExcludedClass())) {
            CompiledModel model = CompiledModel.compile(ScoringFixtures.model(3, rows, Iris.FEATURES),
                    FitOptions.defaults(), ScoringSettings.MAX_OUTPUT_TOP_K, new DecisionRule.MostProbable(), 1.0);
            PosteriorWriter writer = new PosteriorWriter();
            int compared = 0;
            for (OptionalDouble threshold : List.of(OptionalDouble.empty(), OptionalDouble.of(-2.0))) {
                for (LabelledRow row : Iris.rows()) {
                    for (int missing = -1; missing < Iris.FEATURES.size(); missing++) {
                        double[] x = row.x().clone();
                        PredictionExtras extras = PredictionExtras.DEFAULTS;
                        if (missing >= 0) {
                            x[missing] = Double.NaN;
                            extras = NOT_IMPUTED;
                        }
                        Map<String, Double> features = new java.util.LinkedHashMap<>(row.features(Iris.FEATURES));
                        if (missing >= 0) {
                            features.remove(Iris.FEATURES.get(missing));
                        }
                        String id = "row-" + compared;
                        ScoringOutcome.Answer fast = model.score(id, x, features.size(), threshold, extras);
                        ScoringOutcome.Answer general = model.score(id, features, Map.of(), threshold, extras);
                        ScoredPosteriorCheck.same(general, fast, writer);
                        compared++;
                    }
                }
            }
            assertEquals(2 * 150 * 5, compared);
        }
        assertTrue(CompiledModel.compile(ScoringFixtures.model(3, rowsWithAnExcludedClass(), Iris.FEATURES),
                FitOptions.defaults(), 10, new DecisionRule.MostProbable(), 1.0)
                .score("e", Iris.rows().get(0).x(), 4, OptionalDouble.empty(), PredictionExtras.DEFAULTS)
                .prediction().excluded().containsKey("virginica"));
    }

    @Test
    void shouldLeaveTheOtherShapesToTheGeneralPath() {
        double[] x = Iris.rows().get(0).x();
        double[] partial = x.clone();
        partial[2] = Double.NaN;
        PredictionExtras explain = new PredictionExtras(true, true, OptionalDouble.empty());
        PredictionExtras pTest = new PredictionExtras(false, false, OptionalDouble.of(0.01));
        CompiledModel all = compiled(10, new DecisionRule.MostProbable());
        // Imputed values, an explanation, a tail-probability test.
        assertInstanceOf(ScoringOutcome.Scored.class, all.score("e", partial, 3, OptionalDouble.empty(),
                PredictionExtras.DEFAULTS));
        assertInstanceOf(ScoringOutcome.Scored.class, all.score("e", x, 4, OptionalDouble.empty(), explain));
        assertInstanceOf(ScoringOutcome.Scored.class, all.score("e", x, 4, OptionalDouble.empty(), pTest));
        // Fewer classes listed than scored; a decision rule the prediction states.
        assertInstanceOf(ScoringOutcome.Scored.class, compiled(2, new DecisionRule.MostProbable())
                .score("e", x, 4, OptionalDouble.empty(), PredictionExtras.DEFAULTS));
        assertInstanceOf(ScoringOutcome.Scored.class, compiled(10, new DecisionRule.Threshold("virginica", 0.2))
                .score("e", x, 4, OptionalDouble.empty(), PredictionExtras.DEFAULTS));
        // The default shape takes it.
        assertInstanceOf(ScoringOutcome.ScoredPosterior.class, all.score("e", x, 4, OptionalDouble.empty(),
                PredictionExtras.DEFAULTS));
    }

    private static CompiledModel compiled(int listed, DecisionRule rule) {
        return CompiledModel.compile(ScoringFixtures.irisModel(1), FitOptions.defaults(), listed, rule, 1.0);
    }

    /** The comparison of a general answer with a common-path one. */
    private static final class ScoredPosteriorCheck {

        static void same(ScoringOutcome.Answer general, ScoringOutcome.Answer fast, PosteriorWriter writer) {
            assertInstanceOf(ScoringOutcome.Scored.class, general);
            ScoringOutcome.ScoredPosterior posterior = assertInstanceOf(ScoringOutcome.ScoredPosterior.class, fast);
            assertEquals(general.prediction(), posterior.prediction());
            assertEquals(Prediction.Status.SCORED, posterior.status());
            assertArrayEquals(PredictionWriter.toBytes(general.prediction()), posterior.write(writer));
        }
    }
}
