package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Weighted statistics with forgetting against the batch weighted MLE of
 * src/test/resources/fixtures/forgetting/make_forgetting_golden.py (exact arithmetic from the same weights): one
 * stream, four partitions with interleaved timestamps and late events, label corrections by retraction, and
 * retracting every event.
 */
class ForgettingGoldenTest {

    /** Relative error allowed by the done-criterion (W, V; mean in σ, scatter in σ_iσ_j). */
    private static final double GOLDEN_RELATIVE = 1e-9;
    private static final int PARTITIONS = 4;
    private static final long SHUFFLE_SEED = 11;

    record Event(double[] x, double w, long t, int partition, String label, String observed) {
    }

    private static JsonNode golden;
    private static List<Event> events;
    private static Forgetting forgetting;

    @BeforeAll
    static void read() throws IOException {
        try (InputStream in = ForgettingGoldenTest.class.getResourceAsStream(
                "/fixtures/forgetting/forgetting_golden.json")) {
            golden = new ObjectMapper().readTree(in);
        }
        forgetting = new Forgetting(golden.get("halfLifeMs").asDouble());
        events = new ArrayList<>();
        for (JsonNode e : golden.get("events")) {
            double[] x = new double[e.get("x").size()];
            for (int j = 0; j < x.length; j++) {
                x[j] = e.get("x").get(j).asDouble();
            }
            events.add(new Event(x, e.get("w").asDouble(), e.get("t").asLong(), e.get("partition").asInt(),
                    e.get("label").asText(), e.get("observed").asText()));
        }
    }

    private static RunningGaussian stats(Map<String, RunningGaussian> classes, String label) {
        return classes.computeIfAbsent(label, l -> new RunningGaussian(golden.get("dimension").asInt()));
    }

    @Test
    void oneStreamEqualsTheBatchWeightedMle() {
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        for (Event e : events) {
            forgetting.update(stats(classes, e.label()), e.x(), e.w(), e.t());
        }
        assertGolden(golden.get("forgetting"), PooledClasses.of(List.of(classes), l -> true, forgetting));
    }

    @Test
    void fourPartitionsWithInterleavedAndLateEventsMergeToTheBatchFit() {
        List<SortedMap<String, RunningGaussian>> partitions = partitions();
        for (Event e : events) {
            forgetting.update(stats(partitions.get(e.partition()), e.label()), e.x(), e.w(), e.t());
        }
        // The partitions end at different reference times: the merge must rescale them first.
        assertTrue(partitions.stream().map(p -> p.get("a").referenceTime()).distinct().count() > 1);
        assertGolden(golden.get("forgetting"), PooledClasses.of(partitions, l -> true, forgetting));
    }

    @Test
    void retractionPlusAddEqualsTheCorrectedBatchFit() {
        List<SortedMap<String, RunningGaussian>> partitions = partitions();
        int corrected = 0;
        for (Event e : events) {
            forgetting.update(stats(partitions.get(e.partition()), e.observed()), e.x(), e.w(), e.t());
        }
        for (Event e : events) {
            if (!e.observed().equals(e.label())) {
                Map<String, RunningGaussian> p = partitions.get(e.partition());
                assertNull(forgetting.retract(stats(p, e.observed()), e.x(), e.w(), e.t()));
                forgetting.update(stats(p, e.label()), e.x(), e.w(), e.t());
                corrected++;
            }
        }
        assertTrue(corrected > 20, "the fixture corrects " + corrected + " events");
        SortedMap<String, RunningGaussian> pooled = PooledClasses.of(partitions, l -> true, forgetting);
        assertGolden(golden.get("forgetting"), pooled);
        long retracted = pooled.values().stream().mapToLong(RunningGaussian::retractions).sum();
        assertEquals(corrected, retracted);
    }

    @Test
    void weightsWithoutForgettingEqualTheBatchWeightedMle() {
        List<SortedMap<String, RunningGaussian>> partitions = partitions();
        for (Event e : events) {
            stats(partitions.get(e.partition()), e.label()).update(e.x(), e.w());
        }
        SortedMap<String, RunningGaussian> pooled = PooledClasses.of(partitions, l -> true);
        assertGolden(golden.get("weightsOnly"), pooled);
        assertEquals(RunningGaussian.NO_REFERENCE_TIME, pooled.get("a").referenceTime());
    }

    @Test
    void retractingEveryEventReturnsTheEmptyState() {
        for (boolean forget : new boolean[] {true, false}) {
            SortedMap<String, RunningGaussian> classes = new TreeMap<>();
            for (Event e : events) {
                apply(forget, stats(classes, e.label()), e, false);
            }
            List<Event> order = new ArrayList<>(events);
            Collections.shuffle(order, new Random(SHUFFLE_SEED));
            for (Event e : order) {
                assertNull(apply(forget, classes.get(e.label()), e, true), "retraction of " + e);
            }
            for (RunningGaussian g : classes.values()) {
                assertEquals(0, g.count());
                assertEquals(0.0, g.weight());
                assertEquals(0.0, g.squaredWeights());
                assertEquals(0.0, g.effectiveSampleSize());
                for (double m : g.mean()) {
                    assertEquals(0.0, m);
                }
                for (double[] row : g.scatter()) {
                    for (double s : row) {
                        assertEquals(0.0, s);
                    }
                }
            }
            assertEquals(events.size(), classes.values().stream().mapToLong(RunningGaussian::retractions).sum());
        }
    }

    private static String apply(boolean forget, RunningGaussian g, Event e, boolean retract) {
        if (forget) {
            if (retract) {
                return forgetting.retract(g, e.x(), e.w(), e.t());
            }
            forgetting.update(g, e.x(), e.w(), e.t());
            return null;
        }
        if (retract) {
            return g.retract(e.x(), e.w());
        }
        g.update(e.x(), e.w());
        return null;
    }

    private static List<SortedMap<String, RunningGaussian>> partitions() {
        List<SortedMap<String, RunningGaussian>> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new TreeMap<>());
        }
        return partitions;
    }

    private static void assertGolden(JsonNode expected, SortedMap<String, RunningGaussian> actual) {
        assertEquals(expected.size(), actual.size());
        double[] worst = {0};
        expected.fields().forEachRemaining(entry -> {
            String label = entry.getKey();
            JsonNode ref = entry.getValue();
            RunningGaussian g = actual.get(label);
            assertEquals(ref.get("count").asLong(), g.count(), label + " count");
            double w = ref.get("W").asDouble();
            assertEquals(w, g.weight(), GOLDEN_RELATIVE * w, label + " W");
            worst[0] = Math.max(worst[0], Math.abs(g.weight() - w) / w);
            double v = ref.get("V").asDouble();
            assertEquals(v, g.squaredWeights(), GOLDEN_RELATIVE * v, label + " V");
            double[] mean = g.mean();
            double[][] scatter = g.scatter();
            int d = mean.length;
            for (int i = 0; i < d; i++) {
                double sii = ref.get("scatter").get(i).get(i).asDouble();
                double sigma = Math.sqrt(sii / w);
                assertEquals(ref.get("mean").get(i).asDouble(), mean[i], GOLDEN_RELATIVE * sigma, label + " mean " + i);
                worst[0] = Math.max(worst[0], Math.abs(mean[i] - ref.get("mean").get(i).asDouble()) / sigma);
                for (int j = 0; j < d; j++) {
                    double scale = Math.sqrt(sii * ref.get("scatter").get(j).get(j).asDouble());
                    assertEquals(ref.get("scatter").get(i).get(j).asDouble(), scatter[i][j], GOLDEN_RELATIVE * scale,
                            label + " scatter " + i + "," + j);
                    worst[0] = Math.max(worst[0],
                            Math.abs(scatter[i][j] - ref.get("scatter").get(i).get(j).asDouble()) / scale);
                }
            }
        });
        System.out.printf("ForgettingGoldenTest: largest relative difference from the batch fit %.2e%n", worst[0]);
    }
}
