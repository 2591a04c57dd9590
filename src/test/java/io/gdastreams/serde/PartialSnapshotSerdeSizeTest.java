package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The length guard of {@link PartialSnapshotSerde} (a length above a million must not exceed the bytes left) on a
 * class whose statistics are larger than a million bytes, and the consistency of category counts across classes.
 */
class PartialSnapshotSerdeSizeTest {

    /** d = 512: a packed scatter of 131,328 doubles, over a megabyte, the last bytes of the snapshot. */
    private static final int LARGE_DIMENSION = 512;

    @Test
    void shouldRoundTripAClassOfMoreThanAMillionBytes() {
        List<String> features = new ArrayList<>();
        double[] x = new double[LARGE_DIMENSION];
        double[] y = new double[LARGE_DIMENSION];
        for (int j = 0; j < LARGE_DIMENSION; j++) {
            features.add("f" + j);
            x[j] = j;
            y[j] = -0.5 * j;
        }
        RunningGaussian a = new RunningGaussian(LARGE_DIMENSION);
        a.update(x);
        a.update(y);
        assertTrue(a.toBytes().length > 1_000_000, a.toBytes().length + " bytes");
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("a", a);
        PartialSnapshot read = PartialSnapshotSerde.decode(PartialSnapshotSerde.encode(new PartialSnapshot("m",
                new PartitionProgress(0, 2, 2, 0, features), classes)));
        assertArrayEquals(a.toBytes(), read.classes().get("a").toBytes());
    }

    /** Two classes whose category counts are over different features are not one snapshot's. */
    @Test
    void shouldRefuseCategoryCountsOverOtherFeaturesInAnotherClass() {
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        SortedMap<String, CategoryCounts> categories = new TreeMap<>();
        for (String[] c : new String[][] {{"a", "student"}, {"b", "colour"}}) {
            RunningGaussian g = new RunningGaussian(1);
            g.update(new double[] {1});
            classes.put(c[0], g);
            CategoryCounts counts = new CategoryCounts(List.of(c[1]));
            counts.update(new String[] {"v"});
            categories.put(c[0], counts);
        }
        byte[] bytes = PartialSnapshotSerde.encode(new PartialSnapshot("m",
                new PartitionProgress(0, 2, 2, 0, List.of("x")), classes, categories));
        SerializationException e = assertThrows(SerializationException.class, () -> PartialSnapshotSerde.decode(bytes));
        assertEquals("class 'b' has categorical features [colour], another class [student]", e.getMessage());
    }
}
