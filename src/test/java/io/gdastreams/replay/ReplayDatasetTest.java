package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The events a replay sends are read back by the topologies' own decoder exactly as the CSV says. */
class ReplayDatasetTest {

    private static CsvTable csv(String name, String text) {
        return CsvTable.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), name);
    }

    @Test
    void shouldUseEveryColumnExceptLabelAndIdAsFeaturesInFileOrder() {
        CsvTable table = csv("t.csv", "id,b,label,a\nx1,1.5,yes,-2e3\n");
        ReplayDataset data = ReplayDataset.of(table, table, "label", "id", null);
        assertEquals(List.of("b", "a"), data.features());
        Decoded<LabelledEvent> event = EventDecoder.decodeLabelled(data.training().get(0).value());
        assertEquals(new LabelledEvent(Map.of("b", 1.5, "a", -2000.0), "yes"), event.value());
        Decoded<UnlabelledEvent> scored = EventDecoder.decodeUnlabelled(data.scoring().get(0).value());
        assertEquals(new UnlabelledEvent("x1", Map.of("b", 1.5, "a", -2000.0)), scored.value());
        assertEquals("yes", data.scoring().get(0).trueLabel());
        assertTrue(data.scoreHasLabels());
    }

    @Test
    void shouldSendMalformedTrainingCellsSoThatTheTopologyRejectsThem() {
        CsvTable train = csv("t.csv", "a,b,label\n1,,x\n1,abc,x\n1,2,\n1,NaN,x\n");
        CsvTable score = csv("s.csv", "a,b\n1,2\n");
        ReplayDataset data = ReplayDataset.of(train, score, "label", null, null);
        assertEquals(List.of(2, 3, 4, 5), data.training().stream().map(ReplayDataset.TrainingRow::line).toList());
        // Empty cell: the feature is absent, which the schema check of the training topology refuses.
        assertEquals(Map.of("a", 1.0), EventDecoder.decodeLabelled(data.training().get(0).value()).value()
                .features());
        assertFalse(EventDecoder.decodeLabelled(data.training().get(1).value()).isOk());
        assertEquals("missing label", EventDecoder.decodeLabelled(data.training().get(2).value()).error());
        assertFalse(EventDecoder.decodeLabelled(data.training().get(3).value()).isOk());
        assertFalse(data.scoreHasLabels());
        assertNull(data.scoring().get(0).trueLabel());
    }

    /** A number beyond a double's range is refused as the overflow it is, as train refuses its JSON, not as text. */
    @Test
    void shouldSendANumberBeyondADoublesRangeAsTheNumberItIs() {
        CsvTable train = csv("t.csv", "a,b,label\n1,1e400,x\n1,-1E+999,x\n");
        ReplayDataset data = ReplayDataset.of(train, train, "label", null, null);
        for (int i = 0; i < 2; i++) {
            assertEquals("feature 'b' is not finite: it overflows a double (magnitude above 1.8e308)",
                    EventDecoder.decodeLabelled(data.training().get(i).value()).error());
            assertEquals(EventDecoder.decodeLabelled(("{\"features\": {\"a\": 1, \"b\": 1e400}, \"label\": \"x\"}")
                    .getBytes(StandardCharsets.UTF_8)).error(),
                    EventDecoder.decodeUnlabelled(data.scoring().get(i).value()).error());
        }
    }

    @Test
    void shouldLeaveEmptyScoringCellsOutAsMissingFeaturesAndNumberRowsFromOne() {
        CsvTable train = csv("t.csv", "a,b,label\n1,2,x\n");
        CsvTable score = csv("s.csv", "a,b\n1,\n,2\n");
        ReplayDataset data = ReplayDataset.of(train, score, "label", null, null);
        assertEquals(new UnlabelledEvent("1", Map.of("a", 1.0)),
                EventDecoder.decodeUnlabelled(data.scoring().get(0).value()).value());
        assertEquals(new UnlabelledEvent("2", Map.of("b", 2.0)),
                EventDecoder.decodeUnlabelled(data.scoring().get(1).value()).value());
    }

    @Test
    void shouldRejectMissingColumnsAndDuplicateIds() {
        CsvTable train = csv("t.csv", "a,b,label\n1,2,x\n");
        assertEquals("t.csv has no label column 'class' (columns: a, b, label)",
                assertThrows(UserError.class, () -> ReplayDataset.of(train, train, "class", null, null))
                        .getMessage());
        CsvTable scoreWithoutB = csv("s.csv", "a\n1\n");
        assertThrows(UserError.class, () -> ReplayDataset.of(train, scoreWithoutB, "label", null, null));
        CsvTable duplicateIds = csv("s.csv", "id,a,b\nk,1,2\nk,3,4\n");
        UserError e = assertThrows(UserError.class, () -> ReplayDataset.of(train, duplicateIds, "label", "id",
                null));
        assertEquals("s.csv line 3: id 'k' already used on line 2 (outputs are matched by id)", e.getMessage());
        assertThrows(UserError.class, () -> ReplayDataset.of(train, train, "label", null, List.of("a", "zz")));
    }

    @Test
    void shouldRefuseHeaderOnlyFilesBeforeAnythingStarts() {
        CsvTable rows = csv("t.csv", "a,b,label\n1,2,x\n");
        CsvTable headerOnlyTrain = csv("t.csv", "a,b,label\n");
        CsvTable headerOnlyScore = csv("s.csv", "a,b,label\n");
        assertEquals("t.csv has no data rows, only a header: nothing to train on", assertThrows(UserError.class,
                () -> ReplayDataset.of(headerOnlyTrain, rows, "label", null, null)).getMessage());
        assertEquals("s.csv has no data rows, only a header: nothing to score", assertThrows(UserError.class,
                () -> ReplayDataset.of(rows, headerOnlyScore, "label", null, null)).getMessage());
    }

    @Test
    void shouldReportNoConfusionMatrixWhenTheLabelColumnOfTheScoringFileIsEmpty() {
        CsvTable train = csv("t.csv", "a,b,label\n1,2,x\n");
        assertFalse(ReplayDataset.of(train, csv("s.csv", "a,b,label\n1,2,\n3,4,\n"), "label", null, null)
                .scoreHasLabels());
        assertTrue(ReplayDataset.of(train, csv("s.csv", "a,b,label\n1,2,\n3,4,x\n"), "label", null, null)
                .scoreHasLabels());
    }
}
