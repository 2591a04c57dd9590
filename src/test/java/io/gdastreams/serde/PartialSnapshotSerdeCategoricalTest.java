package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The binary layouts of a partial snapshot, written out field by field here as the Javadoc of
 * {@link PartialSnapshotSerde} states them: version 1 (no categorical feature, the layout of before) and version 2
 * (category counts after the classes). Both must keep loading from the combiner's store and the partials topic.
 */
class PartialSnapshotSerdeCategoricalTest {

    private static RunningGaussian stats(double... xs) {
        RunningGaussian g = new RunningGaussian(1);
        for (double x : xs) {
            g.update(new double[] {x});
        }
        return g;
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /** The layout up to and including the classes: model m, partition 3, offsets 2/2/0, feature x, class a. */
    private static void head(DataOutputStream out, int version, RunningGaussian a) throws IOException {
        out.writeByte(version);
        string(out, "m");
        out.writeInt(3);
        out.writeLong(2);
        out.writeLong(2);
        out.writeLong(0);
        out.writeInt(1);
        string(out, "x");
        out.writeInt(1);
        string(out, "a");
        byte[] bytes = a.toBytes();
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    @Test
    void shouldReadAndWriteVersionOneForASnapshotWithoutCategories() throws IOException {
        RunningGaussian a = stats(1, 3);
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        head(new DataOutputStream(buffer), 1, a);
        byte[] pinned = buffer.toByteArray();
        PartialSnapshot read = PartialSnapshotSerde.decode(pinned);
        assertTrue(read.categories().isEmpty());
        assertEquals(2, read.classes().get("a").count());
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("a", a);
        assertArrayEquals(pinned, PartialSnapshotSerde.encode(new PartialSnapshot("m",
                new PartitionProgress(3, 2, 2, 0, List.of("x")), classes)), "version 1, byte for byte");
    }

    @Test
    void shouldReadAndWriteVersionTwoWithTheCategoryCountsAfterTheClasses() throws IOException {
        RunningGaussian a = stats(1, 3);
        CategoryCounts counts = new CategoryCounts(List.of("student"));
        counts.update(new String[] {"Yes"});
        counts.update(new String[] {"No"});
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        head(out, 2, a);
        out.writeInt(1);
        string(out, "a");
        byte[] countBytes = counts.toBytes();
        out.writeInt(countBytes.length);
        out.write(countBytes);
        byte[] pinned = buffer.toByteArray();

        PartialSnapshot read = PartialSnapshotSerde.decode(pinned);
        assertEquals(List.of("student"), read.categories().get("a").features());
        assertEquals(1L, read.categories().get("a").counts(0).get("Yes"));
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("a", a);
        SortedMap<String, CategoryCounts> categories = new TreeMap<>();
        categories.put("a", counts);
        assertArrayEquals(pinned, PartialSnapshotSerde.encode(new PartialSnapshot("m",
                new PartitionProgress(3, 2, 2, 0, List.of("x")), classes, categories)), "version 2, byte for byte");
    }

    @Test
    void shouldRefuseCategoryCountsThatDoNotMatchTheClasses() throws IOException {
        CategoryCounts one = new CategoryCounts(List.of("student"));
        one.update(new String[] {"Yes"});
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        head(out, 2, stats(1, 3));
        out.writeInt(1);
        string(out, "a");
        out.writeInt(one.toBytes().length);
        out.write(one.toBytes());
        SerializationException e = assertThrows(SerializationException.class,
                () -> PartialSnapshotSerde.decode(buffer.toByteArray()));
        assertTrue(e.getMessage().contains("class 'a' counts 2 events but its category counts 1"), e.getMessage());
    }
}
