package io.gdastreams.ops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The bearer-token check of the HTTP endpoint: a request passes when its {@code Authorization} header is
 * {@code Bearer <token>} with the configured token. Both sides are hashed (SHA-256) and compared with
 * {@link MessageDigest#isEqual}, whose time does not depend on where the bytes differ; hashing first also hides the
 * token's length. A refusal is a 401 with {@code WWW-Authenticate: Bearer} and a reason that never quotes what was
 * presented.
 */
final class BearerGuard {

    private static final String SCHEME = "Bearer ";

    private final byte[] expected;

    /** A guard for {@code token} (not blank). */
    BearerGuard(String token) {
        if (token.isBlank()) {
            throw new IllegalArgumentException("empty token");
        }
        this.expected = sha256(token.getBytes(StandardCharsets.UTF_8));
    }

    /** Empty when {@code authorization} (the header, may be null) carries the token; else the 401 to answer. */
    Optional<OpsServer.Reply> check(String authorization) {
        if (authorization == null || authorization.isEmpty()) {
            return Optional.of(refusal("missing bearer token (Authorization: Bearer <gda.http.token>)"));
        }
        if (!authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.of(refusal("expected Authorization: Bearer <gda.http.token>"));
        }
        byte[] presented = sha256(authorization.substring(SCHEME.length()).strip()
                .getBytes(StandardCharsets.UTF_8));
        return MessageDigest.isEqual(expected, presented) ? Optional.empty()
                : Optional.of(refusal("wrong bearer token"));
    }

    private static OpsServer.Reply refusal(String reason) {
        return OpsServer.Reply.error(401, reason).withHeader("WWW-Authenticate", "Bearer realm=\"gda-streams\"");
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
