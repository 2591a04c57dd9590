package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.EventFields;
import io.gdastreams.serde.EventReader;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.MetricsJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The two ways a training task tests an event before applying it give the same outputs to the bit: the fast path
 * (the event read by {@link EventReader} into a point in schema order, scored by
 * {@link CompiledModel#posterior(double[], double[])} into a reused buffer) and the decoder path (the event decoded
 * by {@link EventDecoder}, scored by {@link CompiledModel#posterior(Map, Map)} by feature names). The same stream
 * goes through two evaluators, one per path: every posterior, every returned record (windows and drift alarms) and
 * the stored window and drift-test state after every event must be equal byte for byte.
 */
class PrequentialPathParityTest {

    private static final int MAX_FEATURES = 100;
    private static final Duration WINDOW = Duration.ofSeconds(1);
    /** Each model is fitted on half of Iris: the drift test's warm-up is set to what it holds. */
    private static final int IRIS_MODEL_EVENTS = 75;
    /** A drift test sensitive enough to fire on the swapped labels of the stream's last part. */
    private static final PrequentialSettings SETTINGS = PrequentialSettings.defaults(WINDOW).withDrift(0.05, 50)
            .withDriftWarmup(IRIS_MODEL_EVENTS);

    private static byte[] json(LabelledRow row, String label) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("features", row.features(Iris.FEATURES));
        event.put("label", label);
        return Json.toBytes(event);
    }

    @Test
    void pointAndDecodedEventsGiveTheSameWindowsDriftAlarmsAndStoredStateToTheBit() {
        PrequentialModel models = new PrequentialModel("m", SETTINGS);
        PrequentialEvaluator pointPath = new PrequentialEvaluator("m", SETTINGS, 0, null, null);
        PrequentialEvaluator mapPath = new PrequentialEvaluator("m", SETTINGS, 0, null, null);
        EventReader reader = new EventReader(Iris.FEATURES, List.of(), MAX_FEATURES);
        EventFields fields = reader.newFields();

        List<String> records = new ArrayList<>();
        int scored = 0;
        double[] buffer = null;
        CompiledModel bufferModel = null;
        for (IrisPrequentialStream.Event e : IrisPrequentialStream.events()) {
            int i = e.index();
            long timestamp = e.timestamp();
            byte[] value = json(e.row(), e.label());
            CompiledModel model = models.of(e.model());

            assertTrue(reader.readLabelled(value, fields), "the fast path reads event " + i);
            LabelledEvent event = EventDecoder.decodeLabelled(value, MAX_FEATURES, Set.of()).value();
            assertNotNull(event, "the decoder reads event " + i);
            if (model != null && model != bufferModel) {
                assertEquals(Iris.FEATURES, model.features(), "the model's features are the schema, in order");
                bufferModel = model;
                buffer = new double[model.labels().size()];
            }
            double[] reused = buffer;
            double[][] posteriors = new double[2][];
            PrequentialEvaluator.Observation byPoint = pointPath.observe(fields.label(), timestamp, model, m -> {
                double[] p = m.posterior(fields.point(), reused);
                posteriors[0] = p == null ? null : p.clone();
                return p;
            }, 0, 0, models.warmedUp(model));
            PrequentialEvaluator.Observation byName = mapPath.observe(event.label(), timestamp, model, m -> {
                double[] p = m.posterior(event.features(), event.categories());
                posteriors[1] = p;
                return p;
            }, 0, 0, models.warmedUp(model));

            assertArrayEquals(posteriors[1], posteriors[0], "posterior of event " + i); // same bits (0 tolerance)
            assertEquals(byName, byPoint, "records of event " + i);
            // The window and the drift state are one stored value (PrequentialStateBytes).
            assertTrue(Arrays.equals(mapPath.stateBytes(), pointPath.stateBytes()), "state after event " + i);
            byPoint.records().forEach(r -> records.add(MetricsJson.write(r)));
            scored += posteriors[0] != null ? 1 : 0;
        }

        // The stream went through every branch: no model, late events, an unknown class, two model versions, drift.
        String all = String.join("\n", records);
        assertTrue(scored > 400, "scored " + scored);
        assertTrue(records.size() > 50, records.size() + " records");
        assertTrue(all.contains("\"noModel\":10"), "windows of no model");
        assertTrue(all.contains("\"late\":1"), "late events");
        assertTrue(all.contains("\"unknown\""), "an unknown class");
        assertTrue(all.contains("\"modelVersions\":[1,2]"), "a window scored by both versions");
        assertTrue(all.contains("\"type\":\"drift\""), "a drift alarm");
    }
}
