package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.settings.HttpSecurity;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The start line's address and its warning: an endpoint bound beyond the loopback without a token says so (an
 * operator audit bound 0.0.0.0 and was told nothing); on the loopback, or with a token, it says nothing.
 */
class EndpointExposureTest {

    private static OpsServer open(String host, Optional<String> token) throws Exception {
        return EndpointSocket.open(host, 0, 1024, new HttpSecurity(token, false, Optional.empty()));
    }

    @Test
    void shouldWarnOnlyOfAnEndpointBeyondTheLoopbackWithoutAToken() throws Exception {
        OpsServer local = open("127.0.0.1", Optional.empty());
        OpsServer open = open("0.0.0.0", Optional.empty());
        OpsServer guarded = open("0.0.0.0", Optional.of("a-token-of-enough-length-0123456789"));
        try {
            assertEquals("http://127.0.0.1:" + local.port(), local.url());
            assertEquals(Optional.empty(), local.exposure());
            assertEquals("http://0.0.0.0:" + open.port(), open.url());
            assertTrue(open.exposure().orElseThrow().startsWith("the HTTP endpoint listens on 0.0.0.0 (gda.http.host)"
                    + " without a token: whoever reaches port " + open.port() + " can score"), open.exposure().get());
            assertEquals(Optional.empty(), guarded.exposure());
        } finally {
            local.close();
            open.close();
            guarded.close();
        }
    }
}
