package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * A partial snapshot with diagonal-only statistics is version 4 (the general layout), written out field by field as
 * the Javadoc of {@link PartialSnapshotSerde} states it: classes, an empty category section, the reset generation
 * (0, 0 dropped); full statistics keep their earlier versions, and a diagonal class in another version is refused.
 */
class PartialSnapshotSerdeDiagonalTest {

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /** Model m, partition 3, next offset 5, applied 2, dead-lettered 0, features x y, class a; then categories. */
    private static byte[] layout(int version, byte[] classA, boolean categorySection) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        out.writeByte(version);
        string(out, "m");
        out.writeInt(3);
        out.writeLong(5);
        out.writeLong(2);
        out.writeLong(0);
        out.writeInt(2);
        string(out, "x");
        string(out, "y");
        out.writeInt(1);
        string(out, "a");
        out.writeInt(classA.length);
        out.write(classA);
        if (categorySection) {
            out.writeInt(0);
        }
        if (version == 4) {
            out.writeLong(0); // reset generation
            out.writeLong(0); // events dropped by resets
        }
        return buffer.toByteArray();
    }

    private static RunningGaussian diagonal() {
        RunningGaussian g = RunningGaussian.diagonal(2);
        g.update(new double[] {1, 2});
        g.update(new double[] {3, 6});
        return g;
    }

    private static PartialSnapshot snapshot(RunningGaussian a) {
        SortedMap<String, RunningGaussian> classes = new TreeMap<>(Map.of("a", a));
        return new PartialSnapshot("m", new PartitionProgress(3, 5, 2, 0, List.of("x", "y")), classes,
                new TreeMap<>());
    }

    @Test
    void aDiagonalClassIsWrittenAsVersionFourFieldByField() throws IOException {
        RunningGaussian a = diagonal();
        byte[] expected = layout(4, a.toBytes(), true);
        assertArrayEquals(expected, PartialSnapshotSerde.encode(snapshot(a)));
        PartialSnapshot back = PartialSnapshotSerde.decode(expected);
        RunningGaussian g = back.classes().get("a");
        assertTrue(g.isDiagonal());
        assertArrayEquals(new double[] {2, 4}, g.mean(), 0.0);
        // S_00 = 1 + 1, S_11 = 4 + 4; the off-diagonal is not kept.
        assertArrayEquals(new double[] {2, 0}, g.scatter()[0], 0.0);
        assertArrayEquals(new double[] {0, 8}, g.scatter()[1], 0.0);
    }

    @Test
    void aFullSnapshotIsStillVersionOneAndADiagonalClassInAnEarlierVersionIsRefused() throws IOException {
        RunningGaussian full = new RunningGaussian(2);
        full.update(new double[] {1, 2});
        full.update(new double[] {3, 6});
        assertEquals(1, PartialSnapshotSerde.encode(snapshot(full))[0]);
        for (int version : new int[] {1, 3}) { // 2 and 4 with a category section; 1 and 3 without
            SerializationException e = assertThrows(SerializationException.class,
                    () -> PartialSnapshotSerde.decode(layout(version, diagonal().toBytes(), false)));
            assertEquals("class 'a' has diagonal statistics in a version " + version + " snapshot", e.getMessage());
        }
    }
}
