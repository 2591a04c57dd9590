package io.gdastreams.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.math.RunningGaussian;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A model built from class statistics, as a trainer publishes it. */
class ModelParametersTest {

    private static final double EXACT = 0.0;

    @Test
    void shouldPublishCountPriorMeanAndMleCovarianceOfEachClassInTheGivenOrder() {
        RunningGaussian y = new RunningGaussian(2);
        y.update(new double[] {0, 0});
        RunningGaussian x = new RunningGaussian(2);
        x.update(new double[] {1, 2});
        x.update(new double[] {3, 6});
        x.update(new double[] {5, 4});
        Map<String, RunningGaussian> classes = new LinkedHashMap<>();
        classes.put("y", y);
        classes.put("x", x);

        ModelParameters model = ModelParameters.ofStatistics("m", 3, List.of("a", "b"), classes, Map.of("0", 4L),
                "2026-01-01T00:00:00Z", "trainer-1");

        assertEquals(4, model.totalCount());
        assertEquals(List.of("y", "x"), model.classes().stream().map(ClassParameters::label).toList());
        ClassParameters second = model.classes().get(1);
        assertEquals(3, second.count());
        assertEquals(0.75, second.prior(), EXACT);
        assertEquals(0.25, model.classes().get(0).prior(), EXACT);
        // (1,2), (3,6), (5,4): mean (3,4), S = [[8, 4], [4, 8]], MLE S/3 (by hand).
        assertArrayEquals(new double[] {3, 4}, second.mean(), EXACT);
        assertArrayEquals(new double[] {8.0 / 3, 4.0 / 3}, second.covariance()[0], EXACT);
        assertArrayEquals(new double[] {4.0 / 3, 8.0 / 3}, second.covariance()[1], EXACT);
        assertEquals(new ModelParameters("m", 3, List.of("a", "b"), 4, model.classes(), Map.of("0", 4L),
                "2026-01-01T00:00:00Z", "trainer-1"), model);
        assertEquals(3, x.count(), "the statistics are not modified");
    }
}
