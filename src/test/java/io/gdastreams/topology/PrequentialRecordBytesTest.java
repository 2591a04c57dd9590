package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.MetricsRecord;
import io.gdastreams.serde.MetricsJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The metrics topic's bytes did not change when the records got a type ({@link MetricsRecord}) and one codec
 * ({@link MetricsJson}): prequential-records.jsonl holds what the writer before them (a map per record, by the
 * project mapper) wrote for the Iris stream of {@link IrisPrequentialStream} (windows with and without scored
 * events, late and unscorable events, a class the model lacks, versions, drift alarms that alert and that reset)
 * and for windows built by hand (labels that JSON escapes); the trainer's records today are compared to it line by
 * line, and each is read back to the same record.
 */
class PrequentialRecordBytesTest {

    private static final String GOLDEN = "prequential-records.jsonl";

    /** The records of the Iris stream under alarms that alert and alarms that reset, then the hand-built windows. */
    static List<String> records() {
        List<String> records = new ArrayList<>();
        PrequentialSettings alert = PrequentialSettings.defaults(Duration.ofSeconds(1)).withDrift(0.05, 50);
        records.addAll(streamRecords(alert));
        records.addAll(streamRecords(alert.withDriftReset(true)));
        records.add(MetricsJson.write(PrequentialRestartTest.window().toRecord("m", 0, 1000)));
        PrequentialWindow escaped = new PrequentialWindow(-5_000);
        escaped.add("quote \" back \\ é ✓ tab\t", true, 1e-300, 2.0, 7);
        escaped.add("zz", false, 34.538776394910684, 1.0000000000000002, Long.MAX_VALUE);
        records.add(MetricsJson.write(escaped.toRecord("model \"x\" ü", Integer.MAX_VALUE, 3_000)));
        PrequentialWindow unscored = new PrequentialWindow(0);
        unscored.noModel = 3;
        records.add(MetricsJson.write(unscored.toRecord("m", 7, 1000)));
        return records;
    }

    private static List<String> streamRecords(PrequentialSettings settings) {
        PrequentialModel models = new PrequentialModel("m", settings);
        PrequentialEvaluator evaluator = new PrequentialEvaluator("m", settings, 3, null, null);
        List<String> records = new ArrayList<>();
        long own = 0;
        for (IrisPrequentialStream.Event e : IrisPrequentialStream.events()) {
            double[] x = e.row().x();
            PrequentialEvaluator.Observation o = evaluator.observe(e.label(), e.timestamp(), models.of(e.model()),
                    m -> m.posterior(x, new double[m.labels().size()]), 0, own, e.index() >= 30);
            o.records().forEach(r -> records.add(MetricsJson.write(r)));
            if (o.reset()) {
                own++;
            }
        }
        return records;
    }

    @Test
    void theWriterWritesTheBytesOfTheWriterBeforeTheCodecAndTheCodecReadsThemBack() throws IOException {
        List<String> golden;
        try (InputStream in = PrequentialRecordBytesTest.class.getResourceAsStream(GOLDEN)) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        List<String> records = records();
        assertEquals(golden.size(), records.size(), "records");
        for (int i = 0; i < golden.size(); i++) {
            assertEquals(golden.get(i), records.get(i), "record " + (i + 1));
            MetricsRecord read = MetricsJson.read(records.get(i)).orElseThrow();
            assertEquals(records.get(i), MetricsJson.write(read), "record " + (i + 1) + " read and written again");
        }
        String all = String.join("\n", golden);
        for (String shape : new String[] {"\"type\":\"drift\"", "\"action\":\"alert\"", "\"action\":\"reset\"",
                "\"resetGeneration\":1", "\"accuracy\":null", "\"late\":1", "\"unknown\"", "\"modelVersions\":[1,2]"}) {
            assertTrue(all.contains(shape), "the golden records hold " + shape);
        }
    }
}
