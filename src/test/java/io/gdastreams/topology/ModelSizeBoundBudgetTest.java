package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bound counts every term of its documented budget: one byte less than the budget of K classes admits K − 1. The
 * worst-case tests keep room to spare, so a term dropped or counted with the wrong sign would go unnoticed there and
 * show only as a model past the record limit.
 */
class ModelSizeBoundBudgetTest {

    /** The budget, term by term, of the model over x = {a, bb} and one categorical feature c of at most 2 values. */
    private static final long HEADER = 1L << 20;
    /** A name's UTF-8 bytes, each escaped as up to 6, and its quotes and comma: a → 9, bb → 15, c → 9. */
    private static final long NAMES = (6 + 3) + (12 + 3);
    /** The categorical feature's name, its table's field names and brackets (64), two values of 256·6 + 3 each. */
    private static final long TABLE = (6 + 3) + 64 + 2 * (256 * 6 + 3);
    /**
     * Per class at d = 2: d² + d = 6 numbers of 25 characters, a label of 256·6, 256 of overhead; a count and a
     * weight for each of the 2 value slots; 4 bytes for the one categorical feature.
     */
    private static final long PER_CLASS = 25 * 6 + 256 * 6 + 256 + 2 * 25 * 2 + 4;

    @Test
    void shouldAdmitExactlyTheClassesWhoseBudgetFits() {
        List<String> x = List.of("a", "bb");
        List<String> c = List.of("c");
        for (long k = 1; k <= 4; k++) {
            long exact = HEADER + NAMES + TABLE + k * PER_CLASS;
            assertEquals(k, ModelSizeBound.maxClasses(x, c, 2, exact), "limit " + exact);
            assertEquals(k - 1, ModelSizeBound.maxClasses(x, c, 2, exact - 1), "limit " + (exact - 1));
        }
    }

    @Test
    void shouldAdmitNoClassWhenTheHeaderAndNamesTakeTheWholeLimit() {
        List<String> x = List.of("a", "bb");
        assertEquals(0, ModelSizeBound.maxClasses(x, HEADER + NAMES));
        assertEquals(0, ModelSizeBound.maxClasses(x, HEADER));
        // Without categorical features a class costs its Gaussian part only.
        long gaussianClass = 25 * 6 + 256 * 6 + 256;
        assertEquals(1, ModelSizeBound.maxClasses(x, HEADER + NAMES + gaussianClass));
        assertEquals(0, ModelSizeBound.maxClasses(x, HEADER + NAMES + gaussianClass - 1));
    }
}
