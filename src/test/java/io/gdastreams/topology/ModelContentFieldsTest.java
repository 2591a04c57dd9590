package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every field a scorer or a reader of the lineage uses tells two records of one version apart, and the difference
 * names it: the scorer logs it when it refuses a conflicting version, the only clue to which publisher went wrong.
 */
class ModelContentFieldsTest {

    private static final List<String> FEATURES = List.of("x", "y");
    private static final Map<String, Long> SOURCES = Map.of("0", 7L, "1", 3L);

    private static ClassParameters cls(String label, long count, double prior, double meanX, double covXY,
                                       Double weight) {
        return new ClassParameters(label, count, prior, new double[] {meanX, 0},
                new double[][] {{1, covXY}, {covXY, 1}}, weight, weight == null ? null : weight - 1);
    }

    private static List<ClassParameters> classes() {
        return List.of(cls("a", 4, 0.4, 1, 0.25, null), cls("b", 6, 0.6, 2, 0.5, null));
    }

    private static ModelParameters model(List<String> features, long total, long retracted, long generation,
                                         long dropped, long leftOut, Map<String, Long> sources,
                                         List<ClassParameters> classes) {
        return new ModelParameters("m", 5, features, total, classes, sources, "2026-01-01T00:00:00Z", "t", List.of(),
                retracted, generation, dropped, leftOut);
    }

    private static final ModelParameters BASE = model(FEATURES, 10, 1, 2, 3, 4, SOURCES, classes());

    private static void assertNamed(String field, ModelParameters other) {
        String difference = ModelContent.difference(BASE, other);
        assertNotNull(difference, field);
        assertTrue(difference.contains(field), "'" + field + "' in '" + difference + "'");
    }

    @Test
    void shouldFindNoDifferenceBetweenEqualContentsPublishedAtDifferentTimes() {
        ModelParameters again = new ModelParameters("m", 5, List.copyOf(FEATURES), 10, classes(), Map.copyOf(SOURCES),
                "2026-06-01T00:00:00Z", "t", List.of(), 1, 2, 3, 4);
        assertNull(ModelContent.difference(BASE, again));
    }

    @Test
    void shouldNameTheFirstDifferingFieldOfTheModel() {
        assertNamed("features", model(List.of("x", "z"), 10, 1, 2, 3, 4, SOURCES, classes()));
        assertNamed("totalCount", model(FEATURES, 11, 1, 2, 3, 4, SOURCES, classes()));
        assertNamed("retracted", model(FEATURES, 10, 0, 2, 3, 4, SOURCES, classes()));
        assertNamed("reset", model(FEATURES, 10, 1, 1, 3, 4, SOURCES, classes()));
        assertNamed("reset", model(FEATURES, 10, 1, 2, 0, 4, SOURCES, classes()));
        assertNamed("leftOut", model(FEATURES, 10, 1, 2, 3, 0, SOURCES, classes()));
        assertNamed("sources", model(FEATURES, 10, 1, 2, 3, 4, Map.of("0", 8L, "1", 3L), classes()));
    }

    @Test
    void shouldNameTheClassAndFieldThatDiffer() {
        ClassParameters a = classes().get(0);
        List<List<ClassParameters>> variants = List.of(
                List.of(a),
                List.of(a, cls("c", 6, 0.6, 2, 0.5, null)),
                List.of(a, cls("b", 5, 0.6, 2, 0.5, null)),
                List.of(a, cls("b", 6, 0.61, 2, 0.5, null)),
                List.of(a, cls("b", 6, 0.6, 2.5, 0.5, null)),
                List.of(a, cls("b", 6, 0.6, 2, 0.49, null)),
                List.of(a, cls("b", 6, 0.6, 2, 0.5, 5.5)));
        List<String> named = List.of("2 classes vs 1", "class 1 is 'b' vs 'c'", "class 'b': count",
                "class 'b': prior", "class 'b': mean", "class 'b': covariance", "class 'b': weights");
        for (int v = 0; v < variants.size(); v++) {
            assertNamed(named.get(v), model(FEATURES, 10, 1, 2, 3, 4, SOURCES, variants.get(v)));
        }
    }
}
