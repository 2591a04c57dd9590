package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.UnlabelledEvent;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Categorical features carry strings or booleans; anything else, or a string for a continuous feature, is refused. */
class EventDecoderCategoricalTest {

    private static final Set<String> CATEGORICAL = Set.of("student", "flag");

    private static Decoded<LabelledEvent> labelled(String json) {
        return EventDecoder.decodeLabelled(json.getBytes(StandardCharsets.UTF_8), 16, CATEGORICAL);
    }

    private static Decoded<UnlabelledEvent> unlabelled(String json) {
        return EventDecoder.decodeUnlabelled(json.getBytes(StandardCharsets.UTF_8), 16, CATEGORICAL);
    }

    @Test
    void shouldSplitContinuousAndCategoricalFeatures() {
        LabelledEvent event = labelled("{\"features\":{\"balance\":1.5,\"student\":\"Yes\",\"flag\":false},"
                + "\"label\":\"No\"}").value();
        assertEquals(Map.of("balance", 1.5), event.features());
        assertEquals(Map.of("student", "Yes", "flag", "false"), event.categories());
    }

    @Test
    void shouldRefuseANumberForACategoricalFeatureAndAStringForAContinuousOne() {
        assertEquals("feature 'student' is categorical (gda.categorical.features) but its value is a number: 0",
                labelled("{\"features\":{\"balance\":1,\"student\":0,\"flag\":true},\"label\":\"x\"}").error());
        assertEquals("feature 'student' is categorical (gda.categorical.features) but its value is not a string or"
                + " boolean: [\"a\"]",
                labelled("{\"features\":{\"balance\":1,\"student\":[\"a\"],\"flag\":true},\"label\":\"x\"}").error());
        assertEquals("feature 'balance' is not a number: \"1\"",
                labelled("{\"features\":{\"balance\":\"1\",\"student\":\"a\",\"flag\":true},\"label\":\"x\"}")
                        .error());
        assertTrue(labelled("{\"features\":{\"balance\":1,\"student\":\"a\\u0001\",\"flag\":true},\"label\":\"x\"}")
                .error().startsWith("value of categorical feature 'student': value contains a control character"));
        assertTrue(labelled("{\"features\":{\"balance\":1,\"student\":\"" + "v".repeat(257) + "\",\"flag\":true},"
                + "\"label\":\"x\"}").error().startsWith("value of categorical feature 'student': value too long"));
        assertFalse(labelled("{\"features\":{\"balance\":1,\"student\":null,\"flag\":true},\"label\":\"x\"}").isOk(),
                "a training event has every value");
    }

    @Test
    void shouldReadANullCategoricalValueOfAnUnlabelledEventAsMissing() {
        UnlabelledEvent event = unlabelled("{\"id\":\"r\",\"features\":{\"balance\":2,\"student\":null,"
                + "\"flag\":true}}").value();
        assertEquals(Map.of("flag", "true"), event.categories());
        UnlabelledEvent onlyCategorical = unlabelled("{\"features\":{\"student\":\"No\"}}").value();
        assertEquals(Map.of(), onlyCategorical.features());
        assertEquals(Map.of("student", "No"), onlyCategorical.categories());
        assertEquals("every feature is null", unlabelled("{\"features\":{\"student\":null}}").error());
    }

    @Test
    void shouldDecodeAsBeforeWithoutCategoricalFeatures() {
        assertEquals("feature 'student' is not a number: \"Yes\"", EventDecoder.decodeLabelled(
                "{\"features\":{\"student\":\"Yes\"},\"label\":\"x\"}".getBytes(StandardCharsets.UTF_8)).error());
    }
}
