package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fixed priors replace the learned ones; a class they do not list is left out with the reason. */
class FixedPriorsTest {

    private static final double HAND = 1e-15;

    private static ClassSummary summary(String label, double... xs) {
        RunningGaussian g = new RunningGaussian(1);
        for (double x : xs) {
            g.update(new double[] {x});
        }
        return ClassSummary.of(label, g);
    }

    private static Map<String, Double> priors(Object... labelsAndPriors) {
        Map<String, Double> map = new LinkedHashMap<>();
        for (int i = 0; i < labelsAndPriors.length; i += 2) {
            map.put((String) labelsAndPriors[i], (Double) labelsAndPriors[i + 1]);
        }
        return map;
    }

    @Test
    void fixedPriorsReplaceTheLearnedOnes() {
        List<ClassSummary> classes = List.of(summary("a", 0, 1, 2), summary("b", 5, 6));
        GaussianModel learned = GaussianModel.fit(classes, FitOptions.defaults());
        assertArrayEquals(new double[] {0.6, 0.4}, learned.priors(), HAND);
        GaussianModel fixed = GaussianModel.fit(classes,
                FitOptions.defaults().withFixedPriors(priors("b", 0.9, "a", 0.1)));
        assertArrayEquals(new double[] {0.1, 0.9}, fixed.priors(), HAND);
        assertEquals(learned.covariance(0)[0][0], fixed.covariance(0)[0][0], "only the priors change");
    }

    @Test
    void aClassNotListedIsLeftOutAndThePriorsRenormalised() {
        List<ClassSummary> classes = List.of(summary("a", 0, 1, 2), summary("b", 5, 6), summary("c", 9));
        // c is listed but below the minimum count of 2: a and b share what is left, 0.2 : 0.6.
        GaussianModel model = GaussianModel.fit(List.of(classes.get(0), classes.get(1), classes.get(2),
                summary("d", 3, 4)), FitOptions.defaults().withFixedPriors(priors("a", 0.2, "b", 0.6, "c", 0.2)));
        assertEquals(List.of("a", "b"), model.labels());
        assertArrayEquals(new double[] {0.25, 0.75}, model.priors(), HAND);
        assertEquals(List.of(new Exclusion("c", "count 1 below minimum 2"),
                new Exclusion("d", "no fixed prior (the fixed priors list [a, b, c])")), model.excluded());
    }

    @Test
    void fixedPriorsMustBeProbabilitiesSummingToOne() {
        assertEquals("fixed priors must sum to 1, got 0.9", assertThrows(IllegalArgumentException.class,
                () -> FitOptions.defaults().withFixedPriors(priors("a", 0.5, "b", 0.4))).getMessage());
        assertEquals("fixed prior of 'a' must be in (0, 1], got 0.0", assertThrows(IllegalArgumentException.class,
                () -> FitOptions.defaults().withFixedPriors(priors("a", 0.0, "b", 1.0))).getMessage());
    }
}
