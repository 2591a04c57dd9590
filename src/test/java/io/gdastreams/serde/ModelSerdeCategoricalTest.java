package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The category tables of a model record: optional (a model without them reads and writes as before), strict when
 * present.
 */
class ModelSerdeCategoricalTest {

    private static final String GAUSSIAN = "{\"modelId\":\"m\",\"version\":3,\"features\":[\"a\"],\"totalCount\":4,"
            + "\"classes\":[{\"label\":\"x\",\"count\":3,\"prior\":0.75,\"mean\":[1.0],\"covariance\":[[1.0]]},"
            + "{\"label\":\"y\",\"count\":1,\"prior\":0.25,\"mean\":[3.0],\"covariance\":[[2.0]]}],"
            + "\"sources\":{\"0\":4},\"updatedAt\":\"2026-01-01T00:00:00Z\",\"trainer\":\"t\"}";
    private static final String TABLES = ",\"categorical\":[{\"feature\":\"student\",\"values\":[\"No\",\"Yes\"],"
            + "\"counts\":[[2,1],[0,1]]}]";
    private static final String CATEGORICAL = GAUSSIAN.substring(0, GAUSSIAN.length() - 1) + TABLES + "}";

    private static ModelParameters read(String json) {
        return SerdeFactory.model().deserializer().deserialize("t", json.getBytes(StandardCharsets.UTF_8));
    }

    private static String write(ModelParameters model) {
        return new String(SerdeFactory.model().serializer().serialize("t", model), StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadAndWriteAModelWithoutTablesAsBefore() {
        ModelParameters model = read(GAUSSIAN);
        assertEquals(List.of(), model.categorical());
        assertEquals(List.of(), model.categoricalFeatures());
        assertEquals(GAUSSIAN, write(model), "no categorical field, byte for byte");
    }

    @Test
    void shouldRoundTripTheCategoryTables() {
        ModelParameters model = read(CATEGORICAL);
        assertEquals(List.of("student"), model.categoricalFeatures());
        CategoricalTable table = model.categorical().get(0);
        assertEquals(List.of("No", "Yes"), table.values());
        assertArrayEquals(new long[] {2, 1}, table.counts().get(0));
        assertArrayEquals(new long[] {0, 1}, table.counts().get(1));
        assertEquals(CATEGORICAL, write(model));
        assertFalse(write(model).contains("categoricalFeatures"), "only the record's components are written");
    }

    @Test
    void shouldRefuseMalformedTables() {
        for (String bad : List.of(
                CATEGORICAL.replace("[[2,1],[0,1]]", "[[2,1],null]"),
                CATEGORICAL.replace("[\"No\",\"Yes\"]", "[\"No\",null]"),
                CATEGORICAL.replace("[[2,1],[0,1]]", "[[2.5,1],[0,1]]"),
                CATEGORICAL.replace("[\"No\",\"Yes\"]", "[\"No\",true]"),
                CATEGORICAL.replace("\"categorical\":[{", "\"categorical\":[null,{"),
                CATEGORICAL.replace(TABLES, ",\"categorical\":null"),
                CATEGORICAL.replace("\"feature\":\"student\",", ""))) {
            SerializationException e = assertThrows(SerializationException.class, () -> read(bad), bad);
            assertTrue(e.getMessage().startsWith("invalid model record from topic t: "), e.getMessage());
        }
    }

    @Test
    void shouldReportAnotherFaultOfARecordWithoutTablesAsBefore() {
        SerializationException e = assertThrows(SerializationException.class,
                () -> read(GAUSSIAN.replace("\"version\":3", "\"version\":\"3\"")));
        assertTrue(e.getMessage().contains("$.version"), e.getMessage());
        SerializationException missing = assertThrows(SerializationException.class,
                () -> read(GAUSSIAN.replace(",\"trainer\":\"t\"", "")));
        assertTrue(missing.getMessage().contains("trainer"), missing.getMessage());
    }
}
