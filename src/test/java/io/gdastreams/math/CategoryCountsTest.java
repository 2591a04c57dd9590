package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Per-class value counts: hand counts, an exact merge, and a binary form that refuses damage. */
class CategoryCountsTest {

    private static final long SEED = 11;
    private static final List<String> FEATURES = List.of("colour", "student");

    @Test
    void shouldCountEachValueOfEachFeature() {
        CategoryCounts counts = new CategoryCounts(FEATURES);
        counts.update(new String[] {"red", "Yes"});
        counts.update(new String[] {"red", "No"});
        counts.update(new String[] {"blue", "No"});
        assertEquals(3, counts.count());
        assertEquals(new TreeMap<>(Map.of("red", 2L, "blue", 1L)), counts.counts(0));
        assertEquals(new TreeMap<>(Map.of("Yes", 1L, "No", 2L)), counts.counts(1));
        assertEquals(2, counts.distinctValues(0));
        assertTrue(counts.contains(0, "blue"));
        assertEquals(List.of("blue", "red"), List.copyOf(counts.counts(0).keySet()), "value order");
    }

    @Test
    void shouldMergeExactlyAsTheCountsOfTheUnion() {
        SplittableRandom random = new SplittableRandom(SEED);
        String[][] rows = new String[1000][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new String[] {"v" + random.nextInt(7), random.nextBoolean() ? "true" : "false"};
        }
        CategoryCounts all = new CategoryCounts(FEATURES);
        CategoryCounts[] parts = {new CategoryCounts(FEATURES), new CategoryCounts(FEATURES),
                new CategoryCounts(FEATURES)};
        for (int i = 0; i < rows.length; i++) {
            all.update(rows[i]);
            parts[random.nextInt(parts.length)].update(rows[i]);
        }
        CategoryCounts merged = new CategoryCounts(FEATURES);
        for (CategoryCounts part : parts) {
            merged.merge(part);
        }
        assertEquals(all.count(), merged.count());
        for (int j = 0; j < FEATURES.size(); j++) {
            assertEquals(all.counts(j), merged.counts(j));
        }
        assertArrayEquals(all.toBytes(), merged.toBytes(), "equal counts, equal bytes");
        SortedMap<String, CategoryCounts> pooled = CategoryCounts.pooled(
                List.of(Map.of("a", parts[0]), Map.of("a", parts[1], "b", parts[2])), label -> true);
        assertEquals(parts[0].count() + parts[1].count(), pooled.get("a").count());
        assertEquals(parts[2].count(), pooled.get("b").count());
    }

    @Test
    void shouldRoundTripItsBinaryForm() {
        CategoryCounts counts = new CategoryCounts(FEATURES);
        counts.update(new String[] {"größe ✓", "Yes"});
        counts.update(new String[] {"", "Yes"});
        CategoryCounts read = CategoryCounts.fromBytes(counts.toBytes());
        assertEquals(FEATURES, read.features());
        assertEquals(2, read.count());
        assertEquals(counts.counts(0), read.counts(0));
        assertEquals(counts.counts(1), read.counts(1));
    }

    @Test
    void shouldRefuseDamagedBytes() {
        CategoryCounts counts = new CategoryCounts(FEATURES);
        counts.update(new String[] {"red", "Yes"});
        byte[] bytes = counts.toBytes();
        byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 1);
        assertThrows(IllegalArgumentException.class, () -> CategoryCounts.fromBytes(truncated));
        byte[] version = bytes.clone();
        version[0] = 9;
        assertThrows(IllegalArgumentException.class, () -> CategoryCounts.fromBytes(version));
        byte[] trailing = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(IllegalArgumentException.class, () -> CategoryCounts.fromBytes(trailing));
        // n is the long after the version, the count and the two names (4 + 6, 4 + 7 bytes).
        byte[] wrongTotal = bytes.clone();
        wrongTotal[1 + 4 + 10 + 11 + 7] = 2;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CategoryCounts.fromBytes(wrongTotal));
        assertTrue(e.getMessage().contains("count 1 observations, not 2"), e.getMessage());
    }

    @Test
    void shouldRefuseAnIncompleteObservationOrForeignFeatures() {
        CategoryCounts counts = new CategoryCounts(FEATURES);
        assertThrows(IllegalArgumentException.class, () -> counts.update(new String[] {"red"}));
        assertThrows(IllegalArgumentException.class, () -> counts.update(new String[] {"red", null}));
        assertThrows(IllegalArgumentException.class, () -> counts.merge(new CategoryCounts(List.of("colour"))));
        assertEquals(0, counts.count());
    }

    @Test
    void weightsRetractionsAndDecayKeepTheRawCountsAndWeighTheValues() {
        CategoryCounts c = new CategoryCounts(List.of("colour"));
        c.update(new String[] {"red"});
        byte[] unweighted = c.toBytes();
        assertEquals(1, unweighted[0], "weights all 1: version 1");
        c.update(new String[] {"red"}, 0.5);
        c.update(new String[] {"blue"}, 2.0);
        assertTrue(c.isWeighted());
        assertEquals(3, c.count());
        assertEquals(3.5, c.weight());
        assertEquals(1.5, c.weights(0).get("red"));
        c.rescale(0.5, 1000);
        assertEquals(1.75, c.weight(), "decay halves every weight");
        assertEquals(1.0, c.weights(0).get("blue"));
        assertEquals("categorical feature 'colour' has no observation of value 'green' in this class",
                c.retractionProblem(new String[] {"green"}, 1));
        assertTrue(c.retractionProblem(new String[] {"blue"}, 1.5).startsWith("the retracted weight 1.5 exceeds"));
        c.retract(new String[] {"blue"}, 1.0);
        assertEquals(2, c.count());
        assertFalse(c.contains(0, "blue"), "a value whose raw count falls to 0 is forgotten");
        assertEquals(0.75, c.weight());
        CategoryCounts back = CategoryCounts.fromBytes(c.toBytes());
        assertEquals(2, c.toBytes()[0], "weighted: version 2");
        assertEquals(0.75, back.weights(0).get("red"));
        assertEquals(2L, back.counts(0).get("red"));
        assertEquals(1000, back.referenceTime());
        assertArrayEquals(c.toBytes(), back.toBytes());
    }
}
