package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfusionMatrixTest {

    @Test
    void shouldPutPredictedLabelsInRowsAndTrueLabelsInColumns() {
        ConfusionMatrix matrix = new ConfusionMatrix(List.of("a", "b"));
        matrix.add("a", "a");
        matrix.add("a", "b");
        matrix.add("b", "b");
        matrix.add(null, "b");
        assertEquals(1, matrix.count("a", "b"));
        assertEquals(0, matrix.count("b", "a"));
        assertEquals(2, matrix.correct());
        assertEquals(4, matrix.total());
        assertEquals(List.of(
                "predicted \\ true  a  b",
                "a                 1  1",
                "b                 0  1",
                "(unscored)        0  1",
                "accuracy: 2/4 = 50.00%"), matrix.render());
    }

    @Test
    void shouldSayThereIsNoAccuracyRatherThanNaNWhenNoRowHasATrueLabel() {
        ConfusionMatrix matrix = new ConfusionMatrix(List.of("a", "b"));
        assertEquals(List.of(
                "predicted \\ true  a  b",
                "a                 0  0",
                "b                 0  0",
                "accuracy: none (no scored row has a true label)"), matrix.render());
    }
}
