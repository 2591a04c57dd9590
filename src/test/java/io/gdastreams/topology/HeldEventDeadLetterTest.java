package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.HostileRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dead letter of an event held until a model exists and refused when released: like the dead letter of the same
 * event refused at once, it names where the event came from (topic, partition, offset) and keeps its key and value,
 * so that it can be found and replayed. Only an entry held before the scorer kept those says that they are unknown.
 */
class HeldEventDeadLetterTest {

    private static final byte[] UNKNOWN_FEATURE = "{\"features\": {\"no_such_feature\": 1.0}}"
            .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void aHeldEventRefusedOnReleaseIsDeadLetteredWithItsSourceCoordinates() {
        ScoringSettings settings = ScoringSettings.defaults(MODEL_ID);
        try (ScoringHarness h = new ScoringHarness(settings, dir)) {
            h.send("first", HostileRecords.validEvent(Iris.rows().get(0).x(), null)); // offset 0, held
            h.send("held", UNKNOWN_FEATURE);                                           // offset 1, held
            assertEquals(List.of(), h.predictionRecords(), "held: no model yet");
            h.publish(irisModel(1));
            h.send("at-once", UNKNOWN_FEATURE); // offset 2: the held events are answered first, then this one

            assertEquals(List.of(Prediction.Status.SCORED, Prediction.Status.UNSCORED, Prediction.Status.UNSCORED),
                    h.predictions().stream().map(kv -> kv.value.status()).toList());
            List<DeadLetter> letters = h.deadLetters();
            assertEquals(2, letters.size(), letters.toString());
            DeadLetter held = letters.get(0);
            DeadLetter atOnce = letters.get(1);
            String topic = settings.topics().unlabelled().name();
            assertEquals(topic, held.topic());
            assertEquals(0, held.partition());
            assertEquals(1, held.offset());
            assertEquals(base64("held".getBytes(StandardCharsets.UTF_8)), held.keyBase64());
            assertEquals(base64(UNKNOWN_FEATURE), held.valueBase64());
            assertEquals(atOnce.reason(), held.reason(), "the reason of the same event refused at once, no note");
            assertTrue(held.reason().startsWith(UnscoredReason.UnknownFeatures.PREFIX + "no_such_feature"),
                    held.reason());
            assertEquals(new DeadLetter(held.reason(), topic, 0, 2, base64("at-once".getBytes(StandardCharsets.UTF_8)),
                    base64(UNKNOWN_FEATURE)), atOnce, "the letter of the event refused at once, for comparison");
        }
    }

    /** An entry of an earlier release kept the decoded features only: no topic, partition, offset or value. */
    @Test
    void anEntryHeldBeforeSourceCoordinatesWereKeptSaysThatTheyAreUnknown() {
        byte[] key = "old".getBytes(StandardCharsets.UTF_8);
        PendingEvent old = new PendingEvent(key, "old", Map.of("no_such_feature", 1.0), 7L, null, null, null, null,
                null);
        String reason = UnscoredReason.UnknownFeatures.PREFIX + "no_such_feature";
        DeadLetter letter = HeldEvents.deadLetter(old, reason);
        assertNull(letter.topic());
        assertEquals(-1, letter.partition());
        assertEquals(-1, letter.offset());
        assertEquals(base64(key), letter.keyBase64());
        assertNull(letter.valueBase64());
        assertTrue(letter.reason().startsWith(reason + " ("), letter.reason());
        assertTrue(letter.reason().contains("source coordinates"), letter.reason());
        assertFalse(HeldEvents.deadLetter(new PendingEvent(key, "new", null, 7L, "t", 3, 9L, UNKNOWN_FEATURE, null),
                reason).reason().contains("source coordinates"), "an entry that kept them has no such note");
    }
}
