package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whatever arrives on either input topic, every event gets exactly one answer and nothing escapes. */
class ScoringPoisonTest {

    private static final long SEED = 20260101L;
    private static final int RECORDS = 400;

    @TempDir
    Path stateDir;

    /** Valid event and model JSON with random bytes overwritten, cut short or replaced entirely. */
    private static byte[] mangle(byte[] valid, Random random) {
        switch (random.nextInt(4)) {
            case 0:
                byte[] noise = new byte[random.nextInt(64)];
                random.nextBytes(noise);
                return noise;
            case 1:
                return Arrays.copyOf(valid, random.nextInt(valid.length));
            case 2:
                byte[] flipped = valid.clone();
                for (int i = 0; i < 3; i++) {
                    flipped[random.nextInt(flipped.length)] = (byte) random.nextInt(256);
                }
                return flipped;
            default:
                return valid;
        }
    }

    private static byte[] eventJson(String id, LabelledRow row) {
        try {
            return Json.mapper().writeValueAsBytes(Map.of("id", id, "features", row.features(Iris.FEATURES)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldAnswerEveryEventExactlyOnceWhateverTheBytes(boolean modelFirst) {
        Random random = new Random(SEED);
        ScoringSettings settings = ScoringSettings.defaults(MODEL_ID).withMaxPending(50);
        byte[] model = SerdeFactory.model().serializer().serialize("m", irisModel(1));
        List<LabelledRow> data = Iris.rows();
        int sent = 0;
        try (ScoringHarness h = new ScoringHarness(settings, stateDir)) {
            if (modelFirst) {
                h.publish(irisModel(1));
            }
            for (int i = 0; i < RECORDS; i++) {
                if (random.nextInt(10) == 0) {
                    h.publishRaw(MODEL_ID, mangle(model, random));
                    continue;
                }
                byte[] valid = eventJson("e" + i, data.get(random.nextInt(data.size())));
                h.send(random.nextInt(20) == 0 ? null : "k" + i, mangle(valid, random));
                sent++;
            }
            h.publish(irisModel(2));
            h.advanceWallClock(settings.pendingCheckInterval());
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(sent, out.size(), "one answer per event");
            long invalid = out.stream().filter(kv -> kv.value.status() == Status.UNSCORED
                    && kv.value.reason().startsWith("invalid event")).count();
            long misfit = out.stream().filter(kv -> kv.value.status() == Status.UNSCORED
                    && kv.value.reason().startsWith(UnscoredReason.UnknownFeatures.PREFIX)).count();
            assertEquals(invalid + misfit, h.deadLetters().size(),
                    "every unreadable event, and every event with a feature the model lacks, is dead-lettered");
            long scored = out.stream().filter(kv -> kv.value.status() == Status.SCORED).count();
            assertTrue(invalid > RECORDS / 10 && scored > RECORDS / 10,
                    "the mix exercises both paths: " + invalid + " invalid, " + scored + " scored");
            for (KeyValue<String, Prediction> kv : out) {
                if (kv.value.status() == Status.UNSCORED) {
                    assertNotNull(kv.value.reason());
                }
            }
        }
    }
}
