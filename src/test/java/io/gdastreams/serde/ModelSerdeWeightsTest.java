package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The weights of a class in a model record ({@code effectiveCount}, {@code effectiveSampleSize}): optional and
 * together (a class without them is unweighted, and such a model reads and writes as before), strict when present.
 */
class ModelSerdeWeightsTest {

    private static final String HEAD = "{\"modelId\":\"m\",\"version\":3,\"features\":[\"a\"],\"totalCount\":4,"
            + "\"classes\":[";
    private static final String X = "{\"label\":\"x\",\"count\":3,\"prior\":0.8,\"mean\":[1.0],\"covariance\":[[1.0]]";
    private static final String Y = "{\"label\":\"y\",\"count\":1,\"prior\":0.2,\"mean\":[3.0],\"covariance\":[[2.0]]}";
    private static final String TAIL = "],\"sources\":{\"0\":4},\"updatedAt\":\"2026-01-01T00:00:00Z\",\"trainer\":\"t\"}";

    private static ModelParameters read(String json) {
        return SerdeFactory.model().deserializer().deserialize("t", json.getBytes(StandardCharsets.UTF_8));
    }

    private static String write(ModelParameters model) {
        return new String(SerdeFactory.model().serializer().serialize("t", model), StandardCharsets.UTF_8);
    }

    @Test
    void aWeightedClassRoundTripsBesideAnUnweightedOne() {
        String json = HEAD + X + ",\"effectiveCount\":2.5,\"effectiveSampleSize\":1.25}," + Y + TAIL;
        ModelParameters model = read(json);
        assertEquals(2.5, model.classes().get(0).effectiveCount());
        assertEquals(1.25, model.classes().get(0).effectiveSampleSize());
        assertTrue(model.classes().get(0).carriesWeights());
        assertFalse(model.classes().get(1).carriesWeights());
        assertNull(model.classes().get(1).effectiveCount());
        assertEquals(json, write(model), "byte for byte; the unweighted class without the fields");
    }

    @Test
    void weightsEqualToTheCountAreAnUnweightedClass() {
        String json = HEAD + X + ",\"effectiveCount\":3,\"effectiveSampleSize\":3.0}," + Y + TAIL;
        assertEquals(HEAD + X + "}," + Y + TAIL, write(read(json)));
    }

    @Test
    void theRetractionsAbsorbedAreOptionalAndNotNegative() {
        String json = HEAD + Y + TAIL.substring(0, TAIL.length() - 1) + ",\"retracted\":2}";
        ModelParameters model = read(json);
        assertEquals(2, model.retracted());
        assertEquals(8, model.eventsAbsorbed(), "totalCount 4 + 2·2");
        assertEquals(json, write(model));
        assertEquals(0, read(HEAD + Y + TAIL).retracted());
        assertEquals(HEAD + Y + TAIL, write(read(HEAD + Y + TAIL)), "0: left out");
        assertEquals("invalid model record from topic t: negative retracted -1", assertThrows(
                SerializationException.class, () -> read(HEAD + Y + TAIL.substring(0, TAIL.length() - 1)
                        + ",\"retracted\":-1}")).getMessage());
    }

    @Test
    void weightsAreStrict() {
        assertTrue(assertThrows(SerializationException.class,
                () -> read(HEAD + X + ",\"effectiveCount\":2.5}," + Y + TAIL)).getMessage()
                .contains("$.classes[0].effectiveSampleSize: required field missing"));
        assertTrue(assertThrows(SerializationException.class,
                () -> read(HEAD + X + ",\"effectiveCount\":null,\"effectiveSampleSize\":1}," + Y + TAIL)).getMessage()
                .contains("effectiveCount"));
        assertTrue(assertThrows(SerializationException.class,
                () -> read(HEAD + X + ",\"effectiveCount\":\"2\",\"effectiveSampleSize\":1}," + Y + TAIL))
                .getMessage().contains("effectiveCount"));
        assertEquals("invalid model record from topic t: class 'x': effectiveCount -1.0 and effectiveSampleSize 1.0"
                        + " must be finite and >= 0",
                assertThrows(SerializationException.class, () -> read(HEAD + X
                        + ",\"effectiveCount\":-1,\"effectiveSampleSize\":1}," + Y + TAIL)).getMessage());
    }
}
