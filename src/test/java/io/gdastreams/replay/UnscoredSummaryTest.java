package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.model.Prediction;
import io.gdastreams.replay.ReplayDataset.ScoringRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The replay's summary of unscored rows: grouped by the reason's category, counted, most frequent first, bounded. */
class UnscoredSummaryTest {

    private static ScoringRow row(int line) {
        return new ScoringRow(line, "id" + line, new byte[0], null);
    }

    private static Prediction scored(int line) {
        return Prediction.scored("id" + line, "a", Map.of("a", 1.0), -1.0, "m", 1L, null, null);
    }

    private static Prediction unscored(int line, String reason) {
        return Prediction.unscored("id" + line, reason, "m", 1L);
    }

    @Test
    void shouldCountEachCategoryWithItsFirstRowMostFrequentFirst() {
        List<Prediction> predictions = List.of(scored(2), unscored(3, "no model yet"),
                unscored(4, "invalid event: features is empty"), scored(5),
                unscored(6, "invalid event: feature 'x' is not a number: \"wide\""),
                unscored(7, "id too long: 1100 bytes of UTF-8 > 1024"),
                unscored(8, "invalid event: missing features"));
        List<ScoringRow> rows = List.of(row(2), row(3), row(4), row(5), row(6), row(7), row(8));
        assertEquals(List.of(
                "Unscored rows by reason:",
                "  invalid event: 3 (first: line 4, invalid event: features is empty)",
                "  id too long: 1 (first: line 7, id too long: 1100 bytes of UTF-8 > 1024)",
                "  no model yet: 1 (first: line 3, no model yet)"),
                UnscoredSummary.of(predictions, rows).render());
    }

    @Test
    void shouldPrintNothingWhenEveryRowWasScored() {
        assertEquals(List.of(), UnscoredSummary.of(List.of(scored(2), scored(3)), List.of(row(2), row(3))).render());
    }

    @Test
    void shouldListAtMostTheBoundOfCategoriesAndCountTheRest() {
        List<Prediction> predictions = new ArrayList<>();
        List<ScoringRow> rows = new ArrayList<>();
        int categories = UnscoredSummary.MAX_CATEGORIES + 5;
        for (int c = 0; c < categories; c++) {
            for (int k = 0; k <= (c < 5 ? 1 : 0); k++) {    // the first five categories twice, so they lead
                int line = rows.size() + 2;
                predictions.add(unscored(line, String.format("reason %02d: detail", c)));
                rows.add(row(line));
            }
        }
        List<String> lines = UnscoredSummary.of(predictions, rows).render();
        assertEquals(1 + UnscoredSummary.MAX_CATEGORIES + 1, lines.size());
        assertEquals("  reason 00: 2 (first: line 2, reason 00: detail)", lines.get(1));
        assertEquals("  reason 05: 1 (first: line 12, reason 05: detail)", lines.get(6));
        assertEquals("  5 more reasons: 5 rows", lines.get(lines.size() - 1));
    }

    @Test
    void shouldCutALongReasonInTheExample() {
        String reason = "invalid event: " + "x".repeat(300);
        String line = UnscoredSummary.of(List.of(unscored(2, reason)), List.of(row(2))).render().get(1);
        assertEquals("  invalid event: 1 (first: line 2, " + reason.substring(0, UnscoredSummary.MAX_REASON_CHARS - 3)
                + "...)", line);
    }
}
