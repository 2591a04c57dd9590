package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.Role;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's script (dashboard.js) on a page without a browser (dashboard-page.js), fed the JSON of the real
 * {@code /api/summary} and {@code /api/regions} of a twelve-class model: class k ≥ 10 shares class k − 10's colour,
 * so it must differ by its marker and swatch, and a line must part its region from a neighbour of the same colour.
 *
 * <p>The classes lie on the a axis, unit covariance, equal priors, in the order 0, 10, 1, 11, 2, 3, …, 9 two apart:
 * the regions are vertical strips whose boundaries are the midpoints, so 0 | 10 meet at a = 1 and 1 | 11 at a = 5,
 * the only two boundaries between classes of one colour.
 */
class DashboardScriptTest {

    private static final int CLASSES = 12;
    private static final int CELLS = 40;
    private static final int[] ORDER_ON_A = {0, 10, 1, 11, 2, 3, 4, 5, 6, 7, 8, 9};
    private static final double[][] IDENTITY = {{1, 0}, {0, 1}};
    private static final FitOptions QDA = new FitOptions(CovarianceType.FULL, Estimator.MLE, 0, 1e-9, 2);

    private static ModelParameters model() {
        List<ClassParameters> classes = new ArrayList<>();
        for (int k = 0; k < CLASSES; k++) {
            int label = k;
            int position = IntStream.range(0, CLASSES).filter(p -> ORDER_ON_A[p] == label).findFirst().orElseThrow();
            classes.add(new ClassParameters("k" + k, 10, 1.0 / CLASSES, new double[] {2.0 * position, 0}, IDENTITY,
                    null, null));
        }
        return new ModelParameters("m", 7, List.of("a", "b"), 10 * CLASSES, classes, Map.of(),
                "2026-11-29T12:00:00Z", "t", List.of());
    }

    @Test
    void shouldGiveClassesBeyondTenTheirOwnMarkerAndPartRegionsOfOneColour() throws IOException {
        ModelParameters model = model();
        OpsMetrics metrics = new OpsMetrics(() -> Optional.of(model),
                Clock.fixed(Instant.parse("2026-11-29T12:00:05Z"), ZoneOffset.UTC));
        String summary = Json.mapper().writeValueAsString(DashboardSummary.of(Role.SCORING, "m", metrics, 0L, null));
        String regions = Json.mapper().writeValueAsString(DecisionRegions.of(model, DecisionRegions.fit(model, QDA),
                new DecisionRule.MostProbable(), "a", "b", CELLS));
        metrics.close();
        try (Context js = Context.newBuilder("js").option("engine.WarnInterpreterOnly", "false").build()) {
            js.eval(script("dashboard-page.js"));
            js.eval("js", "page.routes['/api/summary'] = " + summary + ";\npage.routes['/api/regions'] = " + regions);
            // Loading the script starts it: no history, one poll, the summary drawn, then the regions of version 7.
            js.eval(script("dashboard.js"));

            String table = js.eval("js", "page.elements.model.innerHTML").asString();
            assertEquals(10, count(table, "border-radius:50%"), table);   // classes 0-9: round swatches
            assertEquals(2, count(table, "border-radius:0\""), table);    // classes 10, 11: square ones
            assertEquals(10, js.eval("js", "page.count('arc')").asInt());  // the means of 0-9: circles
            assertEquals(2, js.eval("js", "page.count('rect')").asInt());  // the means of 10, 11: squares
            assertTrue(js.eval("js", "page.elements['regions-note'].textContent").asString()
                    .startsWith("model v7, full covariance; 40×40 cells"));

            Value edges = js.eval("js", "sameColourEdges(page.routes['/api/regions'])");
            double xMin = js.eval("js", "page.routes['/api/regions'].xMin").asDouble();
            double cell = (js.eval("js", "page.routes['/api/regions'].xMax").asDouble() - xMin) / CELLS;
            assertEquals(2 * CELLS, edges.getArraySize());
            int[] perBoundary = new int[2];
            for (long i = 0; i < edges.getArraySize(); i++) {
                Value edge = edges.getArrayElement(i);
                assertEquals(edge.getMember("x0").asInt(), edge.getMember("x1").asInt());   // vertical
                assertEquals(edge.getMember("y0").asInt() + 1, edge.getMember("y1").asInt());
                double a = xMin + edge.getMember("x0").asInt() * cell;
                boolean blue = edge.getMember("colour").asString().equals("#1f77b4");       // classes 0 and 10
                double boundary = blue ? 1 : 5;                                            // 1 and 11: orange
                assertTrue(Math.abs(a - boundary) <= cell, a + " vs " + boundary);
                perBoundary[blue ? 0 : 1]++;
            }
            assertEquals(CELLS, perBoundary[0]);
            assertEquals(CELLS, perBoundary[1]);
            assertEquals(2 * CELLS, js.eval("js", "page.calls.filter(c => c.op === 'lineTo').length").asInt());
        }
    }

    private static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    private static Source script(String name) throws IOException {
        String path = name.equals("dashboard.js") ? "/io/gdastreams/ops/dashboard.js" : "/io/gdastreams/ops/" + name;
        try (InputStreamReader reader = new InputStreamReader(DashboardScriptTest.class.getResourceAsStream(path),
                StandardCharsets.UTF_8)) {
            return Source.newBuilder("js", reader, name).build();
        }
    }
}
