package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.gdastreams.model.Prediction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link PredictionWriter} against the reference it replaced: the project mapper writing the record through the
 * {@link PredictionJson} mix-ins (kept here only as the reference). Byte for byte, over random predictions of both
 * shapes with every optional field present or absent, awkward text (quotes, escapes, control characters,
 * non-ASCII, surrogate pairs) and every kind of double (non-finite, -0.0, subnormal, 17 digits).
 */
class PredictionWriterTest {

    private static final long SEED = 2024;
    private static final int PREDICTIONS = 20_000;

    private final Random random = new Random(SEED);
    private final AwkwardValues awkward = new AwkwardValues(random, false);
    private final ObjectWriter reference = Json.mapper().writerFor(Prediction.class);

    @Test
    void shouldWriteTheMappersBytesForEveryShapeAndOptionalField() throws IOException {
        Set<String> fieldsSeen = new HashSet<>();
        for (int n = 0; n < PREDICTIONS; n++) {
            Prediction prediction = random.nextBoolean() ? scored() : unscored();
            byte[] expected = reference.writeValueAsBytes(prediction);
            byte[] actual = PredictionWriter.toBytes(prediction);
            assertArrayEquals(expected, actual, () -> "expected " + new String(expected, StandardCharsets.UTF_8)
                    + "\n but got " + new String(actual, StandardCharsets.UTF_8));
            Json.mapper().readTree(actual).fieldNames().forEachRemaining(fieldsSeen::add);
        }
        // Every field of the record was written at least once: the comparison covered all of them.
        assertEquals(Prediction.class.getRecordComponents().length, fieldsSeen.size(), fieldsSeen.toString());
    }

    @Test
    void shouldBeTheSerdesSerializerAndReadBackToTheSameRecord() {
        Prediction prediction = scored();
        byte[] bytes = SerdeFactory.prediction().serializer().serialize("predictions", prediction);
        assertArrayEquals(PredictionWriter.toBytes(prediction), bytes);
        Prediction back = SerdeFactory.prediction().deserializer().deserialize("predictions", bytes);
        assertTrue(back.status() == Prediction.Status.SCORED && back.label().equals(prediction.label()));
    }

    private Prediction scored() {
        Map<String, Double> probabilities = numbers(1 + random.nextInt(5));
        boolean others = random.nextInt(3) == 0;
        Map<String, String> excluded = maybe() ? strings(1 + random.nextInt(3)) : null;
        Map<String, Double> imputed = maybe() ? numbers(1 + random.nextInt(4)) : null;
        Map<String, String> imputedCategories = maybe() ? strings(1 + random.nextInt(3)) : null;
        return new Prediction(Prediction.Status.SCORED, maybe() ? awkward.text() : null, awkward.text(), probabilities,
                others ? awkward.number() : null, others ? 1 + random.nextInt(1000) : null, awkward.number(),
                maybe() ? awkward.text() : null, maybe() ? random.nextLong() : null, maybe() ? random.nextBoolean() : null,
                null, excluded, excluded != null && maybe() ? 1 + random.nextInt(50) : null, imputed,
                imputed != null && maybe() ? 1 + random.nextInt(50) : null, maybe() ? awkward.number() : null,
                maybe() ? explanation() : null, maybe() ? awkward.text() : null, maybe() ? awkward.number() : null,
                maybe() ? strings(1 + random.nextInt(3)) : null, imputedCategories,
                imputedCategories != null && maybe() ? 1 + random.nextInt(9) : null);
    }

    private Prediction unscored() {
        Map<String, String> excluded = maybe() ? strings(1 + random.nextInt(3)) : null;
        return Prediction.unscored(maybe() ? awkward.text() : null, awkward.text(), maybe() ? awkward.text() : null,
                maybe() ? (Long) random.nextLong() : null, excluded,
                excluded != null && maybe() ? 1 + random.nextInt(50) : null);
    }

    private Prediction.Explanation explanation() {
        Map<String, Prediction.ClassTerms> classes = new LinkedHashMap<>();
        int k = random.nextInt(4);
        for (int i = 0; i < k; i++) {
            classes.put(awkward.text() + i, new Prediction.ClassTerms(awkward.number(), awkward.number(), awkward.number()));
        }
        return new Prediction.Explanation(random.nextInt(300), classes);
    }

    private boolean maybe() {
        return random.nextBoolean();
    }

    private Map<String, Double> numbers(int n) {
        Map<String, Double> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(awkward.text() + "#" + i, awkward.number());
        }
        return map;
    }

    private Map<String, String> strings(int n) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(awkward.text() + "#" + i, awkward.text());
        }
        return map;
    }
}
