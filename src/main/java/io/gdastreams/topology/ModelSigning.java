package io.gdastreams.topology;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Signed models (docs/SECURITY.md): an HMAC-SHA256 over the exact value bytes of a model record, carried in the
 * record header {@value #HEADER} as {@code keyId:base64(hmac)}. The trainer signs with the first key; a scorer
 * (and the trainer reading the topic back) accepts a record only if its header names one of the keys and the HMAC
 * under that key matches. The value bytes themselves are the canonical form: they are what the trainer measured
 * against the record limit and sent, so no re-serialisation can make signer and verifier disagree.
 *
 * <p>Keys are given as {@code id:secret[,id:secret...]} ({@code gda.model.signing.key}); rotation: put the new key
 * first and keep the old ones after it until no record signed with them is left on the topic. No method of this
 * class ever returns or prints a secret ({@link #toString()} lists the key ids only).
 */
public final class ModelSigning {

    /** The record header holding the signature. */
    public static final String HEADER = "gda.model.signature";
    /** No keys: records are neither signed nor verified. */
    public static final ModelSigning NONE = new ModelSigning(Map.of(), null);
    /** Shortest secret accepted (bytes of its UTF-8 form): 128 bits. */
    public static final int MIN_SECRET_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";
    /** Longest header value read (key id, ':' and the base64 of 32 bytes, with room): bounds hostile headers. */
    private static final int MAX_HEADER_BYTES = 512;

    private final Map<String, byte[]> keys;
    private final String signingKeyId;

    private ModelSigning(Map<String, byte[]> keys, String signingKeyId) {
        this.keys = keys;
        this.signingKeyId = signingKeyId;
    }

    /**
     * The keys of {@code spec}, {@code id:secret} pairs separated by commas, the first one signing. An
     * IllegalArgumentException names the faulty entry by position, never by content.
     */
    public static ModelSigning parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        Map<String, byte[]> keys = new LinkedHashMap<>();
        String[] entries = spec.split(",");
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].strip();
            int colon = entry.indexOf(':');
            if (colon < 1) {
                throw new IllegalArgumentException("signing key " + (i + 1) + " is not of the form id:secret");
            }
            String id = entry.substring(0, colon);
            if (!id.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException("signing key " + (i + 1) + ": the id must be 1 to 64 characters"
                        + " among A-Z a-z 0-9 . _ -");
            }
            byte[] secret = entry.substring(colon + 1).getBytes(StandardCharsets.UTF_8);
            // By position only: an entry whose id was forgotten has the secret's first part where the id goes.
            if (secret.length < MIN_SECRET_BYTES) {
                throw new IllegalArgumentException("signing key " + (i + 1) + ": the secret must have at least "
                        + MIN_SECRET_BYTES + " bytes");
            }
            if (keys.put(id, secret) != null) {
                throw new IllegalArgumentException("signing key " + (i + 1) + " has the id of an earlier key");
            }
        }
        return new ModelSigning(Collections.unmodifiableMap(keys), keys.keySet().iterator().next());
    }

    /** Whether keys are configured: records are then signed and verified. */
    public boolean enabled() {
        return signingKeyId != null;
    }

    /** The id of the key that signs. */
    public String signingKeyId() {
        return signingKeyId;
    }

    /** The headers to send {@code value} with: the signature, or none without keys. */
    public Headers sign(byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        if (enabled()) {
            String signature = signingKeyId + ":" + Base64.getEncoder().encodeToString(
                    hmac(keys.get(signingKeyId), value));
            headers.add(HEADER, signature.getBytes(StandardCharsets.US_ASCII));
        }
        return headers;
    }

    /**
     * Why the record {@code value} with {@code headers} must not be used as a model, or null when it may (it is
     * correctly signed by a known key, or no keys are configured). The reason names the key id, never a secret.
     */
    public String refusal(byte[] value, Headers headers) {
        if (!enabled()) {
            return null;
        }
        Header header = headers == null ? null : headers.lastHeader(HEADER);
        if (header == null || header.value() == null) {
            return "unsigned (no " + HEADER + " header) while signing keys are configured";
        }
        if (header.value().length > MAX_HEADER_BYTES) {
            return "malformed signature header (" + header.value().length + " bytes)";
        }
        String text = new String(header.value(), StandardCharsets.US_ASCII);
        int colon = text.indexOf(':');
        if (colon < 1) {
            return "malformed signature header (not keyId:hmac)";
        }
        String keyId = text.substring(0, colon);
        byte[] key = keys.get(keyId);
        if (key == null) {
            return "signed with unknown key id '" + printable(keyId) + "'";
        }
        byte[] claimed;
        try {
            claimed = Base64.getDecoder().decode(text.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return "malformed signature under key id '" + keyId + "' (not base64)";
        }
        // Constant time: the comparison reveals nothing about how much of a forged HMAC was right.
        if (value == null || !MessageDigest.isEqual(hmac(key, value), claimed)) {
            return "bad signature under key id '" + keyId + "' (forged or altered record)";
        }
        return null;
    }

    private static String printable(String text) {
        String clean = text.replaceAll("[^\\x20-\\x7e]", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 61) + "...";
    }

    static byte[] hmac(byte[] key, byte[] value) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac.doFinal(value);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " unavailable", e); // every Java 17 runtime has it
        }
    }

    @Override
    public String toString() {
        return enabled() ? "ModelSigning[signing key " + signingKeyId + ", verification keys " + keys.keySet() + "]"
                : "ModelSigning[none]";
    }
}
