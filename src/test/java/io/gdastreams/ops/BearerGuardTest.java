package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BearerGuardTest {

    private static final String TOKEN = "s3cr3t-Token-42";
    private final BearerGuard guard = new BearerGuard(TOKEN);

    @Test
    void shouldPassTheRightTokenWhateverTheSchemeCase() {
        assertTrue(guard.check("Bearer " + TOKEN).isEmpty());
        assertTrue(guard.check("bearer " + TOKEN).isEmpty());
    }

    @Test
    void shouldRefuseMissingMalformedAndWrongTokensWith401AndChallenge() {
        for (String header : new String[] {null, "", TOKEN, "Basic " + TOKEN, "Bearer " + TOKEN + "x",
                "Bearer " + TOKEN.substring(1), "Bearer " + TOKEN.toUpperCase(), "Bearer "}) {
            Optional<OpsServer.Reply> refusal = guard.check(header);
            assertTrue(refusal.isPresent(), String.valueOf(header));
            assertEquals(401, refusal.get().status());
            assertEquals("Bearer realm=\"gda-streams\"", refusal.get().headers().get("WWW-Authenticate"));
            String body = new String(refusal.get().body(), StandardCharsets.UTF_8);
            assertFalse(body.contains(TOKEN.substring(1, 8)), "the reason never quotes a token: " + body);
        }
    }

    @Test
    void shouldNotQuoteWhatWasPresented() {
        String presented = "Bearer guess-ABCDEFGH";
        String body = new String(guard.check(presented).orElseThrow().body(), StandardCharsets.UTF_8);
        assertFalse(body.contains("ABCDEFGH"), body);
    }
}
