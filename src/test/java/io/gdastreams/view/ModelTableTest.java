package io.gdastreams.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.math.Conditioning;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelTableTest {

    private static final double TOLERANCE = 1e-12;

    /** κ of diag(4, 1) is 4; rotating it keeps its eigenvalues; a rank-1 matrix is singular. */
    @Test
    void shouldComputeConditionNumbersOfHandMatrices() {
        assertEquals(4.0, Conditioning.conditionNumber(new double[][] {{4, 0}, {0, 1}}), TOLERANCE);
        // R diag(9, 1) Rᵀ with R the rotation by 45°: [[5, 4], [4, 5]], eigenvalues 9 and 1.
        assertEquals(9.0, Conditioning.conditionNumber(new double[][] {{5, 4}, {4, 5}}), TOLERANCE);
        assertEquals(Double.POSITIVE_INFINITY, Conditioning.conditionNumber(new double[][] {{1, 1}, {1, 1}}));
        assertEquals(1.0, Conditioning.conditionNumber(new double[][] {{2.5}}), TOLERANCE);
        assertEquals("∞", ModelTable.condition(new double[][] {{1, 1}, {1, 1}}));
        assertEquals("9.00", ModelTable.condition(new double[][] {{5, 4}, {4, 5}}));
    }

    @Test
    void shouldListLineageInPartitionOrderWithItsSum() {
        assertEquals("3 partitions, next offsets summing to 150: 0→50, 2→60, 10→40",
                ModelTable.lineage(Map.of("10", 40L, "0", 50L, "2", 60L)));
        assertEquals("(none)", ModelTable.lineage(Map.of()));
    }

    @Test
    void shouldSayHowOldTheModelIs() {
        Instant now = Instant.parse("2026-01-01T03:12:30Z");
        assertEquals(" (3 h 12 min ago)", ModelTable.age("2026-01-01T00:00:00Z", now));
        assertEquals(" (30 s ago)", ModelTable.age("2026-01-01T03:12:00Z", now));
        assertEquals("", ModelTable.age("yesterday", now));
    }

    /** Iris class means (Fisher's data: setosa 5.006, 3.428, 1.462, 0.246) and counts 50 each. */
    @Test
    void shouldPrintEveryClassWithCountPriorAndMean() {
        ModelParameters model = Iris.model("iris", 7, Iris.rows());
        String table = ModelTable.render(model, Instant.parse("2026-01-01T00:01:00Z"), FitOptions.defaults());
        assertTrue(table.contains("version:     7"), table);
        assertTrue(table.contains("published:   2026-01-01T00:00:00Z (1 min ago)"), table);
        assertTrue(table.lines().anyMatch(l -> l.matches("setosa\\s+50\\s+0\\.3333\\s+\\S+\\s+"
                + "\\[5\\.0060, 3\\.4280, 1\\.4620, 0\\.24600]")), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("virginica ")), table);
    }

    /**
     * A model of weighted (or forgetting) statistics shows each class's weight W and effective sample size W²/V,
     * which its prior and gda.min.count go by, beside the events counted; an unweighted class in it shows its count
     * in both. A model without weights has neither column.
     */
    @Test
    void shouldShowTheWeightsOfAWeightedModel() {
        ModelParameters iris = Iris.model("iris", 7, Iris.rows());
        List<ClassParameters> classes = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            ClassParameters c = iris.classes().get(k);
            classes.add(k == 1 ? new ClassParameters(c.label(), c.count(), c.prior(), c.mean(), c.covariance(),
                    12.5, 6.25) : k == 2 ? new ClassParameters(c.label(), 12_345, c.prior(), c.mean(), c.covariance(),
                    12_000.25, 11_000.0) : c);
        }
        ModelParameters weighted = new ModelParameters(iris.modelId(), iris.version(), iris.features(),
                iris.totalCount(), classes, iris.sources(), iris.updatedAt(), iris.trainer());
        String table = ModelTable.render(weighted, Instant.parse("2026-01-01T00:01:00Z"), FitOptions.defaults());
        assertTrue(table.lines().anyMatch(l -> l.matches("class\\s+count\\s+weight\\s+eff\\. n\\s+prior\\s+cond\\(Σ\\)"
                + "\\s+mean \\(.*")), table);
        assertTrue(table.lines().anyMatch(l -> l.matches("versicolor\\s+50\\s+12\\.5\\s+6\\.3\\s+0\\.3333\\s+.*")),
                table);
        assertTrue(table.lines().anyMatch(l -> l.matches("virginica\\s+12,345\\s+12,000\\.3\\s+11,000\\.0\\s+.*")),
                table);
        assertTrue(table.lines().anyMatch(l -> l.matches("setosa\\s+50\\s+50\\s+50\\s+0\\.3333\\s+.*")), table);
        String plain = ModelTable.render(iris, Instant.parse("2026-01-01T00:01:00Z"), FitOptions.defaults());
        assertFalse(plain.contains("weight"), plain);
    }

    /**
     * The scoring line fits the model as a scorer with the given options does: every class of Iris; none of a model
     * with one event per class (below gda.min.count 2: a scorer holds events for it); one left out of a model with a
     * single virginica; none under a minimum above every count.
     */
    @Test
    void shouldSayWhichClassesAScorerScoresUnderItsOptions() {
        List<LabelledRow> rows = Iris.rows();
        assertEquals("every class (full covariance, mle, gda.min.count 2)",
                ModelTable.scoring(Iris.model("iris", 7, rows), FitOptions.defaults()));
        assertEquals("no class (full covariance, mle, gda.min.count 2): setosa (count 1 below minimum 2); versicolor"
                + " (count 1 below minimum 2); virginica (count 1 below minimum 2); a scorer holds events until a"
                + " version that can score them", ModelTable.scoring(Iris.model("iris", 1,
                        List.of(rows.get(0), rows.get(50), rows.get(100))), FitOptions.defaults()));
        List<LabelledRow> oneVirginica = new ArrayList<>(rows.subList(0, 100));
        oneVirginica.add(rows.get(100));
        assertEquals("2 of 3 classes (diag covariance, unbiased, gda.min.count 2); left out: virginica (count 1 below"
                + " minimum 2)", ModelTable.scoring(Iris.model("iris", 2, oneVirginica), FitOptions.defaults()
                        .withCovarianceType(CovarianceType.DIAG).withEstimator(io.gdastreams.math.Estimator.UNBIASED)));
        assertTrue(ModelTable.scoring(Iris.model("iris", 7, rows), FitOptions.defaults().withMinCount(51))
                .startsWith("no class (full covariance, mle, gda.min.count 51): setosa (count 50 below minimum 51); "),
                "under a minimum above every count");
        String table = ModelTable.render(Iris.model("iris", 7, rows), Instant.parse("2026-01-01T00:01:00Z"),
                FitOptions.defaults());
        assertTrue(table.contains("\nscoring:     every class (full covariance, mle, gda.min.count 2)\n"), table);
    }

    /** The events line sums what the lineage applied when the classes do not hold it all (here a retraction). */
    @Test
    void shouldPrintTheEventsAppliedBeyondTheClasses() {
        ModelParameters iris = Iris.model("iris", 7, Iris.rows());
        ModelParameters model = new ModelParameters(iris.modelId(), iris.version(), iris.features(), iris.totalCount(),
                iris.classes(), iris.sources(), iris.updatedAt(), iris.trainer(), iris.categorical(), 2);
        String table = ModelTable.render(model, Instant.parse("2026-01-01T00:01:00Z"), FitOptions.defaults());
        assertTrue(table.contains("events:      150 (154 applied: 2 retractions and the events they removed)"), table);
    }

    /** Control characters and lone surrogates are shown escaped: a newline split the table, ESC drove the terminal. */
    @Test
    void shouldEscapeControlCharactersAndLoneSurrogates() {
        assertEquals("line1\\u000Aline2", ModelTable.printable("line1\nline2"));
        assertEquals("\\u001B[31mred", ModelTable.printable("\u001b[31mred"));
        assertEquals("a\\uD800b", ModelTable.printable("a\ud800b"));
        assertEquals("\\uDC00", ModelTable.printable("\udc00"));
        assertEquals("ü 😀 <b>", ModelTable.printable("ü 😀 <b>"), "printable text, pairs included, is kept");
        ModelParameters iris = Iris.model("iris\nv2", 7, Iris.rows());
        String table = ModelTable.render(iris, Instant.parse("2026-01-01T00:01:00Z"), FitOptions.defaults());
        assertTrue(table.startsWith("model:       iris\\u000Av2\n"), table);
    }
}
