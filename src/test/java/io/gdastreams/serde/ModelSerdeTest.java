package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Model records are read strictly: anything Jackson would quietly convert or default is refused with a reason. */
class ModelSerdeTest {

    private static final String TOPIC = "model-parameters";

    /** A valid two-feature, two-class model as the trainer writes it (compact JSON, fields in record order). */
    private static final String VALID = "{\"modelId\":\"m\",\"version\":3,\"features\":[\"a\",\"b\"],\"totalCount\":4,"
            + "\"classes\":[{\"label\":\"x\",\"count\":2,\"prior\":0.5,\"mean\":[1.0,2.0],"
            + "\"covariance\":[[1.0,0.0],[0.0,1.0]]},{\"label\":\"y\",\"count\":2,\"prior\":0.5,\"mean\":[3.0,4.0],"
            + "\"covariance\":[[2.0,0.5],[0.5,2.0]]}],\"sources\":{\"0\":4},\"updatedAt\":\"2026-01-01T00:00:00Z\","
            + "\"trainer\":\"gda-streams-training\"}";

    private static ModelParameters read(String json) {
        return SerdeFactory.model().deserializer().deserialize(TOPIC, json.getBytes(StandardCharsets.UTF_8));
    }

    /** {@link #VALID} with the one occurrence of {@code from} replaced by {@code to}. */
    private static String validWith(String from, String to) {
        int at = VALID.indexOf(from);
        if (at < 0 || VALID.indexOf(from, at + 1) >= 0) {
            throw new IllegalArgumentException("'" + from + "' must occur once in the valid model");
        }
        return VALID.replace(from, to);
    }

    static Stream<Arguments> invalidRecords() {
        return Stream.of(
                Arguments.of("version as a string", validWith("\"version\":3", "\"version\":\"3\"")),
                Arguments.of("no trainer (a model of an earlier version)", validWith(
                        ",\"trainer\":\"gda-streams-training\"", "")),
                Arguments.of("fractional version", validWith("\"version\":3", "\"version\":1.5")),
                Arguments.of("integral version written as a float", validWith("\"version\":3", "\"version\":3.0")),
                Arguments.of("version in exponent form", validWith("\"version\":3", "\"version\":3e0")),
                Arguments.of("boolean version", validWith("\"version\":3", "\"version\":true")),
                Arguments.of("null version", validWith("\"version\":3", "\"version\":null")),
                Arguments.of("version zero", validWith("\"version\":3", "\"version\":0")),
                Arguments.of("negative version", validWith("\"version\":3", "\"version\":-3")),
                Arguments.of("version beyond long", validWith("\"version\":3", "\"version\":9223372036854775808")),
                Arguments.of("totalCount as a float", validWith("\"totalCount\":4", "\"totalCount\":4.0")),
                Arguments.of("negative leftOut", validWith("\"totalCount\":4", "\"totalCount\":4,\"leftOut\":-1")),
                Arguments.of("events absorbed beyond long", validWith("\"totalCount\":4",
                        "\"totalCount\":4,\"leftOut\":9223372036854775807")),
                Arguments.of("class count as a float", validWith("\"label\":\"x\",\"count\":2",
                        "\"label\":\"x\",\"count\":2.5")),
                Arguments.of("class count as a string", validWith("\"label\":\"x\",\"count\":2",
                        "\"label\":\"x\",\"count\":\"2\"")),
                Arguments.of("negative class count", validWith("\"label\":\"x\",\"count\":2",
                        "\"label\":\"x\",\"count\":-2")),
                Arguments.of("source offset as a float", validWith("{\"0\":4}", "{\"0\":4.5}")),
                Arguments.of("source offset as a string", validWith("{\"0\":4}", "{\"0\":\"4\"}")),
                Arguments.of("null source offset", validWith("{\"0\":4}", "{\"0\":null}")),
                Arguments.of("negative source offset", validWith("{\"0\":4}", "{\"0\":-1}")),
                Arguments.of("prior as a string", validWith("\"label\":\"x\",\"count\":2,\"prior\":0.5",
                        "\"label\":\"x\",\"count\":2,\"prior\":\"0.5\"")),
                Arguments.of("mean value as a string", validWith("[1.0,2.0]", "[\"1.0\",2.0]")),
                Arguments.of("null mean value", validWith("[1.0,2.0]", "[null,2.0]")),
                Arguments.of("null covariance row", validWith("[[1.0,0.0],[0.0,1.0]]", "[[1.0,0.0],null]")),
                Arguments.of("NaN covariance value", validWith("[[1.0,0.0],[0.0,1.0]]", "[[NaN,0.0],[0.0,1.0]]")),
                Arguments.of("label as a number", validWith("\"label\":\"x\"", "\"label\":7")),
                Arguments.of("feature name as a number", validWith("[\"a\",\"b\"]", "[\"a\",2]")),
                Arguments.of("null feature name", validWith("[\"a\",\"b\"]", "[\"a\",null]")),
                Arguments.of("null class", validWith("\"classes\":[", "\"classes\":[null,")),
                Arguments.of("features as a string", validWith("[\"a\",\"b\"]", "\"a,b\"")),
                Arguments.of("unknown field", validWith("\"updatedAt\"", "\"note\":\"hi\",\"updatedAt\"")),
                Arguments.of("unknown class field", validWith("\"label\":\"x\"", "\"label\":\"x\",\"weight\":1")),
                Arguments.of("missing updatedAt", validWith(",\"updatedAt\":\"2026-01-01T00:00:00Z\"", "")),
                Arguments.of("missing sources", validWith(",\"sources\":{\"0\":4}", "")),
                Arguments.of("missing class label", validWith("\"label\":\"x\",", "")),
                Arguments.of("null modelId", validWith("\"modelId\":\"m\"", "\"modelId\":null")),
                Arguments.of("duplicate field", validWith("\"version\":3", "\"version\":3,\"version\":4")),
                Arguments.of("trailing garbage", VALID + "x"),
                Arguments.of("JSON null", "null"),
                Arguments.of("empty value", ""),
                Arguments.of("a JSON array", "[" + VALID + "]"),
                Arguments.of("cut short", VALID.substring(0, VALID.length() / 2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidRecords")
    void shouldRefuseAModelRecordThatIsNotExactlyAModel(String kind, String json) {
        SerializationException e = assertThrows(SerializationException.class, () -> read(json), kind);
        assertTrue(e.getMessage().contains(TOPIC), "the message names the topic: " + e.getMessage());
    }

    @Test
    void shouldNameTheFieldAndTheDefectOnOneLine() {
        SerializationException e = assertThrows(SerializationException.class,
                () -> read(validWith("\"label\":\"x\",\"count\":2", "\"label\":\"x\",\"count\":2.5")));
        assertTrue(e.getMessage().startsWith("invalid model record from topic " + TOPIC + ": $.classes[0].count: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("2.5"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void shouldGiveThePositionOfMalformedJson() {
        SerializationException e = assertThrows(SerializationException.class, () -> read("{\"modelId\": }"));
        assertTrue(e.getMessage().startsWith("invalid model record from topic " + TOPIC + ": line 1, column 13: "),
                e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void shouldRefuseALabelInIllFormedUtf8ThatJacksonWouldDecode() {
        byte[] bytes = validWith("\"label\":\"x\"", "\"label\":\"x##\"").getBytes(StandardCharsets.UTF_8);
        int at = validWith("\"label\":\"x\"", "\"label\":\"x##\"").indexOf("##");
        bytes[at] = (byte) 0xC0; // C0 AF: "/" in an overlong form
        bytes[at + 1] = (byte) 0xAF;
        SerializationException e = assertThrows(SerializationException.class,
                () -> SerdeFactory.model().deserializer().deserialize(TOPIC, bytes));
        assertEquals("invalid model record from topic " + TOPIC + ": Invalid UTF-8 at byte " + at
                + ": 0xC0 0xAF, an overlong encoding", e.getMessage());
    }

    @Test
    void shouldReadAValidModelWithEveryField() {
        ModelParameters model = read(VALID);
        assertEquals("m", model.modelId());
        assertEquals(3L, model.version());
        assertEquals(List.of("a", "b"), model.features());
        assertEquals(4L, model.totalCount());
        assertEquals(Map.of("0", 4L), model.sources());
        assertEquals("2026-01-01T00:00:00Z", model.updatedAt());
        assertEquals("gda-streams-training", model.trainer());
        ClassParameters y = model.classes().get(1);
        assertEquals("y", y.label());
        assertEquals(2L, y.count());
        assertEquals(0.5, y.prior());
        assertArrayEquals(new double[] {3.0, 4.0}, y.mean());
        assertArrayEquals(new double[] {0.5, 2.0}, y.covariance()[1]);
    }

    @Test
    void shouldReadIntegerLiteralsAsDoubles() {
        // An integer is an exact double; only the other way round loses information.
        ModelParameters model = read(validWith("[1.0,2.0]", "[1,2]"));
        assertArrayEquals(new double[] {1.0, 2.0}, model.classes().get(0).mean());
    }

    @Test
    void shouldReadBackWhatItWrites() {
        ModelParameters model = read(VALID);
        byte[] written = SerdeFactory.model().serializer().serialize(TOPIC, model);
        assertEquals(VALID, new String(written, StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadATombstoneAsNull() {
        assertNull(SerdeFactory.model().deserializer().deserialize(TOPIC, null));
    }
}
