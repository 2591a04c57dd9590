package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Model records are read strictly: anything Jackson would quietly convert or default is refused with a reason. */
class ModelSerdeTest {

    private static final String TOPIC = "model-parameters";

    /** A valid two-feature, two-class model as the trainer writes it (compact JSON, fields in record order). */
    private static final String VALID = "{\"modelId\":\"m\",\"version\":3,\"features\":[\"a\",\"b\"],\"totalCount\":4,"
            + "\"classes\":[{\"label\":\"x\",\"count\":2,\"prior\":0.5,\"mean\":[1.0,2.0],"
            + "\"covariance\":[[1.0,0.0],[0.0,1.0]]},{\"label\":\"y\",\"count\":2,\"prior\":0.5,\"mean\":[3.0,4.0],"
            + "\"covariance\":[[2.0,0.5],[0.5,2.0]]}],\"sources\":{\"0\":4},\"updatedAt\":\"2026-01-01T00:00:00Z\","
            + "\"trainer\":\"gda-streams-training\"}";

    /** The optional fields of {@link #VALID}'s model after resets, retractions and left-out events, in record order. */
    private static final Map<String, String> OPTIONAL = new LinkedHashMap<>();

    static {
        OPTIONAL.put("categorical", "\"categorical\":[{\"feature\":\"student\",\"values\":[\"No\",\"Yes\"],"
                + "\"counts\":[[2,1],[0,1]],\"weights\":[[1.5,1.0],[0.0,0.5]]}]");
        OPTIONAL.put("retracted", "\"retracted\":1");
        OPTIONAL.put("resetGeneration", "\"resetGeneration\":2");
        OPTIONAL.put("resetDropped", "\"resetDropped\":3");
        OPTIONAL.put("leftOut", "\"leftOut\":5");
    }

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

    /** What makes a parsed record no model is named after the topic, as logged and answered ("no model yet"). */
    static Stream<Arguments> unusableRecords() {
        String tables = VALID.substring(0, VALID.length() - 1) + ",\"categorical\":[{\"feature\":\"student\","
                + "\"values\":[\"No\",\"Yes\"],\"counts\":[[2,1],[0,1]]}]}";
        return Stream.of(
                Arguments.of("version 0 < 1", validWith("\"version\":3", "\"version\":0")),
                Arguments.of("negative totalCount -1", validWith("\"totalCount\":4", "\"totalCount\":-1")),
                Arguments.of("negative leftOut -1", validWith("\"totalCount\":4",
                        "\"totalCount\":4,\"leftOut\":-1")),
                Arguments.of("negative resetGeneration -2 or resetDropped 0", validWith("\"totalCount\":4",
                        "\"totalCount\":4,\"resetGeneration\":-2")),
                Arguments.of("totalCount + 2·retracted + resetDropped + leftOut overflows",
                        validWith("\"totalCount\":4", "\"totalCount\":4,\"leftOut\":9223372036854775804")),
                Arguments.of("null feature name", validWith("[\"a\",\"b\"]", "[\"a\",null]")),
                Arguments.of("class 0 is null", validWith("\"classes\":[", "\"classes\":[null,")),
                Arguments.of("class 'x': negative count -2", validWith("\"label\":\"x\",\"count\":2",
                        "\"label\":\"x\",\"count\":-2")),
                Arguments.of("class 'x': null covariance row",
                        validWith("[[1.0,0.0],[0.0,1.0]]", "[[1.0,0.0],null]")),
                Arguments.of("sources: offset of partition '0' is -1", validWith("{\"0\":4}", "{\"0\":-1}")),
                Arguments.of("categorical table 0 is null",
                        tables.replace("\"categorical\":[{", "\"categorical\":[null,{")),
                Arguments.of("categorical feature 'student': null value", tables.replace("\"Yes\"]", "null]")),
                Arguments.of("categorical feature 'student': null counts", tables.replace("[0,1]]", "null]")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unusableRecords")
    void shouldNameWhatMakesAParsedRecordNoModel(String reason, String json) {
        SerializationException e = assertThrows(SerializationException.class, () -> read(json), reason);
        assertEquals("invalid model record from topic " + TOPIC + ": " + reason, e.getMessage());
    }

    /** The least values a model may hold: version 1, no events, a class of none, offset 0, weights of 0. */
    @Test
    void shouldReadTheLeastValidValues() {
        ModelParameters model = read(VALID.replace("\"version\":3", "\"version\":1")
                .replace("\"totalCount\":4", "\"totalCount\":0")
                .replace("\"label\":\"x\",\"count\":2", "\"label\":\"x\",\"count\":0")
                .replace("\"covariance\":[[2.0,0.5],[0.5,2.0]]",
                        "\"covariance\":[[2.0,0.5],[0.5,2.0]],\"effectiveCount\":0.0,\"effectiveSampleSize\":0.0")
                .replace("{\"0\":4}", "{\"0\":0}"));
        assertEquals(1L, model.version());
        assertEquals(0L, model.totalCount());
        assertEquals(0L, model.classes().get(0).count());
        assertEquals(0.0, model.classes().get(1).effectiveCount());
        assertEquals(0.0, model.classes().get(1).effectiveSampleSize());
        assertEquals(Map.of("0", 0L), model.sources());
    }

    /** A record with every optional field reads as written, and writes back byte for byte. */
    @Test
    void shouldReadARecordWithEveryOptionalField() {
        String json = withOptional(null);
        ModelParameters model = read(json);
        assertEquals(List.of("student"), model.categoricalFeatures());
        assertArrayEquals(new double[] {1.5, 1.0}, model.categorical().get(0).weights().get(0));
        assertEquals(List.of(1L, 2L, 3L, 5L), List.of(model.retracted(), model.resetGeneration(), model.resetDropped(),
                model.leftOut()));
        assertEquals(json, new String(SerdeFactory.model().serializer().serialize(TOPIC, model),
                StandardCharsets.UTF_8));
    }

    /** A record written before one optional field existed reads with that field's default, the others as given. */
    @ParameterizedTest
    @ValueSource(strings = {"categorical", "retracted", "resetGeneration", "resetDropped", "leftOut"})
    void shouldReadARecordLackingAnyOneOptionalField(String lacking) {
        ModelParameters model = read(withOptional(lacking));
        assertEquals(lacking.equals("categorical") ? 0 : 1, model.categorical().size());
        assertEquals(lacking.equals("retracted") ? 0L : 1L, model.retracted());
        assertEquals(lacking.equals("resetGeneration") ? 0L : 2L, model.resetGeneration());
        assertEquals(lacking.equals("resetDropped") ? 0L : 3L, model.resetDropped());
        assertEquals(lacking.equals("leftOut") ? 0L : 5L, model.leftOut());
    }

    /** A category table without weights (an unweighted table, as written before weights) has its counts as weights. */
    @Test
    void shouldReadATableWithoutWeightsAsUnweighted() {
        String json = withOptional(null).replace(",\"weights\":[[1.5,1.0],[0.0,0.5]]", "");
        ModelParameters model = read(json);
        assertNull(model.categorical().get(0).weights());
        assertArrayEquals(new long[] {0, 1}, model.categorical().get(0).counts().get(1));
        assertEquals(5L, model.leftOut());
    }

    /**
     * {@link #VALID} with weighted classes (which carry their weights) and every optional field but {@code lacking}
     * (null: all of them), so that the one field missing is the first fault the strict read meets.
     */
    private static String withOptional(String lacking) {
        String weighted = VALID
                .replace("[0.0,1.0]]}", "[0.0,1.0]],\"effectiveCount\":1.5,\"effectiveSampleSize\":1.25}")
                .replace("[0.5,2.0]]}", "[0.5,2.0]],\"effectiveCount\":2.5,\"effectiveSampleSize\":2.25}");
        StringBuilder json = new StringBuilder(weighted.substring(0, weighted.length() - 1));
        OPTIONAL.forEach((field, text) -> json.append(field.equals(lacking) ? "" : "," + text));
        return json.append('}').toString();
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

    /** The common defects in the record's terms, not Jackson's ("Missing creator property", class names). */
    @Test
    void shouldSayWhatIsWrongInTheRecordsOwnTerms() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put(validWith("\"version\":3,", ""), "$.version: required field missing");
        cases.put(validWith("\"version\":3,", "\"version\":3,\"extra\":1,"),
                "$.extra: unknown field (a model record has no such field)");
        cases.put("[]", "line 1, column 1: expected an object, found an array");
        cases.put(validWith("\"mean\":[1.0,2.0]", "\"mean\":{}"),
                "$.classes[0].mean: expected an array, found an object");
        cases.put(validWith("\"features\":[\"a\",\"b\"]", "\"features\":null"), "$.features: may not be null");
        cases.put(validWith("\"features\":[\"a\",\"b\"]", "\"features\":{}"),
                "$.features: expected an array, found an object");
        cases.forEach((json, reason) -> {
            SerializationException e = assertThrows(SerializationException.class, () -> read(json), json);
            assertEquals("invalid model record from topic " + TOPIC + ": " + reason, e.getMessage());
        });
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
