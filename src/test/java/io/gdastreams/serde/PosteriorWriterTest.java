package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.gdastreams.model.Prediction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PosteriorWriter} against the two writers it stands in for on the scorer's hot path: {@link PredictionWriter}
 * and the project mapper (through the {@link PredictionJson} mix-ins), both given the record
 * {@link PosteriorWriter.Template#prediction} builds from the same arguments. Byte for byte, over random templates
 * (awkward labels, model ids and reasons: quotes, escapes, control characters, non-ASCII, surrogate pairs and lone
 * surrogates; with and without excluded classes) and random events (ids of every kind, every kind of double),
 * with one writer reused throughout as a stream task reuses it.
 */
class PosteriorWriterTest {

    private static final long SEED = 17;
    private static final int TEMPLATES = 400;
    private static final int EVENTS_PER_TEMPLATE = 50;

    private final Random random = new Random(SEED);
    private final AwkwardValues awkward = new AwkwardValues(random, true);
    private final ObjectWriter mapper = Json.mapper().writerFor(Prediction.class);

    @Test
    void shouldWriteWhatPredictionWriterAndTheMapperWriteForTheSameRecord() throws IOException {
        PosteriorWriter writer = new PosteriorWriter();
        for (int t = 0; t < TEMPLATES; t++) {
            PosteriorWriter.Template template = template();
            int n = template.labels().size();
            for (int e = 0; e < EVENTS_PER_TEMPLATE; e++) {
                String id = random.nextInt(5) == 0 ? null : awkward.text();
                double[] p = new double[n];
                for (int k = 0; k < n; k++) {
                    p[k] = awkward.number();
                }
                int chosen = random.nextInt(n);
                double logDensity = awkward.number();
                Boolean outlier = random.nextBoolean() ? null : random.nextBoolean();

                byte[] actual = writer.write(template, id, chosen, p, logDensity, outlier);
                Prediction record = template.prediction(id, chosen, p, logDensity, outlier);
                byte[] expected = PredictionWriter.toBytes(record);
                assertArrayEquals(expected, actual, () -> "expected " + new String(expected, StandardCharsets.UTF_8)
                        + "\n but got " + new String(actual, StandardCharsets.UTF_8));
                assertArrayEquals(mapper.writeValueAsBytes(record), actual);
            }
        }
    }

    /**
     * Every fill of a new writer's buffer (512 bytes, then doubled), so that each part, quoted non-finite numbers
     * included, is once written where the buffer must grow: ids of 0 to 2,100 printable characters, more than the
     * doubled buffer holds. Then ids of nothing but a quote or a backslash, which the generator escapes.
     */
    @Test
    void shouldWriteWhatPredictionWriterWritesAtEveryFillOfTheBuffer() {
        PosteriorWriter.Template template = new PosteriorWriter.Template(List.of("a", "b"), "m", 3, null, null);
        double[][] posteriors = {{Double.NaN, Double.NEGATIVE_INFINITY}, {0.25, 0.75}};
        for (int length = 0; length <= 2100; length++) {
            String id = "i".repeat(length);
            for (double[] p : posteriors) {
                double logDensity = length % 2 == 0 ? Double.NEGATIVE_INFINITY : Double.NaN;
                byte[] expected = PredictionWriter.toBytes(template.prediction(id, 1, p, logDensity, true));
                assertArrayEquals(expected, new PosteriorWriter().write(template, id, 1, p, logDensity, true),
                        "id of " + length);
            }
        }
        PosteriorWriter writer = new PosteriorWriter();
        for (String id : new String[] {"\"", "\\", "\"\"", "\\\\", "a\"", "a\\", "\u007f", "~ "}) {
            double[] p = {0.5, 0.5};
            assertArrayEquals(PredictionWriter.toBytes(template.prediction(id, 0, p, -1.0, null)),
                    writer.write(template, id, 0, p, -1.0, null), id);
        }
    }

    @Test
    void shouldBuildTheRecordOfTheCommonScoredShape() {
        PosteriorWriter.Template template = new PosteriorWriter.Template(List.of("a", "b"), "m", 7,
                Map.of("c", "count 1 below minimum 2"), null);
        Prediction p = template.prediction("e1", 1, new double[] {0.25, 0.75}, -3.5, false);
        Map<String, Double> probabilities = new LinkedHashMap<>();
        probabilities.put("a", 0.25);
        probabilities.put("b", 0.75);
        assertEquals(Prediction.scored("e1", "b", probabilities, null, null, -3.5, "m", 7L, false,
                Map.of("c", "count 1 below minimum 2"), null), p);
        assertEquals("{\"status\":\"scored\",\"id\":\"e1\",\"label\":\"b\",\"probabilities\":{\"a\":0.25,\"b\":0.75},"
                + "\"logDensity\":-3.5,\"modelId\":\"m\",\"modelVersion\":7,\"outlier\":false,"
                + "\"excluded\":{\"c\":\"count 1 below minimum 2\"}}",
                new String(new PosteriorWriter().write(template, "e1", 1, new double[] {0.25, 0.75}, -3.5, false),
                        StandardCharsets.UTF_8));
    }

    @Test
    void shouldRefuseAPosteriorOfAnotherLength() {
        PosteriorWriter.Template template = new PosteriorWriter.Template(List.of("a", "b"), "m", 1, null, null);
        assertThrows(IllegalArgumentException.class,
                () -> new PosteriorWriter().write(template, "e", 0, new double[] {1.0}, 0.0, null));
        assertThrows(IllegalArgumentException.class,
                () -> new PosteriorWriter.Template(List.of(), "m", 1, null, null));
    }

    private PosteriorWriter.Template template() {
        int n = 1 + random.nextInt(6);
        List<String> labels = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            labels.add(awkward.text() + "#" + k);
        }
        Map<String, String> excluded = null;
        Integer otherExcluded = null;
        if (random.nextBoolean()) {
            excluded = new LinkedHashMap<>();
            int m = random.nextInt(4); // 0: an empty map, which a prediction leaves out
            for (int i = 0; i < m; i++) {
                excluded.put(awkward.text() + "!" + i, awkward.text());
            }
            otherExcluded = m > 0 && random.nextBoolean() ? 1 + random.nextInt(50) : null;
        }
        return new PosteriorWriter.Template(labels, random.nextInt(6) == 0 ? null : awkward.text(),
                random.nextBoolean() ? random.nextLong() : random.nextInt(1000), excluded, otherExcluded);
    }
}
