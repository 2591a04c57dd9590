package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The key specification and the refusal reasons without a topology: every id the documented form allows (1 to 64
 * characters) signs and verifies; a faulty entry is named by its position; a refusal says why and names the key id,
 * which an operator reads in the log and in the scorer's "no valid model" answer.
 */
class ModelSigningKeysTest {

    private static final String SECRET = "0123456789abcdef-secret";
    private static final byte[] VALUE = "{\"modelId\":\"m\"}".getBytes(StandardCharsets.UTF_8);

    private static Headers header(String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(ModelSigning.HEADER, value.getBytes(StandardCharsets.US_ASCII));
        return headers;
    }

    @Test
    void shouldSignAndVerifyUnderAOneCharacterKeyId() {
        ModelSigning signing = ModelSigning.parse("k:" + SECRET);
        assertEquals("k", signing.signingKeyId());
        Headers signed = signing.sign(VALUE);
        String expected = "k:" + Base64.getEncoder().encodeToString(
                ModelSigning.hmac(SECRET.getBytes(StandardCharsets.UTF_8), VALUE));
        assertEquals(expected, new String(signed.lastHeader(ModelSigning.HEADER).value(), StandardCharsets.US_ASCII));
        assertNull(signing.refusal(VALUE, signed));
    }

    @Test
    void shouldNameAFaultyEntryByItsPosition() {
        IllegalArgumentException noId = assertThrows(IllegalArgumentException.class,
                () -> ModelSigning.parse("a:" + SECRET + ", :" + SECRET));
        assertTrue(noId.getMessage().startsWith("signing key 2 is not of the form"), noId.getMessage());
        IllegalArgumentException badId = assertThrows(IllegalArgumentException.class,
                () -> ModelSigning.parse("a:" + SECRET + ",b:" + SECRET + ",a b:" + SECRET));
        assertTrue(badId.getMessage().startsWith("signing key 3: the id must be"), badId.getMessage());
    }

    @Test
    void shouldSayWhyARecordIsRefusedAndNameTheKeyId() {
        ModelSigning signing = ModelSigning.parse("k:" + SECRET);
        assertTrue(signing.refusal(VALUE, new RecordHeaders()).startsWith("unsigned"));
        assertTrue(signing.refusal(VALUE, header("nocolon")).startsWith("malformed signature header"));
        assertTrue(signing.refusal(VALUE, header("k:not base64!")).startsWith("malformed signature under key id 'k'"));
        String forged = "k:" + Base64.getEncoder().encodeToString(
                ModelSigning.hmac("another-secret-of-16-bytes".getBytes(StandardCharsets.UTF_8), VALUE));
        assertTrue(signing.refusal(VALUE, header(forged)).startsWith("bad signature under key id 'k'"));
        assertTrue(signing.refusal(VALUE, header("other:AAAA")).startsWith("signed with unknown key id 'other'"));
    }

    @Test
    void shouldReadAHeaderOfUpToTheBoundAndShowAnUnknownIdOfUpTo64Characters() {
        ModelSigning signing = ModelSigning.parse("k:" + SECRET);
        // 512 bytes, the longest header read: its (unknown) key id is looked at, and shown cut past 64 characters.
        String id = "u".repeat(512 - ":AAAA".length());
        String refusal = signing.refusal(VALUE, header(id + ":AAAA"));
        assertEquals("signed with unknown key id '" + id.substring(0, 61) + "...'", refusal);
        // 513 bytes: refused by its length alone.
        assertTrue(signing.refusal(VALUE, header(id + "u:AAAA")).startsWith("malformed signature header (513 bytes)"));
        // An id of exactly 64 characters is shown whole.
        String longest = "v".repeat(64);
        assertEquals("signed with unknown key id '" + longest + "'", signing.refusal(VALUE, header(longest + ":AAAA")));
    }

    @Test
    void shouldDescribeItselfByKeyIds() {
        ModelSigning signing = ModelSigning.parse("new:" + SECRET + ",old:" + SECRET + "-old");
        String text = signing.toString();
        assertTrue(text.contains("signing key new"), text);
        assertTrue(text.contains("[new, old]"), text);
        assertEquals("ModelSigning[none]", ModelSigning.NONE.toString());
    }
}
