package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ResetGeneration;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

/**
 * Partial snapshots after a drift reset (version 4 of {@link PartialSnapshotSerde}): the events the resets dropped
 * count towards those applied, a snapshot taken right after a reset has no class at all, and category counts are
 * kept beside the generation. Through the topic's serde, which passes a tombstone through as null.
 */
class PartialSnapshotSerdeResetTest {

    private static final String TOPIC = "partials";

    private final Serde<PartialSnapshot> serde = SerdeFactory.partialSnapshot();

    private PartialSnapshot roundTrip(PartialSnapshot snapshot) {
        return serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, snapshot));
    }

    /** Right after a reset of generation 1 that dropped 5 events: no class yet, applied = dropped = 5. */
    @Test
    void shouldRoundTripASnapshotWithNoClassAfterAReset() {
        PartialSnapshot empty = new PartialSnapshot("m", new PartitionProgress(0, 9, 5, 4, List.of("x")),
                new TreeMap<>(), new TreeMap<>(), new ResetGeneration(1, 5));
        PartialSnapshot read = roundTrip(empty);
        assertTrue(read.classes().isEmpty());
        assertTrue(read.categories().isEmpty());
        assertEquals(new ResetGeneration(1, 5), read.generation());
        assertEquals(empty.progress(), read.progress());
    }

    /** Generation 2 (3 events dropped) with a class of 2 events and its category counts: applied = 3 + 2. */
    @Test
    void shouldRoundTripCategoryCountsBesideTheResetGeneration() {
        RunningGaussian a = new RunningGaussian(1);
        a.update(new double[] {1});
        a.update(new double[] {3});
        CategoryCounts counts = new CategoryCounts(List.of("student"));
        counts.update(new String[] {"Yes"});
        counts.update(new String[] {"No"});
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("a", a);
        SortedMap<String, CategoryCounts> categories = new TreeMap<>();
        categories.put("a", counts);
        PartialSnapshot snapshot = new PartialSnapshot("m", new PartitionProgress(2, 7, 5, 0, List.of("x")), classes,
                categories, new ResetGeneration(2, 3));

        PartialSnapshot read = roundTrip(snapshot);
        assertEquals(new ResetGeneration(2, 3), read.generation());
        assertEquals(List.of("student"), read.categories().get("a").features());
        assertEquals(1L, read.categories().get("a").counts(0).get("Yes"));
        assertEquals(2L, read.classes().get("a").count());
        assertArrayEquals(a.toBytes(), read.classes().get("a").toBytes());
    }

    @Test
    void shouldPassATombstoneThroughAsNull() {
        assertNull(serde.serializer().serialize(TOPIC, null));
        assertNull(serde.deserializer().deserialize(TOPIC, null));
    }
}
