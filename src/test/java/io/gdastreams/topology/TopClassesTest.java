package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopClassesTest {

    private static final List<String> LABELS = List.of("a", "b", "c", "d", "e");

    @Test
    void shouldListEveryClassInModelOrderWhenKCoversThem() {
        double[] p = {0.1, 0.4, 0.2, 0.25, 0.05};
        TopClasses all = TopClasses.of(LABELS, p, 5);
        assertEquals(List.of("a", "b", "c", "d", "e"), List.copyOf(all.probabilities().keySet()));
        assertNull(all.otherProbability());
        assertNull(all.otherClasses());
        assertEquals(all, TopClasses.of(LABELS, p, 256));
    }

    @Test
    void shouldKeepTheKMostProbableInModelOrderAndSumTheOthersExactly() {
        double[] p = {0.1, 0.4, 0.2, 0.25, 0.05};
        TopClasses top = TopClasses.of(LABELS, p, 2);
        assertEquals(Map.of("b", 0.4, "d", 0.25), top.probabilities());
        assertEquals(List.of("b", "d"), List.copyOf(top.probabilities().keySet()));
        assertEquals(0.1 + 0.2 + 0.05, top.otherProbability(), 0.0);
        assertEquals(3, top.otherClasses());
    }

    @Test
    void shouldBreakTiesAtTheCutInFavourOfTheEarlierClass() {
        double[] p = {0.2, 0.2, 0.2, 0.2, 0.2};
        assertEquals(List.of("a", "b"), List.copyOf(TopClasses.of(LABELS, p, 2).probabilities().keySet()));
        double[] q = {0.1, 0.3, 0.3, 0.0, 0.3};
        assertEquals(List.of("b", "c"), List.copyOf(TopClasses.of(LABELS, q, 2).probabilities().keySet()));
    }

    @Test
    void shouldKeepATinyRemainderThatOneMinusTheListedSumWouldLose() {
        double[] p = {1.0 - 1e-30, 1e-30, 0.0, 0.0, 0.0};
        TopClasses top = TopClasses.of(LABELS, p, 1);
        assertEquals(1e-30, top.otherProbability(), 0.0);
        assertEquals(4, top.otherClasses());
    }

    @Test
    void shouldAlwaysListTheChosenClassInPlaceOfTheWeakestOfTheTopK() {
        double[] p = {0.5, 0.3, 0.1, 0.06, 0.04};
        TopClasses top = TopClasses.of(LABELS, p, 2, 4);
        assertEquals(List.of(LABELS.get(0), LABELS.get(4)), List.copyOf(top.probabilities().keySet()));
        assertEquals(0.3 + 0.1 + 0.06, top.otherProbability(), 1e-15);
        assertEquals(3, top.otherClasses());
        assertEquals(TopClasses.of(LABELS, p, 2), TopClasses.of(LABELS, p, 2, 1), "already among the top k");
        assertEquals(List.of(LABELS.get(3)), List.copyOf(TopClasses.of(LABELS, p, 1, 3).probabilities().keySet()));
    }
}
