package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
