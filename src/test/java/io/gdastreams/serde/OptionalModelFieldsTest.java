package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The optional fields of a model record are filled in only when absent, in the one strict read: an explicit null is
 * still refused, a class with one weight but not the other is still incomplete, and a table without counts does not
 * get weights from nowhere. Each refusal names the field as Jackson does for any other field.
 */
class OptionalModelFieldsTest {

    /** One class, one categorical table, no optional field at all (as the trainer writes an unweighted model). */
    private static final String PLAIN = "{\"modelId\":\"m\",\"version\":2,\"features\":[\"a\"],\"totalCount\":3,"
            + "\"classes\":[{\"label\":\"x\",\"count\":3,\"prior\":1.0,\"mean\":[0.5],\"covariance\":[[2.0]]}],"
            + "\"sources\":{\"0\":3},\"updatedAt\":\"2026-01-01T00:00:00Z\",\"trainer\":\"gda-streams-training\"}";

    private static final String TABLE = "{\"feature\":\"s\",\"values\":[\"no\",\"yes\"],\"counts\":[[1,2]]}";

    private static ModelParameters read(String json) {
        return ModelSerde.read(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String with(String from, String to) {
        assertTrue(PLAIN.contains(from), from);
        return PLAIN.replace(from, to);
    }

    private static String withTable(String table) {
        return with("\"totalCount\":3", "\"totalCount\":3,\"categorical\":[" + table + "]");
    }

    @Test
    void shouldReadARecordWithoutOptionalFieldsAsUnweightedWithNothingAbsorbed() {
        ModelParameters model = read(withTable(TABLE));
        ClassParameters x = model.classes().get(0);
        assertNull(x.effectiveCount());
        assertNull(x.effectiveSampleSize());
        assertEquals(3.0, x.sampleSize());
        assertNull(model.categorical().get(0).weights(), "an unweighted table");
        assertArrayEquals(new long[] {1, 2}, model.categorical().get(0).counts().get(0));
        assertEquals(0L, model.retracted() + model.resetGeneration() + model.resetDropped() + model.leftOut());
    }

    /** A count beyond 2^53 filled in as a weight rounds as its JSON literal would: still unweighted. */
    @Test
    void shouldKeepATableOfHugeCountsUnweighted() {
        ModelParameters model = read(withTable(TABLE.replace("[[1,2]]", "[[9007199254740993,2]]")));
        assertNull(model.categorical().get(0).weights());
        assertEquals(9007199254740993L, model.categorical().get(0).counts().get(0)[0]);
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("$.categorical: may not be null",
                        with("\"totalCount\":3", "\"totalCount\":3,\"categorical\":null")),
                Arguments.of("$.retracted: may not be null",
                        with("\"totalCount\":3", "\"totalCount\":3,\"retracted\":null")),
                Arguments.of("$.classes[0].effectiveCount: may not be null",
                        with("\"count\":3,", "\"count\":3,\"effectiveCount\":null,\"effectiveSampleSize\":null,")),
                Arguments.of("$.classes[0].effectiveSampleSize: required field missing",
                        with("\"count\":3,", "\"count\":3,\"effectiveCount\":3.0,")),
                Arguments.of("$.classes[0].effectiveCount: required field missing",
                        with("\"count\":3,", "\"count\":3,\"effectiveSampleSize\":3.0,")),
                Arguments.of("$.classes[0].count: required field missing", with("\"count\":3,", "")),
                Arguments.of("$.categorical[0].weights: may not be null",
                        withTable(TABLE.replace("]]}", "]],\"weights\":null}"))),
                Arguments.of("$.categorical[0].counts: required field missing",
                        withTable(TABLE.replace(",\"counts\":[[1,2]]", ""))),
                Arguments.of("$.categorical[0].counts: may not be null",
                        withTable(TABLE.replace("[[1,2]]", "null"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void shouldRefuseWhatIsNotAbsentButWrongOrIncomplete(String reason, String json) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(json));
        assertTrue(e.getMessage().startsWith(reason), e.getMessage());
    }
}
