package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signed models on the scorer: with keys, only a record whose {@value ModelSigning#HEADER} header is an HMAC-SHA256
 * of its exact bytes under a configured key id is put in force; forged, altered and unsigned records are refused,
 * counted, and the held model keeps scoring.
 */
class ModelSigningTest {

    private static final String CURRENT = "k2026:correct-horse-battery-staple-2026";
    private static final String PREVIOUS = "k2025:previous-secret-of-last-year-2025";
    /** Version held when the hostile record arrives; the hostile record claims the next one. */
    private static final long HELD = 3;
    private static final Topic<String, ModelParameters> MODEL_TOPIC = Topics.defaults().model();

    @TempDir
    Path stateDir;

    private static byte[] bytes(ModelParameters model) {
        return MODEL_TOPIC.valueBytes(model);
    }

    private static ModelParameters held() {
        return ScoringFixtures.model(HELD, Iris.every(3, 0), Iris.FEATURES);
    }

    private static Headers header(String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(ModelSigning.HEADER, value.getBytes(StandardCharsets.US_ASCII));
        return headers;
    }

    private ScoringHarness scorer(String keys, String name) {
        return new ScoringHarness(ScoringSettings.defaults(MODEL_ID).withSigning(ModelSigning.parse(keys)),
                stateDir.resolve(name));
    }

    private static List<Prediction> score(ScoringHarness h, String prefix) {
        for (int i = 0; i < 150; i += 25) {
            h.sendEvent(prefix + i, null, Iris.rows().get(i).features(Iris.FEATURES));
        }
        return h.predictions().stream().map(kv -> kv.value).toList();
    }

    /** Publishes the held model signed with {@code keys}, then {@code hostile}, and checks the held one stays. */
    private void assertRefused(String keys, byte[] hostile, Headers headers, String name) {
        ModelSigning signer = ModelSigning.parse(keys);
        try (ScoringHarness h = scorer(keys, name)) {
            byte[] genuine = bytes(held());
            h.publishRaw(MODEL_ID, genuine, signer.sign(genuine));
            h.publishRaw(MODEL_ID, hostile, headers);
            List<Prediction> out = score(h, "after-");
            assertEquals(6, out.size());
            assertTrue(out.stream().allMatch(p -> p.status() == Prediction.Status.SCORED && p.modelVersion() == HELD),
                    "scored with the genuine version " + HELD + ": " + out);
            assertEquals(1, h.cache.invalidRecords(), "the hostile record is counted");
            assertEquals(1, h.cache.compilations(), "and never put in force");
        }
    }

    @Test
    void hmacIsHmacSha256AsInRfc4231() {
        // RFC 4231, test case 2.
        byte[] mac = ModelSigning.hmac("Jefe".getBytes(StandardCharsets.US_ASCII),
                "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII));
        assertArrayEquals(HexFormat.of().parseHex(
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"), mac);
    }

    @Test
    void signatureHeaderIsKeyIdAndBase64HmacOfTheExactBytes() {
        byte[] value = bytes(irisModel(HELD + 1));
        Headers headers = ModelSigning.parse(CURRENT + "," + PREVIOUS).sign(value);
        String expected = "k2026:" + Base64.getEncoder().encodeToString(ModelSigning.hmac(
                "correct-horse-battery-staple-2026".getBytes(StandardCharsets.UTF_8), value));
        assertEquals(expected, new String(headers.lastHeader(ModelSigning.HEADER).value(), StandardCharsets.US_ASCII));
    }

    @Test
    void genuineSignedNewerModelIsPutInForce() {
        // Control for the refusals below: the same higher version, correctly signed, is accepted.
        ModelSigning signer = ModelSigning.parse(CURRENT);
        try (ScoringHarness h = scorer(CURRENT, "genuine")) {
            byte[] genuine = bytes(held());
            h.publishRaw(MODEL_ID, genuine, signer.sign(genuine));
            byte[] next = bytes(irisModel(HELD + 1));
            h.publishRaw(MODEL_ID, next, signer.sign(next));
            assertTrue(score(h, "g-").stream().allMatch(p -> p.modelVersion() == HELD + 1));
            assertEquals(0, h.cache.rejectedRecords());
        }
    }

    @Test
    void forgedHmacUnderTheRightKeyIdAndAHigherVersionIsRefused() {
        byte[] forged = bytes(irisModel(HELD + 1));
        // The right key id, an HMAC of the right bytes under a key the attacker guessed.
        String guess = "k2026:" + Base64.getEncoder().encodeToString(ModelSigning.hmac(
                "attacker-guess-of-the-secret!!".getBytes(StandardCharsets.UTF_8), forged));
        assertRefused(CURRENT, forged, header(guess), "forged");
    }

    @Test
    void alteredContentWithACopiedValidSignatureIsRefused() {
        byte[] genuineNext = bytes(irisModel(HELD + 1));
        Headers copied = ModelSigning.parse(CURRENT).sign(genuineNext);
        String json = new String(genuineNext, StandardCharsets.UTF_8);
        byte[] altered = json.replace("\"version\":" + (HELD + 1), "\"version\":" + (HELD + 9))
                .getBytes(StandardCharsets.UTF_8);
        assertFalse(java.util.Arrays.equals(genuineNext, altered), "the content really was altered");
        assertRefused(CURRENT, altered, copied, "altered");
    }

    @Test
    void unsignedRecordIsRefusedWhenKeysAreConfigured() {
        assertRefused(CURRENT, bytes(irisModel(HELD + 1)), new RecordHeaders(), "unsigned");
    }

    @Test
    void unknownKeyIdAndMalformedHeadersAreRefused() {
        byte[] next = bytes(irisModel(HELD + 1));
        assertRefused(CURRENT, next, ModelSigning.parse("other:some-other-secret-0123456").sign(next), "unknown");
        assertRefused(CURRENT, next, header("k2026:not base64!"), "not-base64");
        assertRefused(CURRENT, next, header("no-colon"), "no-colon");
    }

    @Test
    void rotationAcceptsARecordSignedWithAnOlderKeyInTheList() {
        ModelSigning oldTrainer = ModelSigning.parse(PREVIOUS);
        try (ScoringHarness h = scorer(CURRENT + "," + PREVIOUS, "rotation")) {
            byte[] v = bytes(irisModel(HELD));
            h.publishRaw(MODEL_ID, v, oldTrainer.sign(v));
            assertTrue(score(h, "r-").stream().allMatch(p -> p.modelVersion() == HELD));
            assertEquals(0, h.cache.rejectedRecords());
        }
        // Once the old key is dropped from the list, its records are refused.
        byte[] next = bytes(irisModel(HELD + 1));
        assertRefused(CURRENT, next, oldTrainer.sign(next), "dropped");
    }

    @Test
    void scorerWithoutKeysIgnoresSignaturesAsBefore() {
        try (ScoringHarness h = scorer("", "no-keys")) {
            h.publish(held());
            byte[] next = bytes(irisModel(HELD + 1));
            h.publishRaw(MODEL_ID, next, header("k2026:AAAA"));
            assertTrue(score(h, "n-").stream().allMatch(p -> p.modelVersion() == HELD + 1));
        }
    }

    @Test
    void refusalsAndDescriptionsNeverContainASecret() {
        ModelSigning signing = ModelSigning.parse(CURRENT + "," + PREVIOUS);
        assertFalse(signing.toString().contains("correct-horse"), signing.toString());
        String refusal = signing.refusal(new byte[] {1}, header("k2026:AAAA"));
        assertNotNull(refusal);
        assertFalse(refusal.contains("correct-horse") || refusal.contains("previous-secret"), refusal);
        IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
                () -> ModelSigning.parse("k:short-secret"));
        assertFalse(tooShort.getMessage().contains("short-secret"), tooShort.getMessage());
        // A forgotten id puts the secret's first part where the id goes: faults are named by position only.
        IllegalArgumentException noId = assertThrows(IllegalArgumentException.class,
                () -> ModelSigning.parse(CURRENT + ",SECRETPREFIX_abc:tooshort"));
        assertEquals("signing key 2: the secret must have at least 16 bytes", noId.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> ModelSigning.parse("SECRETPREFIX_abc:0123456789abcdef,SECRETPREFIX_abc:0123456789abcdeg"));
        assertEquals("signing key 2 has the id of an earlier key", twice.getMessage());
        assertNull(ModelSigning.NONE.refusal(new byte[] {1}, new RecordHeaders()));
    }
}
