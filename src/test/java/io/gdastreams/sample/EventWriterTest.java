package io.gdastreams.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.replay.CsvTable;
import io.gdastreams.serde.EventDecoder;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What is written reads back as what was drawn: CSV through replay's reader, JSON through the trainer's decoder. */
class EventWriterTest {

    /**
     * Names and labels that need quoting (a comma, a quote, a line break, white space an unquoted cell loses). A
     * feature name may hold a line break; a label may not (no control characters: EventDecoder.labelProblem).
     */
    private static final List<String> FEATURES = List.of("plain", "with,comma", "say \"x\"", " padded ",
            "multi\nline");
    private static final List<String> LABELS = List.of("c", "d,e", "  spaced", "q\"uote");
    /** Values whose text is not trivial: exponents, the smallest normal and subnormal, a negative zero. */
    private static final double[] VALUES = {1e-300, -2.5e17, Double.MIN_NORMAL, -0.0, 4.9e-324, 0.1 + 0.2};

    private static Map<String, Double> features(int i) {
        Map<String, Double> features = new LinkedHashMap<>();
        for (int j = 0; j < FEATURES.size(); j++) {
            features.put(FEATURES.get(j), VALUES[(i + j) % VALUES.length]);
        }
        return features;
    }

    @Test
    void csvShouldReadBackCellForCellThroughReplaysReader() {
        StringWriter out = new StringWriter();
        EventWriter writer = new EventWriter(out, EventFormat.CSV, FEATURES);
        for (int i = 0; i < LABELS.size(); i++) {
            writer.write(new LabelledEvent(features(i), LABELS.get(i)));
        }
        CsvTable table = CsvTable.read(new ByteArrayInputStream(out.toString().getBytes(StandardCharsets.UTF_8)),
                "written");
        assertEquals(List.of("plain", "with,comma", "say \"x\"", " padded ", "multi\nline", "label"), table.header());
        for (int i = 0; i < LABELS.size(); i++) {
            List<String> cells = table.rows().get(i).cells();
            for (int j = 0; j < FEATURES.size(); j++) {
                // Bit for bit: -0.0 stays negative, the subnormal keeps its value.
                assertEquals(Double.doubleToRawLongBits(features(i).get(FEATURES.get(j))),
                        Double.doubleToRawLongBits(Double.parseDouble(cells.get(j))), "row " + i + " column " + j);
            }
            assertEquals(LABELS.get(i), cells.get(FEATURES.size()), "row " + i);
        }
    }

    @Test
    void jsonLinesShouldDecodeAsTheSameLabelledEvents() {
        StringWriter out = new StringWriter();
        EventWriter writer = new EventWriter(out, EventFormat.JSONL, FEATURES);
        for (int i = 0; i < LABELS.size(); i++) {
            writer.write(new LabelledEvent(features(i), LABELS.get(i)));
        }
        List<String> lines = List.of(out.toString().split("\n", -1));
        assertEquals(LABELS.size() + 1, lines.size(), "one line per event, each ended by \\n");
        for (int i = 0; i < LABELS.size(); i++) {
            LabelledEvent decoded = EventDecoder.decodeLabelled(lines.get(i).getBytes(StandardCharsets.UTF_8)).value();
            assertEquals(new LabelledEvent(features(i), LABELS.get(i)), decoded, "line " + i);
        }
    }

    @Test
    void csvShouldRefuseAFeatureNamedLikeTheLabelColumn() {
        UserError e = assertThrows(UserError.class,
                () -> new EventWriter(new StringWriter(), EventFormat.CSV, List.of("x", "label")));
        assertEquals("the model has a feature named 'label', the CSV column of the class: use --format jsonl or"
                + " another --label-column", e.getMessage());
    }
}
