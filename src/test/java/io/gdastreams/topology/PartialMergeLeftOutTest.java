package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.MODEL_ID;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.Forgetting;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The model of partition snapshots with some classes left out (those beyond the record limit). */
class PartialMergeLeftOutTest {

    private static final List<String> X = List.of("x");
    private static final List<String> STUDENT = List.of("student");
    private static final String AT = "2026-01-01T00:00:00Z";
    /** Weights 2^-k of a half-life of 1 s and their sums: exact up to an ulp or two. */
    private static final double CLOSE = 1e-15;

    /** A left-out class's retraction is an applied event that also took one observation away: it counts twice. */
    @Test
    void shouldCountTheAppliedEventsOfTheLeftOutClassesRetractionsIncluded() {
        RunningGaussian a = new RunningGaussian(1);
        a.update(new double[] {0});
        a.update(new double[] {1});
        RunningGaussian b = new RunningGaussian(1);
        b.update(new double[] {5});
        b.update(new double[] {6});
        b.update(new double[] {8});
        assertNull(b.retract(new double[] {6}, 1.0));
        RunningGaussian bElsewhere = new RunningGaussian(1);
        bElsewhere.update(new double[] {7});
        // Partition 0 read 2 events of a, 3 of b and a retraction of one of them; partition 1 one event of b.
        PartialSnapshot p0 = snapshot(0, 6, classes("a", a, "b", b), new TreeMap<>());
        PartialSnapshot p1 = snapshot(1, 1, classes("b", bElsewhere, null, null), new TreeMap<>());

        ModelParameters model = PartialMerge.model(List.of(p0, p1), Set.of("b"), X, MODEL_ID, 1, AT, "t");
        assertEquals(List.of("a"), model.classes().stream().map(ClassParameters::label).toList());
        assertEquals(2, model.totalCount());
        assertEquals(3 + 1 + 1, model.leftOut(), "b's events: 3 read and 1 retraction, then 1 on partition 1");
    }

    /**
     * Under forgetting a class's statistics and its category counts refer to the same time, the latest of the classes
     * in the model: a left-out class seen later (the newest classes are the ones left out) decays neither. Half-life
     * 1 s: a's events at 1 s ("No") and 2 s ("Yes"), b's at 3 s.
     */
    @Test
    void shouldAlignTheCategoryCountsToTheClassesInTheModelOnly() {
        Forgetting forgetting = new Forgetting(1000);
        RunningGaussian a = new RunningGaussian(1);
        CategoryCounts aCounts = new CategoryCounts(STUDENT);
        forgetting.update(a, new double[] {0}, 1.0, 1000);
        forgetting.update(aCounts, new String[] {"No"}, 1.0, 1000);
        forgetting.update(a, new double[] {1}, 1.0, 2000);
        forgetting.update(aCounts, new String[] {"Yes"}, 1.0, 2000);
        RunningGaussian b = new RunningGaussian(1);
        CategoryCounts bCounts = new CategoryCounts(STUDENT);
        forgetting.update(b, new double[] {5}, 1.0, 3000);
        forgetting.update(bCounts, new String[] {"Maybe"}, 1.0, 3000);
        TreeMap<String, CategoryCounts> categories = new TreeMap<>();
        categories.put("a", aCounts);
        categories.put("b", bCounts);
        PartialSnapshot p0 = snapshot(0, 3, classes("a", a, "b", b), categories);

        ModelParameters model = PartialMerge.model(List.of(p0), Set.of("b"), X, MODEL_ID, 1, AT, "t", forgetting);
        ClassParameters onlyA = model.classes().get(0);
        assertEquals(List.of("a"), model.classes().stream().map(ClassParameters::label).toList());
        // At a's latest time, 2 s: the event of 1 s weighs 2^-1, that of 2 s 1.
        assertEquals(0.5 + 1.0, onlyA.effectiveCount(), CLOSE);
        CategoricalTable student = model.categorical().get(0);
        assertEquals(List.of("No", "Yes"), student.values(), "b's value is not in the model");
        assertArrayEquals(new double[] {0.5, 1.0}, student.weightsOf(0), CLOSE);
    }

    private static TreeMap<String, RunningGaussian> classes(String l1, RunningGaussian g1, String l2,
                                                            RunningGaussian g2) {
        TreeMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put(l1, g1);
        if (l2 != null) {
            classes.put(l2, g2);
        }
        return classes;
    }

    private static PartialSnapshot snapshot(int partition, long applied, TreeMap<String, RunningGaussian> classes,
                                            TreeMap<String, CategoryCounts> categories) {
        return new PartialSnapshot(MODEL_ID, new PartitionProgress(partition, applied, applied, 0, X), classes,
                categories);
    }
}
