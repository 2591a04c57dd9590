package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.math.Forgetting;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forgetting with a categorical feature through the training topology on a real broker (exactly_once_v2, 4
 * partitions): the events of src/test/resources/fixtures/forgetting-categorical/categorical_forgetting_golden.json
 * go to their partitions with their timestamps (interleaved and late), with weights, some under a wrong label that
 * a retraction plus the right event corrects; the instance that trained the first half loses its local state. The
 * model's category table must carry the numpy batch weights W_kc (and the class weights W_k).
 */
@ExtendWith(KafkaBrokerExtension.class)
class CategoricalForgettingIT {

    /** The done-criterion for forgetting: ≤ 1e-9 relative. */
    private static final double GOLDEN_RELATIVE = 1e-9;
    private static final int PARTITIONS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    /** The scenario's pipeline and training instance. */
    private GoldenCorrectionRun correctionRun;

    @AfterEach
    void stop() {
        if (correctionRun != null) {
            correctionRun.close();
        }
    }

    @Test
    void weightedCategoryCountsSurviveALostLocalStateAndEqualTheBatchWeights(KafkaBroker broker) throws IOException {
        JsonNode golden;
        try (InputStream in = getClass().getResourceAsStream(
                "/fixtures/forgetting-categorical/categorical_forgetting_golden.json")) {
            golden = JSON.readTree(in);
        }
        Forgetting forgetting = new Forgetting(golden.get("halfLifeMs").asDouble());
        correctionRun = new GoldenCorrectionRun(broker, stateDir, s -> s.withForgetting(forgetting)
                .withCategorical(CategoricalSettings.NONE.withFeatures(List.of("colour"))),
                (e, features) -> {
                    features.set("x", e.get("x"));
                    features.set("colour", e.get("colour"));
                });
        ModelParameters model = correctionRun.run(golden, "categorical-forgetting", PARTITIONS);

        JsonNode expected = golden.get("forgetting");
        CategoricalTable table = model.categorical().get(0);
        assertTrue(table.weights() != null, "a weighted table");
        double worst = 0;
        for (int k = 0; k < model.classes().size(); k++) {
            ClassParameters c = model.classes().get(k);
            JsonNode ref = expected.get(c.label());
            assertEquals(ref.get("count").asLong(), c.count());
            worst = Math.max(worst, check(ref.get("W").asDouble(), c.effectiveCount(), c.label() + " W"));
            for (int v = 0; v < table.values().size(); v++) {
                JsonNode colour = ref.get("colours").get(table.values().get(v));
                assertEquals(colour == null ? 0 : colour.get("count").asLong(), table.counts().get(k)[v]);
                worst = Math.max(worst, check(colour == null ? 0 : colour.get("W").asDouble(),
                        table.weights().get(k)[v], c.label() + " " + table.values().get(v)));
            }
        }
        System.out.printf("CategoricalForgettingIT: largest relative difference from the numpy batch weights %.2e%n",
                worst);
    }

    private static double check(double expected, double actual, String what) {
        double relative = expected == 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
        assertTrue(relative <= GOLDEN_RELATIVE, what + ": expected " + expected + " got " + actual);
        return relative;
    }
}
