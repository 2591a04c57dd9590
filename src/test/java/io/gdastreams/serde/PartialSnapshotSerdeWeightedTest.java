package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.Forgetting;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * Version 3 of the partial snapshot (weighted statistics), written out field by field as the Javadoc of
 * {@link PartialSnapshotSerde} and {@link RunningGaussian#toBytes()} state it; it is written only when a class is
 * weighted, and a weighted class in a version 1 snapshot is refused.
 */
class PartialSnapshotSerdeWeightedTest {

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /** Model m, partition 3, next offset 5, applied {@code applied}, dead-lettered 0, feature x, class a. */
    private static byte[] layout(int version, long applied, byte[] classA) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        out.writeByte(version);
        string(out, "m");
        out.writeInt(3);
        out.writeLong(5);
        out.writeLong(applied);
        out.writeLong(0);
        out.writeInt(1);
        string(out, "x");
        out.writeInt(1);
        string(out, "a");
        out.writeInt(classA.length);
        out.write(classA);
        return buffer.toByteArray();
    }

    /** x = 1 (w 2, t 1000), x = 3 (w 1, t 2000), x = 5 (w 1, t 2000) retracted; h = 1000: 4 events. */
    private static RunningGaussian weighted() {
        Forgetting f = new Forgetting(1000);
        RunningGaussian g = new RunningGaussian(1);
        f.update(g, new double[] {1}, 2, 1000);
        f.update(g, new double[] {3}, 1, 2000);
        f.update(g, new double[] {5}, 1, 2000);
        f.retract(g, new double[] {5}, 1, 2000);
        return g;
    }

    @Test
    void aWeightedSnapshotIsVersionThreeInTheDocumentedLayout() throws IOException {
        RunningGaussian a = weighted();
        // Hand values: weights 1 and 1 at T = 2000: W = 2, V = 2, μ = 2, S = 2; count 2, one retraction.
        ByteBuffer stats = ByteBuffer.wrap(a.toBytes());
        assertEquals(2, stats.get(), "RunningGaussian version 2");
        assertEquals(1, stats.getInt());
        assertEquals(2, stats.getLong(), "count");
        assertEquals(1, stats.getLong(), "retractions");
        assertEquals(2.0, stats.getDouble(), 1e-15, "W");
        assertEquals(2.0, stats.getDouble(), 1e-15, "V");
        assertEquals(2000, stats.getLong(), "reference time");
        assertEquals(1.0, stats.getDouble(), "pivot");
        assertEquals(1.0, stats.getDouble(), 1e-15, "μ − pivot");
        assertEquals(2.0, stats.getDouble(), 1e-15, "S");
        assertTrue(!stats.hasRemaining());

        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("a", a);
        PartialSnapshot snapshot = new PartialSnapshot("m", new PartitionProgress(3, 5, 4, 0, List.of("x")), classes);
        byte[] encoded = PartialSnapshotSerde.encode(snapshot);
        assertArrayEquals(layout(3, 4, a.toBytes()), encoded);
        PartialSnapshot back = PartialSnapshotSerde.decode(encoded);
        assertArrayEquals(a.toBytes(), back.classes().get("a").toBytes());
        assertEquals(4, back.classCount(), "count + 2·retractions");
    }

    @Test
    void inconsistentOrMislabelledWeightedSnapshotsAreRefused() throws IOException {
        byte[] a = weighted().toBytes();
        SerializationException inV1 = assertThrows(SerializationException.class,
                () -> PartialSnapshotSerde.decode(layout(1, 4, a)));
        assertEquals("class 'a' has weighted statistics in a version 1 snapshot", inV1.getMessage());
        SerializationException count = assertThrows(SerializationException.class,
                () -> PartialSnapshotSerde.decode(layout(3, 2, a)));
        assertEquals("class counts sum to 4 but 2 events are said to be applied", count.getMessage());
    }

    @Test
    void anUnweightedSnapshotIsStillVersionOne() throws IOException {
        RunningGaussian plain = new RunningGaussian(1);
        plain.update(new double[] {1}, 1.0);
        plain.update(new double[] {2}, 1.0);
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("a", plain);
        PartialSnapshot snapshot = new PartialSnapshot("m", new PartitionProgress(3, 5, 2, 0, List.of("x")), classes);
        assertArrayEquals(layout(1, 2, plain.toBytes()), PartialSnapshotSerde.encode(snapshot));
    }
}
