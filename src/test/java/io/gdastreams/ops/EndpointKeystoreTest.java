package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.settings.HttpSecurity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keystore opened without a password: the JDK's "keystore password was incorrect" said nothing of the password
 * never given; the refusal now says where to give it. A wrong password keeps the JDK's words alone.
 */
class EndpointKeystoreTest {

    private static final String PASSWORD = "keystore-test-password";

    @TempDir
    Path dir;

    @Test
    void shouldSayThatNoPasswordWasGiven() throws Exception {
        Path keystore = TestKeystore.make(dir, PASSWORD);
        IOException none = assertThrows(IOException.class, () -> EndpointSocket.open("127.0.0.1", 0, 1024,
                new HttpSecurity(Optional.empty(), false, Optional.of(new HttpSecurity.Tls(keystore, "PKCS12",
                        new char[0])))));
        assertTrue(none.getMessage().contains("no keystore password was given: set it in"
                + " GDA_HTTP_TLS_KEYSTORE_PASSWORD"), none.getMessage());
        IOException wrong = assertThrows(IOException.class, () -> EndpointSocket.open("127.0.0.1", 0, 1024,
                new HttpSecurity(Optional.empty(), false, Optional.of(new HttpSecurity.Tls(keystore, "PKCS12",
                        "not-the-password".toCharArray())))));
        assertTrue(!wrong.getMessage().contains("no keystore password"), wrong.getMessage());
    }
}
