package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.MODEL_ID;
import static io.gdastreams.topology.CombinerFixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The next model record: the merge of the kept snapshots, within the record limit. */
class ModelDraftTest {

    private static final List<String> AB = List.of("a", "b");
    private static final long NO_LIMIT = Long.MAX_VALUE;
    private static final String AT = "2026-01-01T00:00:00Z";
    private static final List<PartialSnapshot> THREE_CLASSES = List.of(
            snapshot(0, AB, Map.of("k1", new double[][] {{1, 2}, {3, 6}}, "k3", new double[][] {{0, 0}})),
            snapshot(1, AB, Map.of("k2", new double[][] {{5, 1}, {2, 2}})));

    private static ModelDraft.Ready ready(ModelDraft.Result result) {
        return assertInstanceOf(ModelDraft.Ready.class, result);
    }

    private static int bytesOf(List<PartialSnapshot> partials) {
        return ready(new ModelDraft(MODEL_ID, NO_LIMIT).draft(partials, AB, 7, AT, "app", Set.of())).bytes().length;
    }

    @Test
    void shouldDraftTheMergeOfAllSnapshotsWhenItFits() {
        ModelDraft.Ready ready = ready(new ModelDraft(MODEL_ID, NO_LIMIT).draft(THREE_CLASSES, AB, 7, AT, "app",
                Set.of()));
        assertEquals(List.of("k1", "k2", "k3"), ready.model().classes().stream().map(ClassParameters::label).toList());
        assertEquals(7, ready.model().version());
        assertEquals(Map.of("0", 3L, "1", 2L), ready.model().sources());
        assertEquals("app", ready.model().trainer());
        assertTrue(ready.leftOut().isEmpty());
    }

    @Test
    void shouldLeaveOutTheLastUnpublishedClassesInLabelOrderUntilTheModelFits() {
        // The model of k1 and k2, plus the field that counts k3's one event.
        int withoutK3 = bytesOf(List.of(snapshot(0, AB, Map.of("k1", new double[][] {{1, 2}, {3, 6}})),
                THREE_CLASSES.get(1))) + ",\"leftOut\":1".length();
        ModelDraft limited = new ModelDraft(MODEL_ID, withoutK3);

        ModelDraft.Ready ready = ready(limited.draft(THREE_CLASSES, AB, 7, AT, "app", Set.of()));

        assertEquals(Set.of("k3"), ready.leftOut());
        assertEquals(List.of("k1", "k2"), ready.model().classes().stream().map(ClassParameters::label).toList());
        assertEquals(4, ready.model().totalCount(), "k3's event counts in no class");
        assertEquals(1, ready.model().leftOut(), "but in the model's leftOut");
        assertEquals(5, ready.model().eventsAbsorbed(), "every event the lineage applied");
        assertEquals(Map.of("0", 3L, "1", 2L), ready.model().sources(), "the lineage is the snapshots'");
        assertEquals(withoutK3, ready.bytes().length);

        ModelDraft.Ready keepingK3 = ready(limited.draft(THREE_CLASSES, AB, 7, AT, "app", Set.of("k3")));
        assertFalse(keepingK3.leftOut().contains("k3"), "a published class is never left out: " + keepingK3.leftOut());
        assertTrue(keepingK3.model().classes().stream().anyMatch(c -> c.label().equals("k3")));
    }

    @Test
    void shouldLeaveOutTheNewestUnpublishedClassesBeyondTheClassBoundEvenWhenTheBytesFit() {
        ModelDraft boundToTwo = new ModelDraft(MODEL_ID, NO_LIMIT, null, features -> 2);

        ModelDraft.Ready fresh = ready(boundToTwo.draft(THREE_CLASSES, AB, 7, AT, "app", Set.of()));
        assertEquals(Set.of("k3"), fresh.leftOut());
        assertEquals(List.of("k1", "k2"), fresh.model().classes().stream().map(ClassParameters::label).toList());

        ModelDraft.Ready k3Published = ready(boundToTwo.draft(THREE_CLASSES, AB, 7, AT, "app", Set.of("k3")));
        assertEquals(Set.of("k2"), k3Published.leftOut(), "the newest unpublished class goes, never a published one");

        // Published classes over the bound (a smaller limit since) stay; the unpublished rest goes.
        ModelDraft boundToOne = new ModelDraft(MODEL_ID, NO_LIMIT, null, features -> 1);
        ModelDraft.Ready overBound = ready(boundToOne.draft(THREE_CLASSES, AB, 7, AT, "app", Set.of("k1", "k2")));
        assertEquals(Set.of("k3"), overBound.leftOut());
        ModelDraft.Ready allPublished = ready(boundToOne.draft(THREE_CLASSES, AB, 7, AT, "app",
                Set.of("k1", "k2", "k3")));
        assertTrue(allPublished.leftOut().isEmpty(), "only bytes decide then: " + allPublished.leftOut());
    }

    @Test
    void shouldBoundATrainersDraftByTheClassesItsTasksAdmit() {
        // Room for two classes at d = 2 by ModelSizeBound, while the three-class model's bytes fit many times over.
        long limit = ModelSizeBound.HEADER_BYTES + ModelSizeBound.classBytes(AB.size()) * 5 / 2 + 2 * (6 + 3);
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId(MODEL_ID)
                .withMaxModelBytes(limit);
        assertEquals(2, ModelSizeBound.maxClasses(AB, settings));
        assertTrue(bytesOf(THREE_CLASSES) < limit / 100);

        ModelDraft.Ready ready = ready(ModelDraft.of(settings).draft(THREE_CLASSES, AB, 7, AT, "app", Set.of()));

        assertEquals(Set.of("k3"), ready.leftOut());
    }

    @Test
    void shouldPublishNothingWhenThePublishedClassesAloneExceedTheLimit() {
        ModelDraft.Result result = new ModelDraft(MODEL_ID, 100).draft(THREE_CLASSES, AB, 7, AT, "app",
                Set.of("k1", "k2"));

        String notice = assertInstanceOf(ModelDraft.TooLarge.class, result).notice();
        assertTrue(notice.startsWith("model 'm' would be "), notice);
        assertTrue(notice.endsWith(" bytes, over the record limit 100, with only the classes it already published;"
                + " not published"), notice);
    }

    @Test
    void shouldHaveNothingToDraftFromSnapshotsWithoutEvents() {
        PartialSnapshot deadLettersOnly = new PartialSnapshot(MODEL_ID, new PartitionProgress(0, 9, 0, 9, List.of()),
                new TreeMap<>());
        assertInstanceOf(ModelDraft.NoEvents.class,
                new ModelDraft(MODEL_ID, NO_LIMIT).draft(List.of(deadLettersOnly), List.of(), 1, AT, "app", Set.of()));
    }

    @Test
    void shouldLeaveOutExactlyTheFewestNewestClassesThatFitAtEveryLimit() {
        // Twelve classes of different sizes (1 to 12 points: priors and means of different lengths) on two partitions.
        Map<String, double[][]> even = new TreeMap<>();
        Map<String, double[][]> odd = new TreeMap<>();
        java.util.Random random = new java.util.Random(17);
        for (int c = 0; c < 12; c++) {
            double[][] points = new double[c + 1][];
            for (int i = 0; i <= c; i++) {
                points[i] = new double[] {random.nextGaussian() * (c + 1), random.nextGaussian()};
            }
            (c % 2 == 0 ? even : odd).put(String.format("c%02d", c), points);
        }
        List<PartialSnapshot> partials = List.of(snapshot(0, AB, even), snapshot(1, AB, odd));
        Set<String> published = Set.of("c00", "c01");
        List<String> newestFirst = new java.util.ArrayList<>(List.of("c11", "c10", "c09", "c08", "c07", "c06", "c05",
                "c04", "c03", "c02"));
        // The reference: the size with the k newest left out, by the merge and the serialiser, k = 0 … 10.
        int[] size = new int[newestFirst.size() + 1];
        for (int k = 0; k <= newestFirst.size(); k++) {
            Set<String> leftOut = new TreeSet<>(newestFirst.subList(0, k));
            size[k] = io.gdastreams.serde.SerdeFactory.model().serializer().serialize(null,
                    PartialMerge.model(partials, leftOut, AB, MODEL_ID, 7, AT, "app")).length;
        }
        int checked = 0;
        for (int limit = size[newestFirst.size()] - 3; limit <= size[0] + 3; limit += 7) {
            ModelDraft.Result result = new ModelDraft(MODEL_ID, limit).draft(partials, AB, 7, AT, "app", published);
            int fewest = 0;
            while (fewest <= newestFirst.size() && size[fewest] > limit) {
                fewest++;
            }
            if (fewest > newestFirst.size()) {
                assertInstanceOf(ModelDraft.TooLarge.class, result, "limit " + limit);
            } else {
                ModelDraft.Ready ready = ready(result);
                assertEquals(new TreeSet<>(newestFirst.subList(0, fewest)), ready.leftOut(), "limit " + limit);
                assertEquals(size[fewest], ready.bytes().length, "limit " + limit);
            }
            checked++;
        }
        assertTrue(checked > 50, "limits checked: " + checked);
    }
}
