package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gdastreams.math.Exclusion;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.UnicodeText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each unscored reason's text (what consumers read) and whether the input is dead-lettered with it. */
class ScoringOutcomeTest {

    private static final ScoringOutcome.ModelStamp STAMP = new ScoringOutcome.ModelStamp("iris", 7L, null, null);

    @Test
    void shouldDeadLetterBadInputWithTheAnswersReason() {
        List<UnscoredReason> setAside = List.of(new UnscoredReason.KeyTooLong(70_000),
                new UnscoredReason.InvalidEvent("missing features"), new UnscoredReason.IdTooLong(1100, true),
                new UnscoredReason.UnknownFeatures(List.of("colour")),
                new UnscoredReason.InternalError(new IllegalStateException("boom")));
        for (UnscoredReason reason : setAside) {
            ScoringOutcome.Unscored answer = new ScoringOutcome.Unscored("e1", reason, STAMP);
            assertEquals(Optional.of(answer.prediction().reason()), answer.deadLetterReason(), reason.toString());
        }
        assertEquals("internal error: java.lang.IllegalStateException: boom",
                new UnscoredReason.InternalError(new IllegalStateException("boom")).text());
        assertEquals("id too long: 1100 bytes of UTF-8 > 1024 (the record key, used as id)",
                new UnscoredReason.IdTooLong(1100, true).text());
    }

    @Test
    void shouldAnswerWithoutDeadLetterWhenTheInputIsNotAtFault() {
        List<UnscoredReason> answerOnly = List.of(new UnscoredReason.NonFiniteDensity(Double.NaN),
                new UnscoredReason.NoModelHoldFull("model 'iris' not published", 3),
                new UnscoredReason.NoModelTooLargeToHold("model 'iris' not published", 600_000, 524_288),
                new UnscoredReason.NoScorableClass(7, List.of(new Exclusion("a", "count 1 below minimum 2"))));
        for (UnscoredReason reason : answerOnly) {
            assertEquals(Optional.empty(), new ScoringOutcome.Unscored("e1", reason, STAMP).deadLetterReason());
        }
        assertEquals("non-finite log density NaN", answerOnly.get(0).text());
        assertEquals("no model yet (model 'iris' not published; 3 earlier events already held)",
                answerOnly.get(1).text());
        assertEquals("no scorable class in model version 7: a (count 1 below minimum 2)", answerOnly.get(3).text());
    }

    @Test
    void shouldShowTenUnknownNamesAbbreviatedAndCountTheRest() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            names.add(i == 0 ? "n".repeat(100) : "f" + i);
        }
        assertEquals("unknown feature(s): " + "n".repeat(61) + "..., f1, f2, f3, f4, f5, f6, f7, f8, f9 and 2 more",
                new UnscoredReason.UnknownFeatures(names).text());
    }

    /** The audit's event: a feature name whose cut fell between the halves of an emoji; the reason stays Unicode. */
    @Test
    void shouldShortenNamesWithoutSplittingASurrogatePair() {
        String name = "a".repeat(UnscoredReason.MAX_NAME_CHARS - 4) + "\ud83d\ude00tail";
        String text = new UnscoredReason.UnknownFeatures(List.of(name)).text();
        assertNull(UnicodeText.problem(text), text);
        assertEquals(UnscoredReason.UnknownFeatures.PREFIX + "a".repeat(UnscoredReason.MAX_NAME_CHARS - 4) + "...",
                text, "the pair dropped whole, one char short of the bound");
    }

    @Test
    void shouldStampTheModelAndItsExclusionsOnAnUnscoredAnswer() {
        Prediction p = new ScoringOutcome.Unscored(null, new UnscoredReason.NonFiniteDensity(Double.NaN),
                new ScoringOutcome.ModelStamp("iris", 7L, Map.of("a", "count 1 below minimum 2"), null)).prediction();
        assertEquals(Prediction.Status.UNSCORED, p.status());
        assertNull(p.id());
        assertEquals("iris", p.modelId());
        assertEquals(7L, p.modelVersion());
        assertEquals(Map.of("a", "count 1 below minimum 2"), p.excluded());
        Prediction none = new ScoringOutcome.Unscored("e", new UnscoredReason.InvalidEvent("x"),
                ScoringOutcome.ModelStamp.NONE).prediction();
        assertNull(none.modelId());
        assertNull(none.modelVersion());
    }

    @Test
    void shouldRefuseAnUnscoredPredictionAsScored() {
        assertThrows(IllegalArgumentException.class,
                () -> new ScoringOutcome.Scored(Prediction.unscored("e", "no model yet", null, null)));
    }
}
