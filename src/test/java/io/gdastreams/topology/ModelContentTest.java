package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two records of one version are one model only if everything a scorer uses is equal, the category tables too. */
class ModelContentTest {

    private static final double[][] UNIT = {{1}};

    private static ModelParameters model(String updatedAt, List<CategoricalTable> tables) {
        return new ModelParameters("m", 3, List.of("x"), 4,
                List.of(new ClassParameters("a", 2, 0.5, new double[] {0}, UNIT, null, null),
                        new ClassParameters("b", 2, 0.5, new double[] {1}, UNIT, null, null)),
                Map.of("0", 4L), updatedAt, "t", tables);
    }

    private static CategoricalTable colour(long redOfA) {
        return new CategoricalTable("colour", List.of("blue", "red"),
                List.of(new long[] {2 - redOfA, redOfA}, new long[] {1, 1}));
    }

    @Test
    void shouldTellApartRecordsThatDifferOnlyInTheirCategoryTables() {
        assertNull(ModelContent.difference(model("t1", List.of(colour(1))), model("t2", List.of(colour(1)))));
        assertEquals("categorical feature 'colour': counts differ",
                ModelContent.difference(model("t1", List.of(colour(1))), model("t1", List.of(colour(2)))));
        assertEquals("1 category tables vs 0",
                ModelContent.difference(model("t1", List.of(colour(1))), model("t1", null)));
        CategoricalTable weighted = new CategoricalTable("colour", List.of("blue", "red"),
                List.of(new long[] {1, 1}, new long[] {1, 1}), List.of(new double[] {1, 0.5}, new double[] {1, 1}));
        assertEquals("categorical feature 'colour': counts differ",
                ModelContent.difference(model("t1", List.of(colour(1))), model("t1", List.of(weighted))));
        CategoricalTable shape = new CategoricalTable("shape", List.of("blue", "red"),
                List.of(new long[] {1, 1}, new long[] {1, 1}));
        assertEquals("category table 0: 'colour' [blue, red] vs 'shape' [blue, red]",
                ModelContent.difference(model("t1", List.of(colour(1))), model("t1", List.of(shape))));
    }
}
